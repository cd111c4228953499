/** Behaviour shared by the three kinds of login: operators, customers and team members. */
import { AppError } from '../core/errors.js';
import { hashPassword } from '../core/passwords.js';
import type { Change, ResourceBehaviour, WriteContext } from '../core/resource-calls.js';
import { revokeSessionsOf, type SessionActor } from './sessions.js';
import { endMailboxSessions } from '../mailbox-owners/sessions.js';

/** Stores a given password only as its argon2id hash (made before the transaction opens). */
export const hashGivenPassword: ResourceBehaviour['prepare'] = async (input) =>
  typeof input.password === 'string' ? { password_hash: await hashPassword(input.password) } : {};

/**
 * A script's API key never sets how a login signs in: its password, or the name it signs in with
 * (customers' e-mail address, operators' username; a new address would receive the password reset,
 * so a key could take the account over).
 */
export const refuseSignInChangeByKey =
  (signInField: 'email' | 'username') =>
  (change: Change, ctx: WriteContext) => {
    const byKey = ctx.actor.kind !== 'anonymous' && ctx.actor.kind !== 'mailbox' && ctx.actor.apiKey;
    if (!byKey) return;
    const renamed = change.op === 'update' && change.after?.[signInField] !== undefined && change.after[signInField] !== change.before?.[signInField];
    if (typeof change.after?.password_hash === 'string' || renamed) throw new AppError('forbidden', 'error.api_key_not_here');
  };

/** Whether a change must end the account's other sessions: disabled, deleted or new password. */
export function endsSessions(change: Change): boolean {
  if (change.op === 'delete') return true;
  if (change.op !== 'update') return false;
  return change.after?.status === 'disabled' || typeof change.after?.password_hash === 'string' && change.after.password_hash !== change.before?.password_hash;
}

export function revokeOnLockout(actor: SessionActor): ResourceBehaviour['after'] {
  return async (change, ctx) => {
    const account = change.before ?? change.after;
    if (!account || !endsSessions(change)) return;
    // The caller keeps the session they are using when they change their own password.
    const callerSession = ctx.actor.kind === 'anonymous' ? undefined : ctx.actor.sessionId;
    await revokeSessionsOf(ctx.trx, actor, [account.id as number], callerSession);
    if (actor === 'customer' && account.owner_id == null) {
      // A customer's team members log in on the customer's behalf: a disabled customer ends theirs too.
      const members = await ctx.trx.selectFrom('user').select('id').where('owner_id', '=', account.id as number).execute();
      await revokeSessionsOf(ctx.trx, 'customer', members.map((m) => m.id));
      // And the owners of its mailboxes theirs (not when the customer only changed a password).
      if (change.op === 'delete' || change.after?.status !== 'active') await endMailboxSessions(ctx.trx, { ownerId: account.id as number });
    }
  };
}
