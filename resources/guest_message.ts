import { z } from 'zod';
import { lineText, longText } from './text.js';
import { defineResource, idSchema, staff, supportStaff } from './define.js';

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
    ip: { kind: 'text', writable: 'never', list: 'wide', filter: 'eq' },
    user_agent: { kind: 'text', writable: 'never' },
    created_at: { kind: 'datetime', writable: 'never', list: true, sortable: true, filter: 'range' },
    /** Still open (0) or handled (1): answered, or marked handled by an operator. */
    handled: { kind: 'boolean', writable: 'never', list: true, filter: 'eq' },
    handled_at: { kind: 'datetime', writable: 'never' },
    replied_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true },
  },
  manage: {
    listVia: 'query',
    list: staff,
    get: staff,
    delete: supportStaff,
    notes: { list: 'filter {"handled": 0} lists the messages still open.' },
  },
});

/** What the public contact form sends; `website` is a honeypot no person fills in. */
export const guestMessageInput = z.object({
  name: lineText(1, 100),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  subject: lineText(0, 200).default(''),
  content: longText(1, 5000, { trim: true }),
  website: z.string().max(200).optional(),
});

/** An operator's answer to a guest message, mailed to the visitor (template guest_reply). */
export const guestReplyInput = z.object({
  id: idSchema,
  subject: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(20_000),
  locale: z.enum(['zh', 'en']).optional(),
});
