/** Operators: their password stored hashed, their sessions ended when disabled, and never the last active superadmin removed. */
import { AppError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { hashGivenPassword, refuseSignInChangeByKey, revokeOnLockout } from './behaviours.js';

const isActiveSuperadmin = (record?: Record<string, unknown>) => record?.role === 'superadmin' && record?.status === 'active';

export const operatorBehaviour: ResourceBehaviour = {
  prepare: hashGivenPassword,
  async check(change, ctx) {
    refuseSignInChangeByKey('username')(change, ctx);
    // An operator who removed or disabled their own account would be locked out by a slip of the hand.
    const own = ctx.actor.kind === 'operator' && change.before?.id === ctx.actor.id;
    if (own && (change.op === 'delete' || (change.op === 'update' && change.after?.status === 'disabled'))) {
      throw new AppError('forbidden', 'error.own_account');
    }
    // Nobody can remove, demote or disable the last active superadmin: the business would be locked out.
    if (!isActiveSuperadmin(change.before)) return;
    if (change.op === 'update' && isActiveSuperadmin(change.after)) return;
    const others = await ctx.trx
      .selectFrom('admin')
      .select('id')
      .where('role', '=', 'superadmin')
      .where('status', '=', 'active')
      .where('id', '!=', change.before!.id)
      .executeTakeFirst();
    if (!others) throw new AppError('conflict', 'error.last_superadmin');
  },
  after: revokeOnLockout('operator'),
};
