import { defineResource } from './define.js';

/**
 * An app password: an extra credential of a mailbox for mail programs (IMAP, POP3, SMTP
 * submission), named by its owner, shown once when made and stored only as a hash Dovecot
 * verifies. Revoking one deletes it; the next login with it fails. Only the mailbox owner
 * lists, makes and revokes them; the customer's and operators' mailbox pages show how many.
 */
export const appPassword = defineResource({
  name: 'app_password',
  table: 'app_password',
  mailboxScope: 'mailbox_id',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', min: 1, max: 64, required: true, list: true, search: true },
    created_at: { kind: 'datetime', writable: 'never', list: true },
    created_ip: { kind: 'text', writable: 'never', list: true },
    last_used_at: { kind: 'datetime', writable: 'never', list: true },
    last_used_ip: { kind: 'text', writable: 'never', list: true },
  },
  mail: {
    listVia: 'query',
    list: 'mailbox',
    create: 'mailbox',
    delete: 'mailbox',
    notes: {
      list: 'Never the passwords: name, when and from where each was made, when and from where it was last used.',
      create: 'Answers {id, name, password, created_at}: the password (xxxx-xxxx-xxxx-xxxx, the dashes are part of it) is shown this once and never again.',
      delete: 'Revokes it: the next login of a mail program with it fails.',
    },
  },
});
