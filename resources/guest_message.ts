import { z } from 'zod';
import { defineResource, staff, supportStaff } from './define.js';

/** A visitor's message from the public contact form. */
export const guestMessage = defineResource({
  name: 'guest_message',
  table: 'guest_message',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', max: 100, writable: 'never', list: true, search: true },
    email: { kind: 'email', writable: 'never', list: true, search: true },
    subject: { kind: 'text', max: 200, writable: 'never', list: true, search: true },
    content: { kind: 'longtext', max: 5000, writable: 'never', search: true },
    ip: { kind: 'text', writable: 'never', list: true, filter: 'eq' },
    user_agent: { kind: 'text', writable: 'never' },
    created_at: { kind: 'datetime', writable: 'never', list: true, sortable: true, filter: 'range' },
  },
  manage: { listVia: 'query', list: staff, get: staff, delete: supportStaff },
});

/** What the public contact form sends; `website` is a honeypot no person fills in. */
export const guestMessageInput = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  subject: z.string().trim().max(200).default(''),
  content: z.string().trim().min(1).max(5000),
  website: z.string().max(200).optional(),
});
