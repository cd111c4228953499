import { defineResource, staff, superadminOnly } from './define.js';

/** One row per outgoing message, sent or not. */
export const emailSendLog = defineResource({
  name: 'email_send_log',
  table: 'email_send_log',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    template_key: { kind: 'text', writable: 'never', list: true, filter: 'eq' },
    locale: { kind: 'text', writable: 'never', list: true },
    recipient: { kind: 'email', writable: 'never', list: true, search: true, filter: 'eq' },
    subject: { kind: 'text', writable: 'never', list: true, search: true },
    status: { kind: 'enum', choices: ['sent', 'failed'], writable: 'never', list: true, filter: 'eq' },
    transport: { kind: 'enum', choices: ['smtp', 'outbox'], writable: 'never', list: true, filter: 'eq' },
    error: { kind: 'text', writable: 'never' },
    message_id: { kind: 'text', writable: 'never' },
    user_id: { kind: 'reference', reference: 'customer', writable: 'never', filter: 'eq' },
    created_at: { kind: 'datetime', writable: 'never', list: true, sortable: true, filter: 'range' },
  },
  manage: { listVia: 'query', list: staff, get: staff, delete: superadminOnly },
});
