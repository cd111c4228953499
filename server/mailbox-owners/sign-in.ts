/**
 * Signing a mailbox owner in with the mailbox's address and password: the hash is checked the way
 * Dovecot checks it, whatever scheme an import brought, and replaced by argon2id once the
 * password is known to be right. Only a mailbox that may receive mail and whose domain lets its
 * mailboxes use the area signs in.
 */
import type { MailboxActor } from '../core/actor.js';
import { audit } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { verifyPassword } from '../core/passwords.js';
import { createSession } from '../accounts/sessions.js';
import { requireSecondStep, type SecondFactorMethod } from '../security/gate.js';
import type { Db } from '../db/index.js';
import { hashMailboxPassword } from '../mail/mailbox-password.js';
import { PREFERRED_SCHEME, schemeOf, verifySchemeHash } from '../mail/password-schemes.js';

export interface MailboxLogin {
  id: number;
  address: string;
  address_unicode: string;
  name: string;
  owner_id: number;
  domain_id: number;
  password_hash: string;
  active: number;
  domain_status: string;
  verified_at: string | null;
  mailbox_area: number;
  owner_status: string;
}

const mailboxLogins = (db: Db) =>
  db
    .selectFrom('mailbox as m')
    .innerJoin('domain as d', 'd.id', 'm.domain_id')
    .innerJoin('user as u', 'u.id', 'm.owner_id')
    .select(['m.id', 'm.address', 'm.address_unicode', 'm.name', 'm.owner_id', 'm.domain_id', 'm.password_hash', 'm.active', 'd.status as domain_status', 'd.verified_at', 'd.mailbox_area', 'u.status as owner_status']);

export async function mailboxByAddress(db: Db, address: string): Promise<MailboxLogin | undefined> {
  return mailboxLogins(db).where('m.address', '=', address).executeTakeFirst();
}

export async function mailboxById(db: Db, id: number): Promise<MailboxLogin | undefined> {
  return mailboxLogins(db).where('m.id', '=', id).executeTakeFirst();
}

/** The mailbox, its domain (active, verified, area on) and its customer are all active. */
export const maySignIn = (box: MailboxLogin) =>
  Number(box.active) === 1 && box.domain_status === 'active' && box.verified_at !== null && Number(box.mailbox_area) === 1 && box.owner_status === 'active';

/** Whether the password is the mailbox's; an unknown address takes as long as a wrong password. */
export async function isMailboxPassword(box: Pick<MailboxLogin, 'password_hash'> | undefined, password: string): Promise<boolean> {
  if (!box) return verifyPassword(undefined, password);
  return verifySchemeHash(box.password_hash, password);
}

/** A hash of a weaker scheme than argon2id becomes argon2id, unless the password changed meanwhile. */
export async function upgradeHash(db: Db, box: Pick<MailboxLogin, 'id' | 'password_hash'>, password: string): Promise<string | undefined> {
  const scheme = schemeOf(box.password_hash);
  if (scheme === PREFERRED_SCHEME) return undefined;
  const upgraded = await hashMailboxPassword(password);
  await db.updateTable('mailbox').set({ password_hash: upgraded }).where('id', '=', box.id).where('password_hash', '=', box.password_hash).execute();
  return scheme;
}

/**
 * Starts a mailbox owner's session once the password (or a passkey) is right and the mailbox may
 * sign in; a mailbox with a second factor gets a pending sign-in instead (error 40103), until the
 * second step gives `secondFactor`. `how` goes into the log entry.
 */
export async function signInMailbox(ctx: CallContext, box: MailboxLogin, how: { method: 'password' | 'passkey'; upgraded_from?: string }, secondFactor?: SecondFactorMethod) {
  const { db, config } = ctx.services;
  if (!secondFactor) await requireSecondStep(ctx, { kind: 'mailbox', id: box.id }, how.method);
  const token = await createSession(ctx, 'mailbox', { id: box.id, email: box.address, locale: ctx.locale, customerId: box.owner_id });
  await audit(db, { ...ctx, actor: mailboxActor(box) }, { action: 'login', targetType: 'email', targetId: box.id, userId: box.owner_id, after: { ...how, area: 'mail', ...(secondFactor ? { second_factor: secondFactor } : {}) } });
  return { id: box.id, email: box.address, address_unicode: box.address_unicode, name: box.name, token };
}

export const mailboxActor = (box: MailboxLogin, sessionId = 0): MailboxActor => ({
  kind: 'mailbox',
  sessionId,
  mailboxId: box.id,
  customerId: box.owner_id,
  domainId: box.domain_id,
  address: box.address,
});

export async function refuseSignIn(ctx: CallContext, address: string, box: MailboxLogin | undefined, why: 'password' | 'not_allowed'): Promise<never> {
  await audit(ctx.services.db, ctx, {
    action: 'login_failed',
    targetType: 'email',
    targetId: box?.id ?? null,
    userId: box?.owner_id ?? null,
    after: { email: address, method: 'password', area: 'mail', ...(why === 'not_allowed' ? { reason: 'not_allowed' } : {}) },
  });
  throw why === 'password' ? new AppError('badCredentials', 'error.bad_credentials') : new AppError('forbidden', 'error.mailbox_sign_in_refused');
}
