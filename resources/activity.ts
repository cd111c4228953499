import { z } from 'zod';
import { billingStaff, defineResource, staff } from './define.js';
import { activityKinds, instant, MAX_MONEY } from './shop.js';

/**
 * A promotion: percent or amount off, or bonus points, on some products, within a time
 * window, with total and per-customer use limits, optionally for a customer's first order
 * only, applied automatically or when the customer types its code. Uses are counted in the
 * order's transaction and released when the order is cancelled or expires.
 */
export const activity = defineResource({
  name: 'activity',
  table: 'activity',
  view: 'activity_view',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name_zh: { kind: 'text', max: 120, required: true, list: true, search: true },
    name_en: { kind: 'text', max: 120, required: true, list: true, search: true },
    kind: { kind: 'enum', choices: activityKinds, required: true, list: true, filter: 'eq' },
    /** percent: 1–100 (% off); amount: minor units off; bonus_points: points credited. */
    value: { kind: 'integer', min: 1, max: MAX_MONEY, required: true, list: true, schema: z.number().int().min(1).max(MAX_MONEY) },
    product_ids: { kind: 'json', virtual: true, required: true, list: true, schema: z.array(z.number().int().min(1)).min(1).max(500) },
    starts_at: { kind: 'datetime', required: true, list: true, sortable: true, filter: 'range', schema: instant },
    ends_at: { kind: 'datetime', required: true, list: true, sortable: true, filter: 'range', schema: instant },
    /** 0: no limit. */
    total_limit: { kind: 'integer', min: 0, max: 1_000_000_000, default: 0, list: 'wide', schema: z.number().int().min(0).max(1_000_000_000) },
    per_customer_limit: { kind: 'integer', min: 0, max: 1_000_000, default: 0, schema: z.number().int().min(0).max(1_000_000) },
    first_order_only: { kind: 'boolean', default: 0 },
    /** Null: applied automatically; else only for customers who type it (letters, digits, - and _). */
    code: {
      kind: 'text',
      unique: true,
      list: true,
      search: true,
      schema: z.string().trim().regex(/^[A-Za-z0-9_-]{3,32}$/).transform((c) => c.toUpperCase()).nullable(),
    },
    used_count: { kind: 'integer', writable: 'never', list: 'wide', sortable: true },
    ended_early_at: { kind: 'datetime', writable: 'never' },
    created_at: { kind: 'datetime', writable: 'never', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  manage: {
    list: staff,
    get: staff,
    create: billingStaff,
    update: billingStaff,
    notes: { update: 'End a running promotion early with /api/manage/activity/end.' },
  },
});
