/**
 * /api/admin/login/*: registration, verification, sign-in by password or e-mailed code,
 * password recovery. No answer tells whether an address has an account; every call is rate
 * limited per address and per IP; every attempt is in the audit log.
 */
import { z } from 'zod';
import { lineText } from '../../resources/text.js';
import { audit } from '../core/audit.js';
import { defineCall } from '../core/calls.js';
import { hashPassword, verifyPassword } from '../core/passwords.js';
import type { Locale } from '../../resources/customer.js';
import { now } from '../core/time.js';
import { revokeSession, revokeSessionsOf } from './sessions.js';
import { countWrongPassword } from './sign-in-throttle.js';
import { accountByEmail, canSignIn, checkCode, createLogin, customerOf, guessedOwner, limitCodeSending, refuseSignIn, sendCode, signIn } from './sign-in.js';

const email = z.string().trim().toLowerCase().max(254).pipe(z.email());
const password = z.string().min(8).max(128);
const code = z.string().trim().regex(/^\d{6}$/, 'validation.code_format');

export const customerLoginCalls = [
  defineCall({
    method: 'POST',
    path: '/api/admin/login/register',
    auth: 'public',
    tag: 'admin/login',
    summary: 'Create a customer account and e-mail a verification code. Answers the same whether or not the address has an account (it then gets a notice instead).',
    input: z.object({ email, password, username: lineText(0, 64).optional() }),
    async handler(input, ctx) {
      await limitCodeSending(ctx, input.email);
      const { db, mailer } = ctx.services;
      const existing = await accountByEmail(ctx, input.email);
      // Hash in both branches so that both take as long.
      const passwordHash = await hashPassword(input.password);
      if (existing) {
        if (existing.is_verified) {
          await mailer.send(db, { key: 'account_exists', locale: existing.locale as Locale, to: existing.email, params: {}, userId: customerOf(existing) });
        } else if (await canSignIn(ctx, existing)) {
          await sendCode(ctx, existing, 'verify');
        }
        await audit(db, ctx, { action: 'register_existing', targetType: 'user', targetId: existing.id, userId: customerOf(existing) });
        return { email: input.email };
      }
      await db.transaction().execute(async (trx) => {
        const created = await createLogin(trx, { ownerId: null, email: input.email, username: input.username, passwordHash, locale: ctx.locale });
        await audit(trx, ctx, { action: 'register', targetType: 'user', targetId: created.id, userId: created.id, after: { email: created.email, username: created.username } });
        await sendCode(ctx, created, 'verify', created.email, trx);
      });
      return { email: input.email };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/send_code',
    auth: 'public',
    tag: 'admin/login',
    summary: 'E-mail a new code: purpose "verify" (account verification) or "login" (sign-in by code). Answers the same for any address.',
    input: z.object({ email, purpose: z.enum(['verify', 'login']) }),
    async handler(input, ctx) {
      await limitCodeSending(ctx, input.email);
      const account = await accountByEmail(ctx, input.email);
      if (account && (await canSignIn(ctx, account)) && !(input.purpose === 'verify' && account.is_verified)) {
        await sendCode(ctx, account, input.purpose);
      }
      return { email: input.email };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/verify',
    auth: 'public',
    tag: 'admin/login',
    summary: 'Confirm the account with the e-mailed code; answers with a session.',
    input: z.object({ email, code }),
    async handler(input, ctx) {
      const account = await checkCode(ctx, input.email, 'verify', input.code);
      return signIn(ctx, account, 'verify');
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/login',
    auth: 'public',
    tag: 'admin/login',
    summary: 'Sign in with e-mail and password; answers with a session. A login with a second factor (or one its customer requires to have one) gets error 40103 instead, whose params hold a pending sign-in for /api/admin/login/second_factor, passkey or enrol_totp.',
    input: z.object({ email, password: z.string().min(1).max(128) }),
    async handler(input, ctx) {
      const { limiter } = ctx.services;
      await limiter.beforeSignIn(input.email, ctx.ip);
      const account = await accountByEmail(ctx, input.email);
      if (!(await verifyPassword(account?.password_hash, input.password)) || !account) {
        await countWrongPassword(ctx, input.email, account && guessedOwner(account));
        return refuseSignIn(ctx, input.email, account, 'password');
      }
      await limiter.succeededSignIn(input.email, ctx.ip);
      return signIn(ctx, account, 'password');
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/login_by_verify_code',
    auth: 'public',
    tag: 'admin/login',
    summary: 'Sign in with a code from send_code (purpose "login"); also confirms the address. A second factor is asked for as after a password (error 40103).',
    input: z.object({ email, code }),
    async handler(input, ctx) {
      const account = await checkCode(ctx, input.email, 'login', input.code);
      return signIn(ctx, account, 'code');
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/logout',
    keys: false,
    auth: 'customer',
    needsVerified: false,
    tag: 'admin/login',
    summary: 'End this session.',
    input: z.object({}),
    async handler(_input, ctx) {
      await revokeSession(ctx.services.db, ctx.actor.sessionId);
      await audit(ctx.services.db, ctx, { action: 'logout', targetType: 'user', targetId: ctx.actor.accountId, userId: ctx.actor.customerId });
      return null;
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/forgot_password_send_email',
    auth: 'public',
    tag: 'admin/login',
    summary: 'E-mail a password reset code. Answers the same for any address.',
    input: z.object({ email }),
    async handler(input, ctx) {
      await limitCodeSending(ctx, input.email);
      const account = await accountByEmail(ctx, input.email);
      if (account && (await canSignIn(ctx, account))) await sendCode(ctx, account, 'reset');
      return { email: input.email };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/forgot_password',
    auth: 'public',
    tag: 'admin/login',
    summary: 'Set a new password with the e-mailed reset code; ends every session of the account.',
    input: z.object({ email, code, password }),
    async handler(input, ctx) {
      const account = await checkCode(ctx, input.email, 'reset', input.code);
      const { db } = ctx.services;
      // Hashed before the transaction, which on SQLite would hold the only connection meanwhile.
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('user')
          .set({ password_hash: passwordHash, is_verified: 1, updated_at: now() })
          .where('id', '=', account.id)
          .execute();
        await revokeSessionsOf(trx, 'customer', [account.id]);
        await audit(trx, ctx, { action: 'password_reset', targetType: 'user', targetId: account.id, userId: customerOf(account) });
      });
      return null;
    },
  }),
];
