/**
 * Lists at a million rows: every column a declaration searches gets a substring index
 * (FTS5 trigram on SQLite, pg_trgm on PostgreSQL), so that `q` reads an index instead of
 * scanning the table.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { searchIndex } from './helpers.js';

// The searchable columns of each table as the declarations stood when this was written;
// a later declaration that searches another column adds its index in its own migration
// (tests/api/indexes.test.ts names any column without one).
const searched: Record<string, string[]> = {
  admin: ['username'],
  user: ['email', 'username'],
  log: ['actor_name', 'action'],
  email_template: ['key', 'subject'],
  email_send_log: ['recipient', 'subject'],
  guest_message: ['name', 'email', 'subject', 'content'],
  domain: ['name', 'name_unicode'],
  mailbox: ['address', 'address_unicode', 'name'],
  alias: ['address', 'address_unicode', 'goto'],
  storage: ['label'],
};

export function searchAndCounts(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [table, columns] of Object.entries(searched)) await searchIndex(db, dialect, table, columns);
    },
  };
}
