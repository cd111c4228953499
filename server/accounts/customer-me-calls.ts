/** /api/admin/me/*: the signed-in login's own account. */
import { z } from 'zod';
import { lineText } from '../../resources/text.js';
import { locales } from '../../resources/customer.js';
import { byteSize, MAX_QUOTA_BYTES, MiB } from '../../resources/define.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { consumeCode } from './codes.js';
import { AppError, fieldError } from '../core/errors.js';
import { hashPassword, verifyPassword } from '../core/passwords.js';
import { accountColumns, type AccountInfo } from '../core/actor.js';
import { revokeSessionsOf } from './sessions.js';
import { revokeKeysOf } from '../api-keys/keys.js';
import { now } from '../core/time.js';
import type { CustomerActor } from '../core/actor.js';
import { countWrongPassword } from './sign-in-throttle.js';
import { guessedOwner, sendCode } from './sign-in.js';

// The account's own columns only (the session row has more), copied in one pass: me/info is called on every page.
const answer = (account: AccountInfo) => {
  const info: Record<string, unknown> = {};
  for (const column of accountColumns) info[column] = account[column];
  info.is_owner = account.owner_id === null ? 1 : 0;
  return info as AccountInfo & { is_owner: 0 | 1 };
};

/** The account as it is now (after a change this request made). */
async function info(ctx: CallContext<'customer'>) {
  return answer(await ctx.services.db.selectFrom('user').select(accountColumns).where('id', '=', ctx.actor.accountId).executeTakeFirstOrThrow());
}

/** Changes columns of the caller's own account, with the change in the audit log. */
async function updateOwn(ctx: CallContext<'customer'>, action: string, changes: Record<string, unknown>, logged: Record<string, unknown> = changes) {
  const { db } = ctx.services;
  const before = await info(ctx);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ ...changes, updated_at: now() }).where('id', '=', ctx.actor.accountId).execute();
    const keys = Object.keys(logged);
    await audit(trx, ctx, {
      action,
      targetType: 'user',
      targetId: ctx.actor.accountId,
      userId: ctx.actor.customerId,
      before: Object.fromEntries(keys.map((k) => [k, before[k as keyof typeof before]])),
      after: logged,
    });
  });
  return info(ctx);
}

const ownerOnly = (actor: CustomerActor) => actor.isOwner;

export const customerMeCalls = [
  defineCall({
    method: 'POST',
    path: '/api/admin/me/info',
    reads: true,
    auth: 'customer',
    needsVerified: false,
    tag: 'admin/me',
    summary: 'The signed-in account: e-mail, username, verification, points, storage_max, and whether it is the customer or a team member.',
    input: z.object({}),
    // The session's read of the account is this request's: no second query.
    handler: async (_input, ctx) => (ctx.actor.account ? answer(ctx.actor.account) : info(ctx)),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/me/update_username',
    auth: 'customer',
    tag: 'admin/me',
    summary: 'Change the display name.',
    input: z.object({ username: lineText(1, 64) }),
    handler: (input, ctx) => updateOwn(ctx, 'update_username', input),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/me/update_password',
    keys: false,
    auth: 'customer',
    tag: 'admin/me',
    summary:
      "Change the password (the current one is required); ends every other session. With `revoke_api_keys: true`, also revokes every API key this login made (a key made from a stolen session would outlive the password).",
    input: z.object({ old_password: z.string().min(1).max(128), password: z.string().min(8).max(128), revoke_api_keys: z.boolean().default(false) }),
    async handler(input, ctx) {
      const { db, limiter } = ctx.services;
      await limiter.beforeSignIn(ctx.actor.email, ctx.ip);
      const account = await db.selectFrom('user').selectAll().where('id', '=', ctx.actor.accountId).executeTakeFirstOrThrow();
      // A wrong current password counts like a wrong sign-in: a stolen session cannot guess it freely.
      if (!(await verifyPassword(account.password_hash, input.old_password))) {
        await countWrongPassword(ctx, ctx.actor.email, guessedOwner(account));
        throw fieldError('old_password', 'validation.wrong_password');
      }
      await limiter.succeededSignIn(ctx.actor.email, ctx.ip);
      const revoked = input.revoke_api_keys ? { api_keys_revoked: await revokeKeysOf(db, { user_id: ctx.actor.accountId }) } : {};
      const result = await updateOwn(ctx, 'update_password', { password_hash: await hashPassword(input.password) }, revoked);
      await revokeSessionsOf(ctx.services.db, 'customer', [ctx.actor.accountId], ctx.actor.sessionId);
      return result;
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/me/update_email',
    keys: false,
    auth: 'customer',
    tag: 'admin/me',
    summary:
      'Change the sign-in address in two steps: without `code`, a code is e-mailed to the new address; with it, the address is changed. A taken address gets no code.',
    input: z.object({
      email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
      code: z.string().trim().regex(/^\d{6}$/, 'validation.code_format').optional(),
    }),
    async handler(input, ctx) {
      const { db, limiter } = ctx.services;
      if (input.email === ctx.actor.email) throw fieldError('email', 'validation.same_email');
      const taken = await db.selectFrom('user').select('id').where('email', '=', input.email).executeTakeFirst();
      if (!input.code) {
        await limiter.hit(['codeSendPerAccount', ctx.actor.email], ['codeSendPerIp', ctx.ip]);
        const account = await db.selectFrom('user').selectAll().where('id', '=', ctx.actor.accountId).executeTakeFirstOrThrow();
        if (!taken) await sendCode(ctx, account, 'email_change', input.email);
        return { pending: true, email: input.email };
      }
      await limiter.hit(['codeCheckPerAccount', ctx.actor.email], ['codeCheckPerIp', ctx.ip]);
      const target = await consumeCode(db, ctx.actor.accountId, 'email_change', input.code);
      if (target !== input.email || taken) throw new AppError('badCode', 'error.bad_code');
      return updateOwn(ctx, 'update_email', { email: input.email, is_verified: 1 }, { email: input.email });
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/me/update_locale',
    auth: 'customer',
    needsVerified: false,
    tag: 'admin/me',
    summary: 'Choose the language of the e-mails Maildesk sends to this login (zh or en). Added: the web app calls it when the language is switched.',
    input: z.object({ locale: z.enum(locales) }),
    handler: (input, ctx) => updateOwn(ctx, 'update_locale', input),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/me/update_storage_max',
    auth: 'customer',
    tag: 'admin/me',
    summary: 'Set the largest quota one mailbox may get, which is also the default for new mailboxes (bytes). The customer account only.',
    allow: ownerOnly,
    input: z.object({ storage_max: byteSize(MiB, MAX_QUOTA_BYTES) }),
    handler: (input, ctx) => updateOwn(ctx, 'update_storage_max', input),
  }),
];
