/**
 * Security: second factors for every kind of person who signs in to a panel area (customers and
 * their team, operators, mailbox owners): TOTP with one-time recovery codes, passkeys (also to
 * sign in without a password), the second step of a sign-in, the policies that require a second
 * factor, and an operator's reset of a customer's. Every sign-in calls its gate (gate.ts) once
 * the first factor is right.
 */
import { defineCapability } from '../core/capability.js';
import { daysAgo, now } from '../core/time.js';
import type { HolderKind } from '../db/schema.js';
import { policyCalls } from './policy-calls.js';
import { secondFactorCalls } from './second-factor-calls.js';
import { signInCalls } from './sign-in-calls.js';
import { sealClearTotpSecrets } from './totp-secret.js';

const kinds: HolderKind[] = ['customer', 'operator', 'mailbox'];

export const security = defineCapability({
  name: 'security',
  calls: [...kinds.flatMap(signInCalls), ...kinds.flatMap(secondFactorCalls), ...policyCalls],
  // TOTP secrets still in clear (an older release's, or from before SECRET_KEY was set) are sealed.
  async started(services) {
    await sealClearTotpSecrets(services);
  },
  housekeeping: [
    // Pending sign-ins and WebAuthn challenges live minutes: one never used goes once expired (anyone
    // may ask for passkey options, so these rows must not pile up); a used one keeps a day's grace
    // for support's sake.
    async ({ db }) => {
      await db
        .deleteFrom('second_factor_challenge')
        .where((eb) => eb.or([eb('expires_at', '<=', daysAgo(1)), eb.and([eb('expires_at', '<=', now()), eb('used_at', 'is', null)])]))
        .execute();
    },
    // A deleted login, operator or mailbox leaves no second factor behind.
    async ({ db }) => {
      for (const table of ['totp', 'recovery_code', 'passkey'] as const) {
        for (const [kind, holders] of [['customer', 'user'], ['operator', 'admin'], ['mailbox', 'mailbox']] as const) {
          await db
            .deleteFrom(table)
            .where('holder_kind', '=', kind)
            .where(({ not, exists, selectFrom }) => not(exists(selectFrom(holders).select('id').whereRef(`${holders}.id`, '=', `${table}.holder_id`))))
            .execute();
        }
      }
    },
  ],
});
