/**
 * Storage in the customer area: capacity is granted by operators or bought (orders), never
 * made or removed by the customer, so create and delete there are documented refusals.
 * The summary calls show capacity, allocated quota and used bytes together.
 */
import { z } from 'zod';
import { defineCall } from '../core/calls.js';
import { AppError, notFound } from '../core/errors.js';
import { capacityOf } from '../mail/capacity.js';

const summaryText = 'Capacity (unexpired blocks), allocated (sum of mailbox quotas), used (bytes Dovecot reports), available, storage_max and counts, in bytes.';

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
    auth: 'operator',
    tag: 'manage/storage',
    summary: `One customer's mail capacity (user_id). ${summaryText}`,
    input: z.object({ user_id: z.coerce.number().int().min(1) }),
    async handler({ user_id }, ctx) {
      const customer = await ctx.services.db.selectFrom('user').select(['id', 'owner_id']).where('id', '=', user_id).executeTakeFirst();
      if (!customer || customer.owner_id !== null) throw notFound();
      return capacityOf(ctx.services.db, user_id);
    },
  }),
];
