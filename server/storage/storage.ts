/** Capacity blocks: only for customers, and never taken below what their mailbox quotas hold. */
import { AppError, fieldError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { capacityOf, lockCustomer } from './capacity.js';
import { now } from '../core/time.js';
import { asStoredTime, firstNoticeAt } from './expiry.js';
import { formatBytes } from '../../resources/bytes.js';

/** The bytes a block adds to its customer's capacity right now (none once expired). */
const contribution = (block: Record<string, unknown> | undefined) =>
  block && (block.expires_at == null || String(block.expires_at) > now()) ? Number(block.size) : 0;

export const storageBehaviour: ResourceBehaviour = {
  /** A written expiry is stored in UTC (it compares as text) and schedules the block's notices. */
  toRow(input, change, ctx) {
    if (!('expires_at' in input) || (change.op === 'update' && input.expires_at === undefined)) return {};
    const expiresAt = asStoredTime(input.expires_at as string | null) ?? null;
    return { expires_at: expiresAt, next_notice_at: firstNoticeAt(expiresAt, now(), ctx.services.config.storageReminderDays, { endedNow: change.op === 'update' }) };
  },
  async check(change, ctx) {
    const ownerId = Number((change.before ?? change.after)!.owner_id);
    if (change.op === 'create') {
      const owner = await ctx.trx.selectFrom('user').select('owner_id').where('id', '=', ownerId).executeTakeFirst();
      if (!owner || owner.owner_id !== null) throw fieldError('owner_id', 'validation.not_a_customer');
      return;
    }
    await lockCustomer(ctx.trx, ctx.services.dialect, ownerId);
    const summary = await capacityOf(ctx.trx, ownerId);
    const capacity = summary.capacity - contribution(change.before) + contribution(change.op === 'update' ? change.after : undefined);
    if (capacity < summary.capacity && summary.allocated > capacity) {
      throw new AppError('conflict', 'error.capacity_in_use', { capacity, allocated: summary.allocated, capacity_text: formatBytes(capacity), allocated_text: formatBytes(summary.allocated) });
    }
  },
};
