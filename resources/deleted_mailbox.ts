import { actorTypes } from './audit_log.js';
import { defineResource, staff } from './define.js';
import { mailbox } from './mailbox.js';

/**
 * What happens to a deleted mailbox: restorable (pending) until its grace period ends, then its
 * mail is removed (purged) or moved to the store's archive (archived) by a job; or an operator
 * restored it. `purging` is the short time the job is at work on the disk.
 */
export const deletedMailboxStates = ['pending', 'purging', 'purged', 'archived', 'restored'] as const;
export const purgeOutcomes = ['removed', 'archived', 'nothing_on_disk'] as const;

/**
 * A deleted mailbox (`deleted_email` in the operators' API): the record as it was, when its mail
 * goes, and what became of it. Written only by the lifecycle (server/mail/mailbox-deletion.ts);
 * operators list them and restore one (deleted_email/restore) while it is pending.
 */
export const deletedMailbox = defineResource({
  name: 'deleted_email',
  table: 'deleted_mailbox',
  owner: 'owner_id',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    address_unicode: { kind: 'text', writable: 'never', list: true, search: true },
    address: { kind: 'email', writable: 'never', search: true },
    name: { kind: 'text', min: 0, writable: 'never', list: true, search: true },
    state: { kind: 'enum', choices: deletedMailboxStates, writable: 'never', list: true, filter: 'eq' },
    owner_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    domain_id: { kind: 'reference', reference: 'domain', writable: 'never', filter: 'eq' },
    mailbox_id: { kind: 'integer', min: 1, writable: 'never', filter: 'eq' },
    quota: { kind: 'bytes', writable: 'never', list: 'wide' },
    used_bytes: { kind: 'bytes', writable: 'never', list: true },
    used_messages: { kind: 'integer', writable: 'never' },
    deleted_at: { kind: 'datetime', writable: 'never', list: true, sortable: true, filter: 'range' },
    deleted_by_type: { kind: 'enum', choices: actorTypes, writable: 'never' },
    deleted_by: { kind: 'text', writable: 'never', list: 'wide' },
    /** When the purge job runs: the end of the grace period. */
    purge_after: { kind: 'datetime', writable: 'never', list: true, sortable: true },
    finished_at: { kind: 'datetime', writable: 'never', sortable: true },
    finished_by: { kind: 'text', writable: 'never' },
    outcome: { kind: 'enum', choices: purgeOutcomes, writable: 'never' },
    /** The mailbox's home directory (its Maildir is inside). */
    store_path: { kind: 'text', writable: 'never' },
    archive_path: { kind: 'text', writable: 'never' },
  },
  manage: {
    list: staff,
    get: staff,
    notes: {
      list: 'Deleted mailboxes and what became of them; filter {"state": "pending"} lists those an operator can still restore (deleted_email/restore).',
    },
  },
});

/** Who may restore a deleted mailbox: those who may delete one. */
export const restoreRoles = mailbox.manage.delete;
