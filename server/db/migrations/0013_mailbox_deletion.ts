/**
 * Mailbox deletion as a lifecycle: one row per deleted mailbox, with what restoring
 * it needs (the record as it was, its password hash included), when its mail is removed, and
 * what became of it. No foreign keys: the row outlives its mailbox, domain and customer, because
 * the mail on disk does.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, searchIndex, withId } from './helpers.js';

export function mailboxDeletion(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('deleted_mailbox'), dialect)
        // The mailbox's id: a restored mailbox gets it back.
        .addColumn('mailbox_id', 'bigint', (c) => c.notNull())
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('domain_id', 'bigint', (c) => c.notNull())
        // The domain's name (punycode) and the local part: where the mail is on disk.
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('local_part', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('address_unicode', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('quota', 'bigint', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('delivery_checked_at', 'text')
        .addColumn('mailbox_created_at', 'text', (c) => c.notNull())
        // Usage as Dovecot last wrote it: how much mail is at stake.
        .addColumn('used_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('used_messages', 'bigint', (c) => c.notNull().defaultTo(0))
        // pending (restorable) → purging → purged | archived; or pending → restored.
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('deleted_at', 'text', (c) => c.notNull())
        .addColumn('deleted_by_type', 'text', (c) => c.notNull())
        .addColumn('deleted_by', 'text', (c) => c.notNull())
        .addColumn('purge_after', 'text', (c) => c.notNull())
        // Restored, purged or archived at, by whom (an operator's name, or the system).
        .addColumn('finished_at', 'text')
        .addColumn('finished_by', 'text')
        // removed, archived, or nothing_on_disk; the home directory handled, and where it went.
        .addColumn('outcome', 'text')
        .addColumn('store_path', 'text', (c) => c.notNull())
        .addColumn('archive_path', 'text')
        .execute();
      await indexes(db, 'deleted_mailbox', [['owner_id', 'id'], 'mailbox_id', 'domain_id', 'state', 'deleted_at', 'purge_after', 'finished_at']);
      // While its mail is on disk, the address belongs to the deleted mailbox: a new mailbox of the
      // same address would have the same home directory, and read the old mail.
      await sql`CREATE UNIQUE INDEX deleted_mailbox_address_held_idx ON deleted_mailbox (address) WHERE state IN ('pending', 'purging')`.execute(db);
      await searchIndex(db, dialect, 'deleted_mailbox', ['address', 'address_unicode', 'name']);
    },
  };
}
