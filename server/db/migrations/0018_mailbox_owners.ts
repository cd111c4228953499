/**
 * The people who read the mail get an area of their own: their rules (out-of-office,
 * forwarding) and the Sieve script the panel makes of them, which Dovecot's Pigeonhole reads
 * through its SQL dict at delivery; app passwords, extra credentials Dovecot's passdb accepts;
 * per mailbox whether mail programs must use them; per domain whether its mailboxes may use the
 * area. Sessions of mailbox owners are `session` rows with actor 'mailbox'.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function mailboxOwners(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      // Mail programs (IMAP, POP3, SMTP) must use app passwords; the main password still signs in to the area.
      await db.schema.alterTable('mailbox').addColumn('app_passwords_only', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // The customer lets this domain's mailboxes use the area.
      await db.schema.alterTable('domain').addColumn('mailbox_area', 'integer', (c) => c.notNull().defaultTo(1)).execute();

      // The rules as people set them; one row per mailbox that has any.
      await db.schema
        .createTable('mailbox_rule')
        .addColumn('mailbox_id', 'bigint', (c) => c.primaryKey().references('mailbox.id').onDelete('cascade'))
        .addColumn('out_of_office', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ooo_starts_at', 'text')
        .addColumn('ooo_ends_at', 'text')
        .addColumn('ooo_time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
        .addColumn('ooo_subject', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ooo_body', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ooo_interval_days', 'integer', (c) => c.notNull().defaultTo(7))
        .addColumn('forwarding', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('forward_to', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('forward_keep_copy', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        .execute();

      // The Sieve script made of the rules, written in the same transaction; script_id changes with
      // the script, so Pigeonhole compiles it again.
      await db.schema
        .createTable('mailbox_sieve')
        .addColumn('mailbox_id', 'bigint', (c) => c.primaryKey().references('mailbox.id').onDelete('cascade'))
        .addColumn('script_id', 'text', (c) => c.notNull().unique())
        .addColumn('script', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('app_password'), dialect)
        .addColumn('mailbox_id', 'bigint', (c) => c.notNull().references('mailbox.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        // The password's first four characters, in clear: Dovecot finds the row by them.
        .addColumn('selector', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('last_used_at', 'text')
        .addColumn('last_used_ip', 'text')
        .addUniqueConstraint('app_password_mailbox_id_selector_key', ['mailbox_id', 'selector'])
        .execute();
      await indexes(db, 'app_password', [['mailbox_id', 'id']]);

      // The mailbox's page shows how many app passwords it has, never their values. PostgreSQL
      // expanded m.* when the view was made: made again, it carries app_passwords_only too.
      await sql`DROP VIEW mailbox_view`.execute(db);
      await sql`CREATE VIEW mailbox_view AS
        SELECT m.*, COALESCE(u.bytes, 0) AS used_bytes, COALESCE(u.messages, 0) AS used_messages,
               (SELECT COUNT(*) FROM app_password ap WHERE ap.mailbox_id = m.id) AS app_passwords
        FROM mailbox m LEFT JOIN mailbox_usage u ON u.address = m.address`.execute(db);
    },
  };
}
