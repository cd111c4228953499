/**
 * The step between a right password and a session, the same in every area: a person with a
 * second factor gets a pending sign-in (error 40103 with a short-lived token and the methods
 * they can use) instead of a session; a person a policy requires one of, and who has none, gets
 * one that leads through enrolment (an authenticator app or a passkey). Everyone else goes on to their session as before.
 */
import type { CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { CHALLENGE_MINUTES, issueChallenge } from './challenges.js';
import type { Holder } from './holders.js';
import { hasPasskey } from './passkeys.js';
import { mustHaveSecondFactor } from './policy.js';
import { hasTotp } from './totp.js';

export type SecondFactorMethod = 'totp' | 'recovery_code' | 'passkey';

/** The second factors a person has, in the order the sign-in page offers them. */
export async function secondFactorsOf(ctx: CallContext, holder: Holder): Promise<SecondFactorMethod[]> {
  const { db } = ctx.services;
  const methods: SecondFactorMethod[] = [];
  if (await hasTotp(db, holder)) methods.push('totp', 'recovery_code');
  if (await hasPasskey(db, holder)) methods.push('passkey');
  return methods;
}

/**
 * Called by every sign-in once the first factor is right, before a session is made: throws the
 * pending sign-in when a second step is needed. `how` is the first factor (password, e-mailed
 * code, …), kept for the sign-in's log entry.
 */
export async function requireSecondStep(ctx: CallContext, holder: Holder, how: string): Promise<void> {
  const { db } = ctx.services;
  const methods = await secondFactorsOf(ctx, holder);
  const enrol = methods.length === 0 && (await mustHaveSecondFactor(db, holder));
  if (methods.length === 0 && !enrol) return;
  const token = await issueChallenge(db, enrol ? 'sign_in_enrol' : 'sign_in', holder, how);
  throw new AppError('secondFactor', enrol ? 'error.second_factor_enrol' : 'error.second_factor_needed', {
    token,
    methods: enrol ? ['totp', 'passkey'] : methods,
    enrol,
    expires_in: CHALLENGE_MINUTES * 60,
  });
}
