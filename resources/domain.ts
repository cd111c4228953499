import { z } from 'zod';
import { defineResource, idSchema, MAX_QUOTA_BYTES, staff, superadminOnly, supportStaff } from './define.js';

export const domainStatuses = ['pending', 'active', 'suspended'] as const;
export type DomainStatus = (typeof domainStatuses)[number];

/** How many of something a domain may hold; 0 means no limit of its own. */
const limit = { kind: 'integer', min: 0, max: 1_000_000, default: 0, writableIn: 'manage', list: true } as const;

/**
 * A customer's mail domain. The name is stored as punycode (`name`) and shown as Unicode
 * (`name_unicode`); it belongs to one customer only. pending → active (its owner published
 * the TXT record we issued, or an operator marked it verified) → suspended by operators.
 * Operators set its limits; a DKIM key pair is made with it.
 */
export const domain = defineResource({
  name: 'domain',
  table: 'domain',
  owner: 'owner_id',
  teamScope: 'id',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: {
      kind: 'text',
      schema: z.string().trim().toLowerCase().min(1).max(253),
      required: true,
      unique: true,
      writable: 'create',
      list: true,
      sortable: true,
      search: true,
    },
    name_unicode: { kind: 'text', writable: 'never', list: true, search: true },
    owner_id: { kind: 'reference', reference: 'customer', required: true, writable: 'create', writableIn: 'manage', list: true, filter: 'eq' },
    status: { kind: 'enum', choices: domainStatuses, default: 'pending', writableIn: 'manage', list: true, filter: 'eq', sortable: true },
    verified_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true },
    verified_by: { kind: 'enum', choices: ['dns', 'operator'], writable: 'never', list: 'wide' },
    verify_token: { kind: 'text', writable: 'never' },
    max_mailboxes: limit,
    max_aliases: limit,
    max_quota: { kind: 'bytes', min: 0, max: MAX_QUOTA_BYTES, default: 0, writableIn: 'manage', list: true },
    dkim_selector: { kind: 'text', writable: 'never' },
    note: { kind: 'text', min: 0, max: 500, default: '' },
    /** The domain's mailboxes may sign in to the mailbox owners' area (/mail); off ends their sessions. */
    mailbox_area: { kind: 'boolean', default: 1, list: 'wide' },
    /** The mail store an operator chose for its new mailboxes; none: the placement rule's least used store. */
    mail_store_id: { kind: 'reference', reference: 'mail_store', schema: idSchema.nullable(), shownIn: 'manage', list: 'wide' },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  admin: {
    list: 'team',
    get: 'team',
    create: 'owner',
    update: 'team',
    delete: 'owner',
    notes: {
      create: 'The name may be Unicode (IDN): stored as punycode in `name`, shown in `name_unicode`. It stays pending until verified (domain/verify); a DKIM key pair is made with it.',
      update: "Customers change the note and mailbox_area (whether the domain's mailboxes may use the mailbox owners' area); status and limits are set by operators.",
      delete: 'Refused while the domain has mailboxes, aliases or alias domains.',
    },
  },
  manage: { list: staff, get: staff, create: supportStaff, update: supportStaff, delete: superadminOnly },
});
