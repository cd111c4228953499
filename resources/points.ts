import { defineResource, staff } from './define.js';
import { ledgerReasons } from './shop.js';

/**
 * The points ledger: every change of a customer's points balance, append-only, with the
 * balance after it. One row per (source, reason): a second grant for the same source is
 * impossible. Read-only through these calls; written by the shop and add_points.
 */
export const points = defineResource({
  name: 'points',
  table: 'points_ledger',
  owner: 'user_id',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    user_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    delta: { kind: 'integer', writable: 'never', list: true },
    balance_after: { kind: 'integer', writable: 'never', list: true },
    reason: { kind: 'enum', choices: ledgerReasons, writable: 'never', list: true, filter: 'eq' },
    source: { kind: 'text', writable: 'never' },
    note: { kind: 'text', writable: 'never', list: true, search: true },
    order_id: { kind: 'reference', reference: 'order', writable: 'never', list: true },
    actor_type: { kind: 'text', writable: 'never' },
    created_at: { kind: 'datetime', writable: 'never', list: true, sortable: true, filter: 'range' },
  },
  admin: { list: 'owner', get: 'owner' },
  manage: { list: staff, get: staff },
});
