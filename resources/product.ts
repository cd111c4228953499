import { z } from 'zod';
import { billingStaff, byteSize, defineResource, MiB, staff } from './define.js';
import { MAX_MONEY, MAX_PERIOD_MONTHS, productKinds } from './shop.js';

/**
 * What can be bought: a storage block (size, period in months or none) or a points top-up.
 * Taken off sale by hiding it (visible = 0); deleted only while no order refers to it (an
 * order keeps a copy of what it bought, but names the product it came from). Customers and visitors see visible products with today's promoted price through the
 * shop's own list calls (/api/product/list, /api/admin/product/*).
 */
export const product = defineResource({
  name: 'product',
  table: 'product',
  timestamps: true,
  defaultSort: { field: 'sort_order', order: 'asc' },
  fields: {
    kind: { kind: 'enum', choices: productKinds, required: true, writable: 'create', list: true, filter: 'eq' },
    name_zh: { kind: 'text', max: 120, required: true, list: true, search: true },
    name_en: { kind: 'text', max: 120, required: true, list: true, search: true },
    description_zh: { kind: 'longtext', max: 2000, default: '' },
    description_en: { kind: 'longtext', max: 2000, default: '' },
    /** In the shop currency's minor unit (fen, cents). */
    price: { kind: 'integer', min: 1, max: MAX_MONEY, required: true, list: true, sortable: true, schema: z.number().int().min(1).max(MAX_MONEY) },
    /** Storage products: the block's size in bytes. */
    storage_size: { kind: 'bytes', min: MiB, max: 2 ** 50, list: true, schema: byteSize(MiB, 2 ** 50).nullable() },
    /** Storage products: months until the block expires; null: it never does. */
    period_months: { kind: 'integer', min: 1, max: MAX_PERIOD_MONTHS, list: true, schema: z.number().int().min(1).max(MAX_PERIOD_MONTHS).nullable() },
    /** Points products: points credited when paid. */
    points_granted: { kind: 'integer', min: 1, max: MAX_MONEY, list: true, schema: z.number().int().min(1).max(MAX_MONEY).nullable() },
    visible: { kind: 'boolean', default: 1, list: true, filter: 'eq' },
    sort_order: { kind: 'integer', min: -1_000_000, max: 1_000_000, default: 0, list: 'wide', sortable: true },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  manage: {
    list: staff,
    get: staff,
    create: billingStaff,
    update: billingStaff,
    delete: billingStaff,
    notes: {
      update: 'The kind cannot change. visible = 0 takes the product off sale (customers no longer see it; orders made keep it).',
      delete: 'Refused with shop.product_has_orders while any order refers to the product: take it off sale (visible = 0) instead.',
    },
  },
});
