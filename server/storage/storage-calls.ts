/**
 * Storage in the customer area: capacity is granted by operators or bought (orders), never
 * made or removed by the customer, so create and delete there are documented refusals.
 * The summary calls show capacity, allocated quota and used bytes together.
 */
import { z } from 'zod';
import { billingStaff, idSchema } from '../../resources/define.js';
import { storage } from '../../resources/storage.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { AppError, fieldError, notFound } from '../core/errors.js';
import { idInput } from '../core/resource-calls.js';
import { findVisible } from '../core/scope.js';
import { now } from '../core/time.js';
import { capacityOf } from './capacity.js';
import { asStoredTime, firstNoticeAt, sendNotice } from './expiry.js';

const summaryText = 'Capacity (unexpired blocks), allocated (sum of mailbox quotas), used (bytes Dovecot reports), available, storage_max and counts, in bytes.';

/** Why an operator changed a block by hand: kept in the audit log. */
const reason = z.string().trim().min(3).max(500);

export const storageCalls = [
  defineCall({
    method: 'POST',
    path: '/api/admin/storage/create',
    auth: 'customer',
    tag: 'admin/storage',
    summary: 'Always refused (error.storage_via_order): customers get capacity by buying it (storage/buy, orders) or from the provider (/api/manage/storage/create).',
    input: z.object({}),
    handler: async () => Promise.reject(new AppError('forbidden', 'error.storage_via_order')),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/storage/delete',
    auth: 'customer',
    tag: 'admin/storage',
    summary: 'Always refused (error.storage_not_releasable): a block ends when it expires, or when an operator removes it.',
    input: z.object({}),
    handler: async () => Promise.reject(new AppError('forbidden', 'error.storage_not_releasable')),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/storage/summary',
    reads: true,
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/storage',
    summary: `The customer's own mail capacity. ${summaryText}`,
    input: z.object({}),
    handler: (_input, ctx) => capacityOf(ctx.services.db, ctx.actor.customerId),
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/storage/summary',
    reads: true,
    auth: 'operator',
    tag: 'manage/storage',
    summary: `One customer's mail capacity (user_id). ${summaryText}`,
    input: z.object({ user_id: idSchema }),
    async handler({ user_id }, ctx) {
      const customer = await ctx.services.db.selectFrom('user').select(['id', 'owner_id']).where('id', '=', user_id).executeTakeFirst();
      if (!customer || customer.owner_id !== null) throw notFound();
      return capacityOf(ctx.services.db, user_id);
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/storage/extend',
    auth: 'operator',
    tag: 'manage/storage',
    roles: billingStaff,
    summary: 'Moves a block\'s expiry later (id, expires_at after the current expiry and after now, reason); in the audit log with the reason. Reminders start again for the new expiry.',
    input: idInput.extend({ expires_at: z.iso.datetime({ offset: true }), reason }),
    handler: ({ id, expires_at, reason }, ctx) =>
      changeExpiry(ctx, id, reason, 'storage_extend', (block, at) => {
        const expiresAt = asStoredTime(expires_at)!;
        if (block.expires_at === null) throw new AppError('conflict', 'error.storage_no_expiry');
        if (expiresAt <= String(block.expires_at) || expiresAt <= at) throw fieldError('expires_at', 'validation.expiry_not_later', { current: String(block.expires_at) });
        return expiresAt;
      }),
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/storage/end',
    auth: 'operator',
    tag: 'manage/storage',
    roles: billingStaff,
    summary: 'Ends a block now (id, reason), as if it had expired: even when the quotas then exceed the capacity, mailboxes keep working and only new or larger quotas are refused. The customer is told; in the audit log with the reason.',
    input: idInput.extend({ reason }),
    handler: ({ id, reason }, ctx) =>
      changeExpiry(ctx, id, reason, 'storage_end', (block, at) => {
        if (block.expires_at !== null && String(block.expires_at) <= at) throw new AppError('conflict', 'error.storage_already_ended');
        return at;
      }),
  }),
];

/** Sets a block's expiry (and its notices) by hand, audited with the reason; an ended block's owner is told at once. */
async function changeExpiry(
  ctx: CallContext<'operator'>,
  id: number,
  why: string,
  action: 'storage_extend' | 'storage_end',
  decide: (block: Record<string, unknown>, at: string) => string,
) {
  const { services } = ctx;
  const updated = await services.db.transaction().execute(async (trx) => {
    const block = await findVisible(storage, 'manage', ctx, id, trx);
    const at = now();
    const expiresAt = decide(block, at);
    await trx
      .updateTable('storage')
      .set({ expires_at: expiresAt, next_notice_at: firstNoticeAt(expiresAt, at, services.config.storageReminderDays, { endedNow: true }), updated_at: at })
      .where('id', '=', id)
      .execute();
    await audit(trx, ctx, { action, targetType: 'storage', targetId: id, userId: Number(block.owner_id), before: { expires_at: block.expires_at }, after: { expires_at: expiresAt, reason: why } });
    return findVisible(storage, 'manage', ctx, id, trx);
  });
  if (action === 'storage_end') await sendNotice(services, id);
  return updated;
}
