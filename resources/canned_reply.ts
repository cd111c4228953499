import { defineResource, staff, supportStaff } from './define.js';

/** A reply operators use often, inserted into the reply box of a ticket and edited there. */
export const cannedReply = defineResource({
  name: 'canned_reply',
  table: 'canned_reply',
  timestamps: true,
  defaultSort: { field: 'title', order: 'asc' },
  fields: {
    title: { kind: 'text', max: 120, required: true, list: true, sortable: true, search: true },
    body: { kind: 'longtext', min: 1, max: 20_000, required: true, list: true },
    created_at: { kind: 'datetime', writable: 'never' },
    updated_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true },
  },
  manage: { list: staff, get: staff, create: supportStaff, update: supportStaff, delete: supportStaff },
});
