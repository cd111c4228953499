/** /api/mail/me/*: the signed-in mailbox: what it is, its password, whether mail programs must use app passwords. */
import { z } from 'zod';
import { countWrongPassword } from '../accounts/sign-in-throttle.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { fieldError } from '../core/errors.js';
import { now } from '../core/time.js';
import { hashMailboxPassword } from '../mail/mailbox-password.js';
import { aliasesOf } from '../mail/mailbox-rules.js';
import { verifySchemeHash } from '../mail/password-schemes.js';
import { endMailboxSessions } from './sessions.js';

const RECENT_SIGN_INS = 10;
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v === true || v === 1 ? 1 : 0));

/** The mailbox as its owner sees it: address, quota and usage, the aliases that deliver to it, the last sign-ins. */
async function info(ctx: CallContext<'mailbox'>) {
  const { db } = ctx.services;
  const box = await db
    .selectFrom('mailbox as m')
    .innerJoin('domain as d', 'd.id', 'm.domain_id')
    .leftJoin('mailbox_usage as u', 'u.address', 'm.address')
    .select(['m.id', 'm.address', 'm.address_unicode', 'm.name', 'm.quota', 'm.app_passwords_only', 'm.owner_id', 'm.domain_id', 'd.name_unicode as domain', 'u.bytes', 'u.messages'])
    .where('m.id', '=', ctx.actor.mailboxId)
    .executeTakeFirstOrThrow();
  const [{ delivering }, signIns] = await Promise.all([
    aliasesOf(db, { id: box.id, address: box.address, owner_id: box.owner_id, domain_id: box.domain_id }),
    db
      .selectFrom('log')
      .select(['created_at as at', 'ip', 'user_agent'])
      .where('target_type', '=', 'email')
      .where('target_id', '=', box.id)
      .where('action', '=', 'login')
      .orderBy('id', 'desc')
      .limit(RECENT_SIGN_INS)
      .execute(),
  ]);
  return {
    id: box.id,
    address: box.address,
    address_unicode: box.address_unicode,
    name: box.name,
    domain: box.domain,
    quota: Number(box.quota),
    used_bytes: Number(box.bytes ?? 0),
    used_messages: Number(box.messages ?? 0),
    aliases: delivering,
    app_passwords_only: Number(box.app_passwords_only),
    recent_sign_ins: signIns,
  };
}

export const mailMeCalls = [
  defineCall({
    method: 'GET',
    path: '/api/mail/me/info',
    auth: 'mailbox',
    tag: 'mail/me',
    summary: 'The signed-in mailbox: address, name, domain, quota and usage (bytes, messages), the addresses of the aliases that deliver to it, app_passwords_only, and the last 10 sign-ins to this area ({at, ip, user_agent}).',
    input: z.object({}),
    handler: (_input, ctx) => info(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/api/mail/me/update_password',
    auth: 'mailbox',
    tag: 'mail/me',
    summary: 'Change the mailbox password (the current one is required): IMAP, POP3 and SMTP take the new one at their next login; every other session of this area ends. App passwords stay.',
    input: z.object({ old_password: z.string().min(1).max(128), password: z.string().min(8).max(128) }),
    async handler(input, ctx) {
      const { db, limiter } = ctx.services;
      await limiter.beforeSignIn(ctx.actor.address, ctx.ip);
      const box = await db.selectFrom('mailbox').select(['id', 'password_hash']).where('id', '=', ctx.actor.mailboxId).executeTakeFirstOrThrow();
      // A wrong current password counts like a wrong sign-in: a stolen session cannot guess it freely.
      if (!(await verifySchemeHash(box.password_hash, input.old_password))) {
        await countWrongPassword(ctx, ctx.actor.address, undefined);
        throw fieldError('old_password', 'validation.wrong_password');
      }
      await limiter.succeededSignIn(ctx.actor.address, ctx.ip);
      const password_hash = await hashMailboxPassword(input.password);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('mailbox').set({ password_hash, updated_at: now() }).where('id', '=', box.id).execute();
        await endMailboxSessions(trx, { mailboxId: box.id }, ctx.actor.sessionId);
        await audit(trx, ctx, { action: 'update_password', targetType: 'email', targetId: box.id, userId: ctx.actor.customerId, after: { address: ctx.actor.address } });
      });
      return info(ctx);
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/mail/me/update_settings',
    auth: 'mailbox',
    tag: 'mail/me',
    summary: "app_passwords_only: mail programs (IMAP, POP3, SMTP) must use app passwords; the main password then still signs in to this area, and no longer to mail programs.",
    input: z.object({ app_passwords_only: flag }),
    async handler(input, ctx) {
      const { db } = ctx.services;
      const before = await db.selectFrom('mailbox').select('app_passwords_only').where('id', '=', ctx.actor.mailboxId).executeTakeFirstOrThrow();
      if (Number(before.app_passwords_only) !== input.app_passwords_only) {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('mailbox').set({ app_passwords_only: input.app_passwords_only, updated_at: now() }).where('id', '=', ctx.actor.mailboxId).execute();
          await audit(trx, ctx, {
            action: 'update',
            targetType: 'email',
            targetId: ctx.actor.mailboxId,
            userId: ctx.actor.customerId,
            before: { app_passwords_only: Number(before.app_passwords_only) },
            after: { app_passwords_only: input.app_passwords_only },
          });
        });
      }
      return info(ctx);
    },
  }),
];
