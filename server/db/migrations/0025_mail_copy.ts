/**
 * Bringing the mail (server/imports/mail-copy): copies of a mailbox's mail from another IMAP server.
 * - mail_copy: one run (who started it, the old server, its state and progress). At most one
 *   unfinished run per mailbox (a partial unique index): two runs into one mailbox would race.
 * - mail_copy_secret: the old server's password, AES-GCM encrypted, only while the run needs it;
 *   a table of its own so that no list or view of runs can ever select it.
 * - mail_copy_folder: how far each folder of an old account has been copied into a mailbox
 *   (UIDVALIDITY, last copied UID, and the UID being appended right now), kept across runs so
 *   that a second run copies only what is new.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function mailCopy(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('mail_copy'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('mailbox_id', 'bigint', (c) => c.notNull().references('mailbox.id').onDelete('cascade'))
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('source_host', 'text', (c) => c.notNull())
        .addColumn('source_port', 'integer', (c) => c.notNull())
        .addColumn('source_tls', 'text', (c) => c.notNull())
        .addColumn('source_user', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('total_messages', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('done_messages', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('copied_messages', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('folders', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('error_detail', 'text')
        // Each slice of a long copy is its own job (name + id + round is its unique key).
        .addColumn('round', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('started_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await indexes(db, 'mail_copy', [['owner_id', 'id'], ['mailbox_id', 'id'], ['domain_id', 'id'], ['state', 'updated_at']]);
      await sql`CREATE UNIQUE INDEX mail_copy_unfinished_key ON mail_copy (mailbox_id) WHERE state IN ('queued', 'running')`.execute(db);

      await db.schema
        .createTable('mail_copy_secret')
        .addColumn('copy_id', 'bigint', (c) => c.primaryKey().references('mail_copy.id').onDelete('cascade'))
        .addColumn('secret', 'text', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('mail_copy_folder'), dialect)
        .addColumn('mailbox_id', 'bigint', (c) => c.notNull().references('mailbox.id').onDelete('cascade'))
        // The old account: "host:port user" in lower case.
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('folder', 'text', (c) => c.notNull())
        .addColumn('uid_validity', 'bigint', (c) => c.notNull())
        .addColumn('last_uid', 'bigint', (c) => c.notNull())
        // Set before an APPEND, cleared with last_uid after it: a run cut short between the two
        // looks for this message in the mailbox before appending it again.
        .addColumn('pending_uid', 'bigint')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await sql`CREATE UNIQUE INDEX mail_copy_folder_key ON mail_copy_folder (mailbox_id, source, folder)`.execute(db);
    },
  };
}
