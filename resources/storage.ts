import { billingStaff, defineResource, MiB, staff } from './define.js';

/**
 * A block of mail capacity a customer holds: granted by an operator (or, later, bought in an
 * order), with an optional expiry. The sum of the customer's mailbox quotas never exceeds
 * the capacity of their unexpired blocks. Customers read theirs and may only label them.
 */
export const storage = defineResource({
  name: 'storage',
  table: 'storage',
  owner: 'owner_id',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    owner_id: { kind: 'reference', reference: 'customer', required: true, writable: 'create', writableIn: 'manage', list: true, filter: 'eq' },
    size: { kind: 'bytes', min: MiB, max: 2 ** 50, required: true, writableIn: 'manage', list: true, sortable: true },
    source: { kind: 'enum', choices: ['grant', 'order'], default: 'grant', writable: 'never', list: true, filter: 'eq' },
    label: { kind: 'text', min: 0, max: 120, default: '', list: true, search: true },
    /** The order that bought (or last renewed) the block. */
    order_id: { kind: 'reference', reference: 'order', writable: 'never' },
    expires_at: { kind: 'datetime', writableIn: 'manage', list: true, sortable: true, filter: 'range' },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  admin: {
    list: 'owner',
    get: 'owner',
    update: 'owner',
    notes: { update: 'The customer may change only the label; size, expiry and owner are the provider\'s (create and delete are refused here).' },
  },
  manage: { list: staff, get: staff, create: billingStaff, update: billingStaff, delete: billingStaff },
});

/** A customer's mail capacity, as POST /api/{admin,manage}/storage/summary answers it. */
export interface CapacitySummary {
  user_id: number;
  /** Bytes in unexpired blocks. */
  capacity: number;
  /** Sum of the quotas of all the customer's mailboxes. */
  allocated: number;
  /** Bytes stored in the mailboxes, as Dovecot last reported. */
  used: number;
  available: number;
  storage_max: number;
  mailboxes: number;
  active_blocks: number;
  /** Bytes the quotas exceed the capacity by (after a block expired); 0 when they fit. */
  shortfall: number;
  /** The earliest expiry among the unexpired blocks, if any expires. */
  next_expiry: string | null;
}
