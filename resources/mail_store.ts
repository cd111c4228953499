import { z } from 'zod';
import { byteSize, defineResource, MiB, staff, superadminOnly } from './define.js';

export const mailStoreStates = ['active', 'draining', 'down'] as const;
export type MailStoreState = (typeof mailStoreStates)[number];

/** A host name or an IP address, as Dovecot's proxy and Postfix's LMTP client are given it. */
const hostAddress = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .refine((value) => z.ipv4().safeParse(value).success || z.ipv6().safeParse(value).success || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(value), 'validation.host_address');

/**
 * A mail store: a host (Dovecot with LMTP and the mail) holding its share of the mailboxes. Every
 * mailbox lives on one; one store (`main`, on this host) is the whole of a one-machine setup.
 * active: new mailboxes may be placed on it; draining: none are, and its mailboxes are being
 * moved off; down: none are, and its mailboxes' mail waits at the front until it returns.
 * capacity (bytes, optional): a store whose measured use reaches it takes no new mailboxes.
 * used_bytes and mailboxes are measured every few minutes (server/mail/stores/measure.ts).
 */
export const mailStore = defineResource({
  name: 'mail_store',
  table: 'mail_store',
  timestamps: true,
  defaultSort: { field: 'name', order: 'asc' },
  fields: {
    name: { kind: 'text', max: 64, required: true, unique: true, list: true, sortable: true, search: true },
    address: { kind: 'text', schema: hostAddress, required: true, list: true, search: true },
    state: { kind: 'enum', choices: mailStoreStates, default: 'active', list: true, filter: 'eq', sortable: true },
    capacity: { kind: 'bytes', min: MiB, max: 2 ** 60, list: true, schema: byteSize(MiB, 2 ** 60).nullable() },
    used_bytes: { kind: 'bytes', writable: 'never', list: true, sortable: true },
    mailboxes: { kind: 'integer', writable: 'never', list: true, sortable: true },
    measured_at: { kind: 'datetime', writable: 'never', list: 'wide' },
    note: { kind: 'text', min: 0, max: 500, default: '' },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  manage: {
    path: 'mail_store',
    list: staff,
    get: staff,
    create: superadminOnly,
    update: superadminOnly,
    delete: superadminOnly,
    notes: {
      create: 'A new store takes new mailboxes at once when active (the placement rule: the domain’s chosen store, else the customer’s, else the active store with the fewest bytes in use).',
      update: 'draining or down: no new mailbox is placed on it. Its address is where the front tier reaches it.',
      delete: 'Refused with error.mail_store_in_use while any mailbox lives on it; customers and domains that chose it go back to the placement rule.',
    },
  },
});

/** Why a mailbox is on its store: its domain's or its customer's chosen store, the rule's least used one, or the one store it was on before stores were records. */
export const placements = ['domain', 'customer', 'least_used', 'only_store'] as const;
export type Placement = (typeof placements)[number];
