/**
 * Signing a customer login in, the story every customer sign-in shares (password, e-mailed code,
 * verification, accepted invitation): the account may sign in, gets a session, and it is all in
 * the audit log; refusals are logged too. Also the e-mailed codes those flows send and check.
 */
import { GiB } from '../../resources/define.js';
import type { Locale } from '../../resources/customer.js';
import type { TemplateKey } from '../../resources/email_template.js';
import { audit, type RequestOrigin } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { UserRow } from '../db/schema.js';
import { CODE_MINUTES, consumeCode, issueCode, type CodePurpose } from './codes.js';
import { createSession } from './sessions.js';
import type { GuessedOwner } from './sign-in-throttle.js';
import { requireSecondStep, type SecondFactorMethod } from '../security/gate.js';

export const badCode = () => new AppError('badCode', 'error.bad_code');

export type Account = Pick<UserRow, 'email' | 'status' | 'owner_id' | 'locale' | 'is_verified' | 'password_hash'> & { id: number };

export async function accountByEmail(ctx: CallContext, address: string): Promise<Account | undefined> {
  return ctx.services.db.selectFrom('user').selectAll().where('email', '=', address).executeTakeFirst();
}

export async function accountById(ctx: CallContext, id: number): Promise<Account | undefined> {
  return ctx.services.db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Active, and (for a team member) its customer active too. */
export async function canSignIn(ctx: CallContext, account: Account): Promise<boolean> {
  if (account.status !== 'active') return false;
  if (account.owner_id === null) return true;
  const owner = await ctx.services.db.selectFrom('user').select('status').where('id', '=', account.owner_id).executeTakeFirst();
  return owner?.status === 'active';
}

export const customerOf = (account: Account) => account.owner_id ?? account.id;

/** Whom a wrong password for this login concerns: the login itself, by e-mail. */
export const guessedOwner = (account: Account): GuessedOwner => ({
  kind: 'customer',
  id: account.id,
  email: account.email,
  locale: account.locale as Locale,
  customerId: customerOf(account),
});

export type SignInMethod = 'password' | 'verify' | 'code' | 'invitation' | 'passkey';

/**
 * Starts a session (the spec's `user`: id, email, is_verified, token) for an account that may
 * sign in. A code read from the mailbox also proves the address: the account becomes verified.
 * (So does an accepted team invitation, whose member is made verified.) A login with a second
 * factor, or one its customer requires to have one, gets a pending sign-in instead (error
 * 40103), until the second step gives `secondFactor`.
 */
export async function signIn(ctx: CallContext, account: Account, how: SignInMethod, secondFactor?: SecondFactorMethod) {
  const { db, config } = ctx.services;
  if (!(await canSignIn(ctx, account))) throw new AppError('forbidden', 'error.account_disabled');
  // The log names the person signing in (not "a visitor"): "You signed in", "Team member … verified".
  const person: RequestOrigin = { ...ctx, actor: { kind: 'customer', sessionId: 0, accountId: account.id, customerId: customerOf(account), isOwner: account.owner_id === null, email: account.email, isVerified: true } };
  let locale = account.locale as Locale;
  if (how !== 'password' && !account.is_verified) {
    // Proving the address is the person's first word: their e-mails from now on come in the language they read.
    locale = ctx.locale;
    await db.updateTable('user').set({ is_verified: 1, locale, updated_at: now() }).where('id', '=', account.id).execute();
    const language = account.locale === locale ? {} : { before: { locale: account.locale }, after: { locale } };
    await audit(db, person, { action: 'verify', targetType: 'user', targetId: account.id, userId: customerOf(account), before: { is_verified: 0, ...language.before }, after: { is_verified: 1, ...language.after } });
  }
  if (!secondFactor) await requireSecondStep(ctx, { kind: 'customer', id: account.id }, how);
  const token = await createSession(ctx, 'customer', { id: account.id, email: account.email, locale, customerId: customerOf(account) });
  await db.updateTable('user').set({ last_login_at: now() }).where('id', '=', account.id).execute();
  await audit(db, person, { action: 'login', targetType: 'user', targetId: account.id, userId: customerOf(account), after: { method: how, ...(secondFactor ? { second_factor: secondFactor } : {}) } });
  const fresh = await db.selectFrom('user').select(['id', 'email', 'is_verified', 'username']).where('id', '=', account.id).executeTakeFirstOrThrow();
  return { ...fresh, token };
}

export async function refuseSignIn(ctx: CallContext, address: string, account: Account | undefined, how: string): Promise<never> {
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
      // A code is asked for on a screen, by the person reading it: in that screen's language
      // (an account an operator made has a language nobody chose yet).
      locale: ctx.locale,
      to,
      params: { code: issued, minutes: CODE_MINUTES },
      userId: customerOf(account),
    });
  };
  await (db ? send(db) : ctx.services.db.transaction().execute(send));
}

/** Checks a code; a wrong one is counted (and committed) before the call is refused. */
export async function checkCode(ctx: CallContext, address: string, purpose: CodePurpose, given: string): Promise<Account> {
  await ctx.services.limiter.hit(['codeCheckPerAccount', address], ['codeCheckPerIp', ctx.ip]);
  const account = await accountByEmail(ctx, address);
  const target = account && (await consumeCode(ctx.services.db, account.id, purpose, given));
  if (!account || target !== account.email) {
    if (purpose === 'login' || purpose === 'verify') await refuseSignIn(ctx, address, account, `code:${purpose}`);
    throw badCode();
  }
  return account;
}

export const limitCodeSending = (ctx: CallContext, address: string) =>
  ctx.services.limiter.hit(['codeSendPerAccount', address], ['codeSendPerIp', ctx.ip]);


/**
 * Makes a login: a customer (owner null, verified by a code later) or a team member of `ownerId`
 * (verified: the invitation link proved the address). Answers what signIn needs.
 */
export async function createLogin(
  trx: Db,
  login: { ownerId: number | null; email: string; username?: string | null; passwordHash: string; locale: Locale },
): Promise<Account & { username: string }> {
  const at = now();
  return trx
    .insertInto('user')
    .values({
      owner_id: login.ownerId,
      email: login.email,
      username: login.username || login.email.split('@')[0],
      password_hash: login.passwordHash,
      is_verified: login.ownerId === null ? 0 : 1,
      status: 'active',
      // Members use the customer's storage settings.
      storage_max: login.ownerId === null ? GiB : 0,
      locale: login.locale,
      created_at: at,
      updated_at: at,
    })
    .returning(['id', 'email', 'username', 'status', 'owner_id', 'locale', 'is_verified', 'password_hash'])
    .executeTakeFirstOrThrow();
}
