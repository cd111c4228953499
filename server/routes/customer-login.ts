/**
 * /api/admin/login/*: registration, verification, sign-in by password or e-mailed code,
 * password recovery. No answer tells whether an address has an account; every call is rate
 * limited per address and per IP; every attempt is in the audit log.
 */
import { z } from 'zod';
import { lineText } from '../../resources/text.js';
import { GiB } from '../../resources/define.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { CODE_MINUTES, consumeCode, issueCode, type CodePurpose } from '../core/codes.js';
import { AppError } from '../core/errors.js';
import { hashPassword, verifyPassword } from '../core/passwords.js';
import { createSession, revokeSession, revokeSessionsOf } from '../core/sessions.js';
import { countWrongPassword, type GuessedOwner } from '../core/sign-in-throttle.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { UserRow } from '../db/schema.js';
import type { TemplateKey } from '../../resources/email_template.js';
import type { Locale } from '../../resources/customer.js';

const email = z.string().trim().toLowerCase().max(254).pipe(z.email());
const password = z.string().min(8).max(128);
const code = z.string().trim().regex(/^\d{6}$/, 'validation.code_format');

const badCode = () => new AppError('badCode', 'error.bad_code');

type Account = Pick<UserRow, 'email' | 'status' | 'owner_id' | 'locale' | 'is_verified' | 'password_hash'> & { id: number };

async function accountByEmail(ctx: CallContext, address: string): Promise<Account | undefined> {
  return ctx.services.db.selectFrom('user').selectAll().where('email', '=', address).executeTakeFirst();
}

/** Active, and (for a team member) its customer active too. */
async function canSignIn(ctx: CallContext, account: Account): Promise<boolean> {
  if (account.status !== 'active') return false;
  if (account.owner_id === null) return true;
  const owner = await ctx.services.db.selectFrom('user').select('status').where('id', '=', account.owner_id).executeTakeFirst();
  return owner?.status === 'active';
}

const customerOf = (account: Account) => account.owner_id ?? account.id;

/** Whom a wrong password for this login concerns: the login itself, by e-mail. */
export const guessedOwner = (account: Account): GuessedOwner => ({
  kind: 'customer',
  id: account.id,
  email: account.email,
  locale: account.locale as Locale,
  customerId: customerOf(account),
});

/**
 * Starts a session (the spec's `user`: id, email, is_verified, token) for an account that may
 * sign in. A code read from the mailbox also proves the address: the account becomes verified.
 * (So does an accepted team invitation, whose member is made verified.)
 */
export async function signIn(ctx: CallContext, account: Account, how: 'password' | 'verify' | 'code' | 'invitation') {
  const { db, config } = ctx.services;
  if (!(await canSignIn(ctx, account))) throw new AppError('forbidden', 'error.account_disabled');
  if (how !== 'password' && !account.is_verified) {
    await db.updateTable('user').set({ is_verified: 1, updated_at: now() }).where('id', '=', account.id).execute();
    await audit(db, ctx, { action: 'verify', targetType: 'user', targetId: account.id, userId: customerOf(account), before: { is_verified: 0 }, after: { is_verified: 1 } });
  }
  const token = await createSession(db, config, 'customer', account.id, ctx);
  await db.updateTable('user').set({ last_login_at: now() }).where('id', '=', account.id).execute();
  await audit(db, ctx, { action: 'login', targetType: 'user', targetId: account.id, userId: customerOf(account), after: { method: how } });
  const fresh = await db.selectFrom('user').select(['id', 'email', 'is_verified', 'username']).where('id', '=', account.id).executeTakeFirstOrThrow();
  return { ...fresh, token };
}

async function refuseSignIn(ctx: CallContext, address: string, account: Account | undefined, how: string): Promise<never> {
  await audit(ctx.services.db, ctx, {
    action: 'login_failed',
    targetType: 'user',
    targetId: account?.id ?? null,
    userId: account ? customerOf(account) : null,
    after: { email: address, method: how },
  });
  throw how === 'password' ? new AppError('badCredentials', 'error.bad_credentials') : badCode();
}

const templateOf: Record<CodePurpose, TemplateKey> = {
  verify: 'verify_code',
  login: 'login_code',
  reset: 'password_reset',
  email_change: 'email_change',
};

/**
 * Issues a code for the account and mails it to `to` (the account's address unless changing
 * it), within `db` when the caller has a transaction: the code and its message exist together.
 */
export async function sendCode(ctx: CallContext, account: Account, purpose: CodePurpose, to = account.email, db?: Db) {
  const send = async (trx: Db) => {
    const issued = await issueCode(trx, account.id, purpose, to);
    await ctx.services.mailer.send(trx, {
      key: templateOf[purpose],
      locale: account.locale as Locale,
      to,
      params: { code: issued, minutes: CODE_MINUTES },
      userId: customerOf(account),
    });
  };
  await (db ? send(db) : ctx.services.db.transaction().execute(send));
}

/** Checks a code; a wrong one is counted (and committed) before the call is refused. */
async function checkCode(ctx: CallContext, address: string, purpose: CodePurpose, given: string): Promise<Account> {
  await ctx.services.limiter.hit(['codeCheckPerAccount', address], ['codeCheckPerIp', ctx.ip]);
  const account = await accountByEmail(ctx, address);
  const target = account && (await consumeCode(ctx.services.db, account.id, purpose, given));
  if (!account || target !== account.email) {
    if (purpose === 'login' || purpose === 'verify') await refuseSignIn(ctx, address, account, `code:${purpose}`);
    throw badCode();
  }
  return account;
}

const limitCodeSending = (ctx: CallContext, address: string) =>
  ctx.services.limiter.hit(['codeSendPerAccount', address], ['codeSendPerIp', ctx.ip]);

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
      const at = now();
      await db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('user')
          .values({
            owner_id: null,
            email: input.email,
            username: input.username || input.email.split('@')[0],
            password_hash: passwordHash,
            is_verified: 0,
            status: 'active',
            storage_max: GiB,
            locale: ctx.locale,
            created_at: at,
            updated_at: at,
          })
          .returning(['id', 'email', 'username', 'status', 'owner_id', 'locale', 'is_verified', 'password_hash'])
          .executeTakeFirstOrThrow();
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
    summary: 'Sign in with e-mail and password; answers with a session.',
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
    summary: 'Sign in with a code from send_code (purpose "login"); also confirms the address.',
    input: z.object({ email, code }),
    async handler(input, ctx) {
      const account = await checkCode(ctx, input.email, 'login', input.code);
      return signIn(ctx, account, 'code');
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/logout',
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
