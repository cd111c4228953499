/** What a wrong password sets off, the same for every sign-in and password check (rate-limit.ts has the policy). */
import type { Locale } from '../../resources/customer.js';
import { audit } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { signInPolicy } from '../core/rate-limit.js';

/**
 * Who is told when their account is being guessed: a customer login, or a mailbox owner, by
 * e-mail; operators in the audit log (and by e-mail, when they have an address, for a second factor).
 */
export type GuessedOwner =
  | { kind: 'customer'; id: number; email: string; locale: Locale; customerId: number }
  | { kind: 'mailbox'; id: number; email: string; locale: Locale; customerId: number }
  | { kind: 'operator'; id: number; email?: string | null; locale?: Locale };

/** What is being guessed: a password, or the second factor of someone who knows the password. */
export type Guessed = 'password' | 'second_factor';

const notice = {
  password: { template: 'sign_in_attempts', action: 'sign_in_guessed' },
  second_factor: { template: 'second_factor_attempts', action: 'second_factor_guessed' },
} as const;

const targetTypeOf = { customer: 'user', mailbox: 'email', operator: 'operator' } as const;

/** Counts a wrong password (or code) for `account` from the caller's address, and tells the owner once when it is being guessed. */
export async function countWrongPassword(ctx: CallContext, account: string, owner: GuessedOwner | undefined, guessed: Guessed = 'password'): Promise<void> {
  const { accountGuessed } = await ctx.services.limiter.failedSignIn(account, ctx.ip);
  if (!accountGuessed || !owner) return;
  const { template, action } = notice[guessed];
  // Operators are told of guessed passwords in the audit log only (as before); of a guessed second factor by mail too.
  const mailTo = owner.kind === 'operator' ? (guessed === 'second_factor' ? owner.email : null) : owner.email;
  // The notice and its log entry exist together (the mail is sent by its job once this commits).
  await ctx.services.db.transaction().execute(async (trx) => {
    if (mailTo) {
      await ctx.services.mailer.send(trx, {
        key: template,
        locale: owner.locale ?? 'en',
        to: mailTo,
        params: { minutes: signInPolicy.windowSeconds / 60 },
        userId: owner.kind === 'operator' ? null : owner.customerId,
      });
    }
    await audit(trx, ctx, {
      action,
      targetType: targetTypeOf[owner.kind],
      targetId: owner.id,
      userId: owner.kind === 'operator' ? null : owner.customerId,
    });
  });
}
