import { defineResource, staff, superadminOnly } from './define.js';
import { locales } from './customer.js';

/** Every message the system sends, per key and locale, with {{placeholders}}. */
export const templateKeys = [
  'verify_code',
  'login_code',
  'password_reset',
  'email_change',
  'account_exists',
  'mailbox_check',
  // Hardening: the owner told when their password is being guessed.
  'sign_in_attempts',
  // … and when someone who knows the password is guessing the second factor.
  'second_factor_attempts',
  // A sign-in from a device the person has not used before.
  'new_device_sign_in',
  // Shop
  'order_paid',
  // Storage
  'storage_reminder',
  'storage_expired',
  'storage_over_capacity',
  // Support (tickets): to the customer, then to operators
  'ticket_reply', 'ticket_closed', 'ticket_new', 'ticket_customer_reply',
  // Guest messages
  'guest_reply',
  // Team-member invitations: the link, or (for an address with an account) a notice instead
  'team_invitation', 'team_invitation_exists',
  // Operators checking the outgoing-mail settings
  'test_message',
  // Spam: a mailbox held for sending spam or far more than usual (to the customer and operators)
  'mailbox_held',
  // Domain health: a DNS record that was correct no longer is (to the customer)
  'dns_record_broken',
] as const;
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
    updated_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true },
  },
  manage: { listVia: 'query', list: staff, get: staff, create: superadminOnly, update: superadminOnly, delete: superadminOnly },
});
