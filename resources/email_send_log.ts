import { defineResource, staff, superadminOnly } from './define.js';

/** One row per outgoing message: pending until the sending job has sent it, or failed after its last try. */
export const emailSendLog = defineResource({
  name: 'email_send_log',
  table: 'email_send_log',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    template_key: { kind: 'text', writable: 'never', list: true, filter: 'eq' },
    locale: { kind: 'text', writable: 'never', list: 'wide' },
    recipient: { kind: 'email', writable: 'never', list: true, search: true, filter: 'eq' },
    subject: { kind: 'text', writable: 'never', list: true, search: true },
    status: { kind: 'enum', choices: ['pending', 'sent', 'failed'], writable: 'never', list: true, filter: 'eq' },
    attempts: { kind: 'integer', writable: 'never', list: 'wide' },
    transport: { kind: 'enum', choices: ['smtp', 'outbox'], writable: 'never', list: 'wide', filter: 'eq' },
    error: { kind: 'text', writable: 'never' },
    message_id: { kind: 'text', writable: 'never' },
    user_id: { kind: 'reference', reference: 'customer', writable: 'never', filter: 'eq' },
    created_at: { kind: 'datetime', writable: 'never', list: true, sortable: true, filter: 'range' },
    sent_at: { kind: 'datetime', writable: 'never' },
  },
  manage: { listVia: 'query', list: staff, get: staff, delete: superadminOnly },
});
