/** What a wrong password sets off, the same for every sign-in and password check (rate-limit.ts has the policy). */
import type { Locale } from '../../resources/customer.js';
import { audit } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { signInPolicy } from '../core/rate-limit.js';

/** Who is told when their account is being guessed: a customer login by e-mail; operators (no address) in the audit log. */
export type GuessedOwner = { kind: 'customer'; id: number; email: string; locale: Locale; customerId: number } | { kind: 'operator'; id: number };

/** Counts a wrong password for `account` from the caller's address, and tells the owner once when it is being guessed. */
export async function countWrongPassword(ctx: CallContext, account: string, owner: GuessedOwner | undefined): Promise<void> {
  const { accountGuessed } = await ctx.services.limiter.failedSignIn(account, ctx.ip);
  if (!accountGuessed || !owner) return;
  // The notice and its log entry exist together (the mail is sent by its job once this commits).
  await ctx.services.db.transaction().execute(async (trx) => {
    if (owner.kind === 'customer') {
      await ctx.services.mailer.send(trx, {
        key: 'sign_in_attempts',
        locale: owner.locale,
        to: owner.email,
        params: { minutes: signInPolicy.windowSeconds / 60 },
        userId: owner.customerId,
      });
    }
    await audit(trx, ctx, {
      action: 'sign_in_guessed',
      targetType: owner.kind === 'customer' ? 'user' : 'operator',
      targetId: owner.id,
      userId: owner.kind === 'customer' ? owner.customerId : null,
    });
  });
}
