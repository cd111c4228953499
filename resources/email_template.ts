import { defineResource, staff, superadminOnly } from './define.js';
import { locales } from './customer.js';

/** Every message the system sends, per key and locale, with {{placeholders}}. */
export const templateKeys = ['verify_code', 'login_code', 'password_reset', 'email_change', 'account_exists', 'mailbox_check'] as const;
export type TemplateKey = (typeof templateKeys)[number];

export const emailTemplate = defineResource({
  name: 'email_template',
  table: 'email_template',
  timestamps: true,
  defaultSort: { field: 'key', order: 'asc' },
  fields: {
    key: { kind: 'text', max: 64, required: true, list: true, sortable: true, filter: 'eq', search: true },
    locale: { kind: 'enum', choices: locales, required: true, list: true, filter: 'eq', sortable: true },
    subject: { kind: 'text', max: 255, required: true, list: true, search: true },
    body: { kind: 'longtext', min: 1, max: 50_000, required: true },
    created_at: { kind: 'datetime', writable: 'never' },
    updated_at: { kind: 'datetime', writable: 'never', list: true, sortable: true },
  },
  manage: { listVia: 'query', list: staff, get: staff, create: superadminOnly, update: superadminOnly, delete: superadminOnly },
});
