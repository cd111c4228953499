/**
 * Team-member invitations. A customer invites an address instead of making a login
 * with a password of their choosing; the invitee opens the e-mailed link and chooses their
 * own. Nothing the customer sees depends on whether the address already has an account: the
 * answer, the pending invitation and the log entry are the same. Only the e-mail differs (a
 * notice instead of the link), and it goes to the address's owner alone.
 */
import crypto from 'node:crypto';
import type { Locale } from '../../resources/customer.js';
import { INVITATION_DAYS, teamInvitation } from '../../resources/team_invitation.js';
import type { CustomerActor } from '../core/actor.js';
import { audit } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { hashPassword } from '../core/passwords.js';
import { findVisible } from '../core/scope.js';
import { DAY_MS, now, nowMs } from '../core/time.js';
import type { Db } from '../db/index.js';
import { createLogin, signIn } from '../accounts/sign-in.js';
import { checkOwnDomains, ownDomainIds, setTeamDomains } from './domains.js';

type OwnerContext = CallContext<'customer'>;

export interface InvitationInput {
  email: string;
  username?: string;
  domain_ids?: number[];
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** A new link: the token goes into the e-mail only, the table keeps its hash. */
function newLink() {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, token_hash: sha256(token), expires_at: new Date(nowMs() + INVITATION_DAYS * DAY_MS).toISOString() };
}

const invalidInvitation = () => new AppError('badCode', 'error.invitation_invalid');

/** Each invitation mails an address the customer chose: counted per customer. */
const limitSending = (ctx: OwnerContext) => ctx.services.limiter.hit(['invitationSendPerCustomer', String(ctx.actor.customerId)]);

/** The invitation e-mail: the link, or to an address that already has an account a notice instead (nothing is made for it). */
async function mailInvitation(trx: Db, ctx: OwnerContext, email: string, token: string) {
  const account = await trx.selectFrom('user').select('locale').where('email', '=', email).executeTakeFirst();
  const inviter = ctx.actor.email;
  await ctx.services.mailer.send(trx, {
    key: account ? 'team_invitation_exists' : 'team_invitation',
    locale: (account?.locale ?? ctx.locale) as Locale,
    to: email,
    params: account ? { inviter } : { inviter, token, days: INVITATION_DAYS },
    userId: ctx.actor.customerId,
  });
}

/** The pending invitation as the customer's list shows it. */
const pendingInvitation = (ctx: OwnerContext, id: number, trx: Db) => findVisible(teamInvitation, 'admin', ctx, id, trx);

/**
 * Invites an address to the caller's team, or renews the pending invitation of that address
 * (a new link, the old one ends; a given name or domains replace the earlier ones).
 */
export async function invite(ctx: OwnerContext, input: InvitationInput) {
  await limitSending(ctx);
  const customerId = ctx.actor.customerId;
  const link = newLink();
  const invitation = await ctx.services.db.transaction().execute(async (trx) => {
    await checkOwnDomains(trx, customerId, input.domain_ids);
    const given = {
      ...(input.username !== undefined ? { username: input.username } : {}),
      ...(input.domain_ids !== undefined ? { domain_ids: JSON.stringify([...new Set(input.domain_ids)]) } : {}),
    };
    const pending = await trx
      .selectFrom('team_invitation')
      .select('id')
      .where('owner_id', '=', customerId)
      .where('email', '=', input.email)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    let id: number;
    if (pending) {
      id = Number(pending.id);
      await trx.updateTable('team_invitation').set({ ...given, token_hash: link.token_hash, expires_at: link.expires_at }).where('id', '=', id).execute();
    } else {
      const created = await trx
        .insertInto('team_invitation')
        .values({ owner_id: customerId, email: input.email, ...given, token_hash: link.token_hash, expires_at: link.expires_at, created_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = Number(created.id);
    }
    await mailInvitation(trx, ctx, input.email, link.token);
    const invitation = await pendingInvitation(ctx, id, trx);
    await audit(trx, ctx, { action: 'invite', targetType: 'team_invitation', targetId: id, userId: customerId, after: { email: invitation.email, username: invitation.username, domain_ids: invitation.domain_ids } });
    return invitation;
  });
  // No id at the top: this is no team member (yet), and the answer must not pass for one.
  return { invited: true, email: invitation.email, invitation };
}

/** Sends a pending invitation again with a new link, valid for another INVITATION_DAYS. */
export async function resendInvitation(ctx: OwnerContext, id: number) {
  await limitSending(ctx);
  const link = newLink();
  return ctx.services.db.transaction().execute(async (trx) => {
    const invitation = await pendingInvitation(ctx, id, trx);
    await trx.updateTable('team_invitation').set({ token_hash: link.token_hash, expires_at: link.expires_at }).where('id', '=', id).execute();
    await mailInvitation(trx, ctx, String(invitation.email), link.token);
    await audit(trx, ctx, { action: 'resend', targetType: 'team_invitation', targetId: id, userId: ctx.actor.customerId, after: { email: invitation.email } });
    return pendingInvitation(ctx, id, trx);
  });
}

/**
 * The invitee accepts with the link's token and their own password: the team member is made
 * (verified: the link proves the address), the invitation is used up, and they are signed in.
 */
export async function acceptInvitation(ctx: CallContext, input: { token: string; password: string }) {
  const { db } = ctx.services;
  const invitation = await db.selectFrom('team_invitation').selectAll().where('token_hash', '=', sha256(input.token)).executeTakeFirst();
  if (!invitation || invitation.accepted_at !== null || invitation.expires_at <= now()) throw invalidInvitation();
  const ownerId = Number(invitation.owner_id);
  const owner = await db.selectFrom('user').select('status').where('id', '=', ownerId).executeTakeFirst();
  if (owner?.status !== 'active') throw new AppError('forbidden', 'error.account_disabled');
  // Hashed before the transaction, which on SQLite would hold the only connection meanwhile.
  const passwordHash = await hashPassword(input.password);
  const member = await db.transaction().execute(async (trx) => {
    const at = now();
    // Exactly once: of two uses of one link, only the first still finds it pending.
    const used = await trx
      .updateTable('team_invitation')
      .set({ accepted_at: at })
      .where('id', '=', invitation.id)
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw invalidInvitation();
    // Only the address's owner holds the link, so they may be told: it got an account meanwhile.
    if (await trx.selectFrom('user').select('id').where('email', '=', invitation.email).executeTakeFirst()) {
      throw new AppError('conflict', 'error.invitation_address_taken');
    }
    const created = await createLogin(trx, { ownerId, email: invitation.email, username: invitation.username, passwordHash, locale: ctx.locale });
    // Domains the customer has removed since the invitation are left out.
    await setTeamDomains(trx, created.id, await ownDomainIds(trx, ownerId, JSON.parse(invitation.domain_ids) as number[]));
    const asMember: CustomerActor = { kind: 'customer', sessionId: 0, accountId: created.id, customerId: ownerId, isOwner: false, email: created.email, isVerified: true };
    await audit(trx, { ...ctx, actor: asMember }, { action: 'accept_invitation', targetType: 'team_invitation', targetId: invitation.id, userId: ownerId, after: { email: created.email, username: created.username } });
    return created;
  });
  return signIn(ctx, member, 'invitation');
}
