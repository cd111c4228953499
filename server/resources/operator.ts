import { AppError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { hashGivenPassword, revokeOnLockout } from './accounts.js';

const isActiveSuperadmin = (record?: Record<string, unknown>) => record?.role === 'superadmin' && record?.status === 'active';

export const operatorBehaviour: ResourceBehaviour = {
  toRow: hashGivenPassword,
  /** Nobody can remove, demote or disable the last active superadmin: the business would be locked out. */
  async check(change, ctx) {
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
