/**
 * The second step of a sign-in, the same story in every area: the pending sign-in must be live,
 * the code (or passkey) right, and wrong codes are throttled like wrong passwords (per person and
 * address, growing waits) and wear the pending sign-in out; then the area's own sign-in makes the
 * session, exactly as after a password.
 */
import type { Locale } from '../../resources/customer.js';
import { accountById, guessedOwner, signIn } from '../accounts/sign-in.js';
import { countWrongPassword, type GuessedOwner } from '../accounts/sign-in-throttle.js';
import { audit } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { mailboxById, maySignIn, signInMailbox } from '../mailbox-owners/sign-in.js';
import { signInOperator } from '../accounts/operator-sign-in.js';
import { countWrongAttempt, liveChallenge, useChallenge, type Challenge } from './challenges.js';
import type { SecondFactorMethod } from './gate.js';
import { holderEntry, holderRecord, type Holder, type HolderKind } from './holders.js';

export const signInExpired = () => new AppError('badCode', 'error.second_factor_expired');
export const wrongCode = () => new AppError('badCode', 'error.bad_second_factor_code');

/** The pending sign-in a token names in this area; `enrol` for one that must enrol first. */
export async function pendingSignIn(ctx: CallContext, kind: HolderKind, token: string, enrol = false): Promise<Challenge & { holder: Holder }> {
  const pending = await liveChallenge(ctx.services.db, token, enrol ? 'sign_in_enrol' : 'sign_in', kind);
  if (!pending || pending.holder_id === null) throw signInExpired();
  return { ...pending, holder: { kind, id: pending.holder_id } };
}

/** The throttle's name for a person's second factor: apart from their password's, which a right password resets. */
const throttleKey = (holder: Holder) => `second-factor:${holder.kind}:${holder.id}`;

/** Runs `check` under the sign-in throttle; a wrong answer is counted, logged and refused. */
export async function checkSecondFactor(ctx: CallContext, pending: Challenge & { holder: Holder }, method: SecondFactorMethod, check: () => Promise<boolean>): Promise<void> {
  const { db, limiter } = ctx.services;
  const key = throttleKey(pending.holder);
  await limiter.beforeSignIn(key, ctx.ip);
  if (await check()) {
    await limiter.succeededSignIn(key, ctx.ip);
    return;
  }
  await countWrongAttempt(db, pending.id);
  // Someone who knows the password is guessing codes: the owner is told, once an hour.
  await countWrongPassword(ctx, key, await guessedOwnerOf(ctx, pending.holder), 'second_factor');
  const record = await holderRecord(db, pending.holder);
  if (record) await audit(db, ctx, holderEntry(pending.holder, record, 'second_factor_failed', { method }));
  throw method === 'passkey' ? new AppError('badCode', 'error.passkey_failed') : wrongCode();
}

/** Whom to tell when their second factor is being guessed, and in which language. */
async function guessedOwnerOf(ctx: CallContext, holder: Holder): Promise<GuessedOwner | undefined> {
  const { db } = ctx.services;
  switch (holder.kind) {
    case 'customer': {
      const account = await accountById(ctx, holder.id);
      return account && guessedOwner(account);
    }
    case 'operator': {
      const operator = await db.selectFrom('admin').select(['email', 'locale']).where('id', '=', holder.id).executeTakeFirst();
      return operator && { kind: 'operator', id: holder.id, email: operator.email, locale: operator.locale as Locale };
    }
    case 'mailbox': {
      const box = await db
        .selectFrom('mailbox')
        .innerJoin('user', 'user.id', 'mailbox.owner_id')
        .select(['mailbox.address', 'mailbox.owner_id', 'user.locale'])
        .where('mailbox.id', '=', holder.id)
        .executeTakeFirst();
      return box && { kind: 'mailbox', id: holder.id, email: box.address, locale: box.locale as Locale, customerId: Number(box.owner_id) };
    }
  }
}

/** Makes the session in the person's area, as its password sign-in does; the pending sign-in is used up. */
export async function finishSignIn(ctx: CallContext, pending: Challenge | undefined, holder: Holder, method: SecondFactorMethod) {
  if (pending && !(await useChallenge(ctx.services.db, pending.id))) throw signInExpired();
  const how = pending?.challenge || 'passkey';
  switch (holder.kind) {
    case 'customer': {
      const account = await accountById(ctx, holder.id);
      if (!account) throw signInExpired();
      return signIn(ctx, account, how as Parameters<typeof signIn>[2], method);
    }
    case 'operator': {
      const operator = await ctx.services.db.selectFrom('admin').select(['id', 'username', 'role', 'status', 'email', 'locale']).where('id', '=', holder.id).executeTakeFirst();
      if (!operator) throw signInExpired();
      return signInOperator(ctx, operator, how as 'password' | 'passkey', method);
    }
    case 'mailbox': {
      const box = await mailboxById(ctx.services.db, holder.id);
      if (!box) throw signInExpired();
      if (!maySignIn(box)) throw new AppError('forbidden', 'error.mailbox_sign_in_refused');
      return signInMailbox(ctx, box, { method: how as 'password' | 'passkey' }, method);
    }
  }
}
