/**
 * Moving in (server/imports): an import run (a PostfixAdmin database or a CSV file) keeps what it
 * will create as a list of items read once when it starts, so that the job resumes from that list
 * after a crash without the source (nor its password) being kept; `done` is how far it got, the
 * lease says which worker holds it. Weak mailbox hashes (anything but argon2id) are counted by
 * scheme through a partial index that holds only them.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function imports(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('import_run'), dialect)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('area', 'text', (c) => c.notNull())
        // The customer a customer's CSV import is for; null for operators' imports.
        .addColumn('owner_id', 'bigint', (c) => c.references('user.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('started_by', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('report', 'text', (c) => c.notNull())
        .addColumn('created', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('error', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await indexes(db, 'import_run', [['owner_id', 'id'], ['state', 'lease_until']]);
      await sql`CREATE INDEX mailbox_weak_hash_idx ON mailbox (password_hash) WHERE password_hash NOT LIKE '{ARGON2ID}%'`.execute(db);
    },
  };
}
