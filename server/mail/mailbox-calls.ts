/** Mailbox calls beyond CRUD: the password alone, and the delivery check behind send_verify_code. */
import { z } from 'zod';
import { mailbox as mailboxResource } from '../../resources/mailbox.js';
import type { Locale } from '../../resources/customer.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { CODE_MINUTES, consumeCode, issueCode } from '../accounts/codes.js';
import { idInput } from '../core/resource-calls.js';
import { findVisible } from '../core/scope.js';
import { now } from '../core/time.js';
import { hashMailboxPassword } from './mailbox-password.js';
import { endMailboxSessions } from '../mailbox-owners/sessions.js';

async function updatePassword(ctx: CallContext<'customer'>, id: number, password: string) {
  const box = await findVisible(mailboxResource, 'admin', ctx, id);
  const password_hash = await hashMailboxPassword(password);
  await ctx.services.db.transaction().execute(async (trx) => {
    await trx.updateTable('mailbox').set({ password_hash, updated_at: now() }).where('id', '=', box.id).execute();
    // Set by someone else: the owner's sessions end.
    await endMailboxSessions(trx, { mailboxId: box.id });
    await audit(trx, ctx, { action: 'update_password', targetType: 'email', targetId: box.id, userId: box.owner_id as number, after: { address: box.address } });
  });
  return findVisible(mailboxResource, 'admin', ctx, id);
}

/**
 * Step 1 (no code): mails a 6-digit code to the mailbox itself through the outgoing mail
 * server. Step 2 (code read in that mailbox): records delivery_checked_at. Together they
 * prove, end to end, that the address receives mail.
 */
async function deliveryCheck(ctx: CallContext<'customer'>, id: number, code: string | undefined) {
  const { db, limiter, mailer } = ctx.services;
  const box = await findVisible(mailboxResource, 'admin', ctx, id);
  const address = String(box.address);
  if (!code) {
    if (!box.active) throw new AppError('conflict', 'error.mailbox_inactive');
    await limiter.hit(['codeSendPerAccount', ctx.actor.email], ['codeSendPerIp', ctx.ip]);
    await db.transaction().execute(async (trx) => {
      const issued = await issueCode(trx, ctx.actor.accountId, 'mailbox_check', address);
      await mailer.send(trx, { key: 'mailbox_check', locale: ctx.locale as Locale, to: address, params: { code: issued, minutes: CODE_MINUTES, address: String(box.address_unicode) }, userId: ctx.actor.customerId });
    });
    return { sent: true, address };
  }
  await limiter.hit(['codeCheckPerAccount', ctx.actor.email], ['codeCheckPerIp', ctx.ip]);
  if ((await consumeCode(db, ctx.actor.accountId, 'mailbox_check', code)) !== address) throw new AppError('badCode', 'error.bad_code');
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('mailbox').set({ delivery_checked_at: now() }).where('id', '=', box.id).execute();
    await audit(trx, ctx, { action: 'delivery_checked', targetType: 'email', targetId: box.id, userId: box.owner_id as number, after: { address } });
  });
  return findVisible(mailboxResource, 'admin', ctx, id);
}

export const mailboxCalls = [
  defineCall({
    method: 'POST',
    path: '/api/admin/email/update_password',
    auth: 'customer',
    tag: 'admin/email',
    summary: 'Set a new password for a mailbox (stored as a {ARGON2ID} hash that Dovecot verifies); IMAP/POP logins use it at once.',
    input: idInput.extend({ password: z.string().min(8).max(128) }),
    handler: ({ id, password }, ctx) => updatePassword(ctx, id, password),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/email/send_verify_code',
    auth: 'customer',
    tag: 'admin/email',
    summary:
      'Delivery check of a mailbox. Without `code`: e-mails a 6-digit code to the mailbox address itself (template mailbox_check) — it arrives only if the mailbox really receives mail. With the `code` read in that mailbox: records delivery_checked_at on the mailbox.',
    input: idInput.extend({ code: z.string().trim().regex(/^\d{6}$/, 'validation.code_format').optional() }),
    handler: ({ id, code }, ctx) => deliveryCheck(ctx, id, code),
  }),
];
