import { z } from 'zod';
import { defineResource, staff, supportStaff, wholeNumber } from './define.js';

/**
 * Bringing the mail: a copy of the messages of an account on another IMAP server into one mailbox,
 * folders, flags and dates kept, run in the background. Counts: messages on the old server
 * (total), how many of them are in the mailbox (done: copied by this run or an earlier one), and
 * how many this run appended (copied). The old server's password is never part of the record.
 */
export const mailCopyStates = ['queued', 'running', 'done', 'failed'] as const;
export const mailCopyTls = ['tls', 'starttls'] as const;

/** A host name or an IP address, as people type it. */
export const sourceHost = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*)$/, 'validation.mail_copy_host');
export const sourcePort = wholeNumber(1, 65535);
export const sourceUser = z.string().trim().min(1).max(254);
/** The old server's password, as typed (never trimmed). */
export const sourcePassword = z.string().min(1).max(1024);

export const mailCopy = defineResource({
  name: 'mail_copy',
  table: 'mail_copy',
  owner: 'owner_id',
  teamScope: 'domain_id',
  mailboxScope: 'mailbox_id',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    mailbox_id: { kind: 'reference', reference: 'email', writable: 'create', list: true, filter: 'eq' },
    domain_id: { kind: 'reference', reference: 'domain', writable: 'never', list: true, filter: 'eq' },
    address: { kind: 'email', writable: 'never', list: true, search: true },
    source_host: { kind: 'text', schema: sourceHost, writable: 'create', list: true, search: true },
    source_port: { kind: 'integer', schema: sourcePort, writable: 'create', list: true },
    source_tls: { kind: 'enum', choices: mailCopyTls, writable: 'create', list: true },
    source_user: { kind: 'text', schema: sourceUser, writable: 'create', list: true, search: true },
    state: { kind: 'enum', choices: mailCopyStates, writable: 'never', list: true, filter: 'eq' },
    total_messages: { kind: 'integer', writable: 'never', list: true },
    done_messages: { kind: 'integer', writable: 'never', list: true },
    copied_messages: { kind: 'integer', writable: 'never', list: true },
    folders: { kind: 'integer', writable: 'never', list: true },
    /** Why it failed: a message key (error.mail_copy_*), and the old server's own words. */
    error: { kind: 'text', writable: 'never', list: true },
    error_detail: { kind: 'text', writable: 'never', list: true },
    started_by: { kind: 'text', writable: 'never', list: true },
    owner_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    created_at: { kind: 'datetime', writable: 'never', list: true },
    updated_at: { kind: 'datetime', writable: 'never', list: true },
    finished_at: { kind: 'datetime', writable: 'never', list: true },
  },
  admin: { listVia: 'query', list: 'team', get: 'team', create: 'team' },
  manage: { listVia: 'query', list: staff, get: staff, create: supportStaff },
  mail: { listVia: 'query', list: 'mailbox', get: 'mailbox', notes: { list: 'The copies of mail from other servers into this mailbox, started by its customer or an operator.' } },
});
