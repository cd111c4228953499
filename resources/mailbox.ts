import { z } from 'zod';
import { defineResource, MAX_QUOTA_BYTES, MiB, staff, supportStaff } from './define.js';
import { placements } from './mail_store.js';

/** A local part as Postfix and Dovecot take it: dot-atom, lower case, at most 64 characters. */
export const localPartPattern = /^[a-z0-9!#$%&'*+=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+=?^_`{|}~-]+)*$/;
export const localPartSchema = z.string().trim().toLowerCase().min(1).max(64).regex(localPartPattern, 'validation.local_part');

/**
 * A mailbox (`email` in the API): local part at one of the customer's domains, a password
 * Dovecot verifies, a quota in bytes, an active flag, and the usage Dovecot writes back.
 */
export const mailbox = defineResource({
  name: 'email',
  table: 'mailbox',
  view: 'mailbox_view',
  owner: 'owner_id',
  teamScope: 'domain_id',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    domain_id: { kind: 'reference', reference: 'domain', required: true, writable: 'create', list: 'wide', filter: 'eq' },
    local_part: { kind: 'text', schema: localPartSchema, required: true, writable: 'create' },
    address: { kind: 'email', writable: 'never', unique: true, list: true, sortable: true, search: true },
    address_unicode: { kind: 'text', writable: 'never', list: true, search: true },
    password: { kind: 'password', writeOnly: true, required: true },
    name: { kind: 'text', min: 0, max: 128, default: '', list: true, sortable: true, search: true },
    /** Bytes; defaults to the customer's storage_max. */
    quota: { kind: 'bytes', min: MiB, max: MAX_QUOTA_BYTES, list: true, sortable: true },
    active: { kind: 'boolean', default: 1, list: true, filter: 'eq' },
    used_bytes: { kind: 'bytes', writable: 'never', list: true },
    used_messages: { kind: 'integer', writable: 'never', list: 'wide' },
    delivery_checked_at: { kind: 'datetime', writable: 'never', list: 'wide' },
    /** Mail programs (IMAP, POP3, SMTP) must use app passwords; the main password still signs in to the mailbox owners' area. */
    app_passwords_only: { kind: 'boolean', default: 0, list: 'wide' },
    /** How many app passwords the owner made (never their values). */
    app_passwords: { kind: 'integer', writable: 'never', virtual: true, list: 'wide' },
    owner_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    /** The mail store its mail lives on, and why it was placed there (server/mail/stores/placement.ts). */
    store_id: { kind: 'reference', reference: 'mail_store', writable: 'never', shownIn: 'manage', list: 'wide', filter: 'eq' },
    placement: { kind: 'enum', choices: placements, writable: 'never', shownIn: 'manage', list: 'wide' },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  admin: {
    path: 'email',
    list: 'team',
    get: 'team',
    create: 'team',
    update: 'team',
    delete: 'team',
    notes: {
      list: 'Each mailbox carries used_bytes and used_messages as Dovecot last wrote them.',
      create: "quota defaults to the customer's storage_max; it may not exceed storage_max, the domain's max_quota, or the capacity left in unexpired storage blocks (error.capacity_exceeded).",
      update: 'Name, quota (same rules as create), active (a deactivated mailbox stops receiving and logging in at once), password. Added beside update_password for the edit screen.',
    },
  },
  manage: { path: 'email', list: staff, get: staff, create: supportStaff, update: supportStaff, delete: supportStaff },
});
