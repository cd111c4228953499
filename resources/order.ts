import { defineResource, staff } from './define.js';
import { orderStatuses, paymentMethods, productKinds } from './shop.js';

/**
 * A customer's order: the product, price, discount and promotion copied when it was made,
 * and its status: pending_payment → paid → fulfilled, or cancelled / expired / refunded.
 * Made, paid, cancelled and refunded through the shop's own calls (server/shop/); every
 * change is a row of its history (/api/{admin,manage}/order/history).
 */
export const order = defineResource({
  name: 'order',
  table: 'shop_order',
  owner: 'owner_id',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    /** What people quote (the id stays out of sight); filter.number finds the order a customer names. */
    number: { kind: 'text', writable: 'never', unique: true, list: true, filter: 'eq' },
    owner_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    product_id: { kind: 'reference', reference: 'product', writable: 'never', filter: 'eq' },
    product_kind: { kind: 'enum', choices: productKinds, writable: 'never', list: true, filter: 'eq' },
    product_name_zh: { kind: 'text', writable: 'never', list: true, search: true },
    product_name_en: { kind: 'text', writable: 'never', list: true, search: true },
    storage_size: { kind: 'bytes', writable: 'never' },
    period_months: { kind: 'integer', writable: 'never' },
    points_granted: { kind: 'integer', writable: 'never' },
    currency: { kind: 'text', writable: 'never' },
    price: { kind: 'integer', writable: 'never' },
    discount: { kind: 'integer', writable: 'never' },
    amount: { kind: 'integer', writable: 'never', list: true, sortable: true },
    bonus_points: { kind: 'integer', writable: 'never' },
    activity_id: { kind: 'reference', reference: 'activity', writable: 'never', filter: 'eq' },
    renew_storage_id: { kind: 'reference', reference: 'storage', writable: 'never' },
    payment_method: { kind: 'enum', choices: paymentMethods, writable: 'never', list: true, filter: 'eq' },
    status: { kind: 'enum', choices: orderStatuses, writable: 'never', list: true, filter: 'eq' },
    pay_before: { kind: 'datetime', writable: 'never' },
    paid_at: { kind: 'datetime', writable: 'never', sortable: true },
    fulfilled_at: { kind: 'datetime', writable: 'never' },
    closed_at: { kind: 'datetime', writable: 'never' },
    storage_id: { kind: 'reference', reference: 'storage', writable: 'never' },
    created_at: { kind: 'datetime', writable: 'never', list: true, sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  admin: { list: 'owner', get: 'owner', notes: { list: 'The customer\'s own orders. Each has a number for people (filter.number finds one).' } },
  manage: { list: staff, get: staff },
});
