/**
 * Mail stores (server/mail/stores): the hosts that hold the mail, as records.
 * - mail_store: name, address, state (active, draining, down), optional capacity, and the bytes
 *   and mailboxes measured on it. The one store of a one-machine setup, `main` on this host, is
 *   made here; every existing mailbox lives on it.
 * - mailbox.store_id and mailbox.placement (why it is there), read by index (store_id, id) when
 *   operators list a store's mailboxes; a deleted mailbox keeps both, for its restore. No foreign key: SQLite cannot add a column that references
 *   another table with a default other than NULL; a store with mailboxes is never deleted
 *   (server/mail/stores/store.ts).
 * - domain.mail_store_id and user.mail_store_id: the store an operator chose for a domain's or a
 *   customer's new mailboxes (NULL: the rule's least used store).
 * - mail_mailbox_store: where the front tier finds a mailbox's store on every login (Dovecot's
 *   proxy: host) and delivery (Postfix's transport: lmtp_host, an IPv6 address in brackets); one
 *   read of the mailbox's unique address and one of the store's primary key.
 */
import { sql, type Kysely } from 'kysely';
import { now } from '../../core/time.js';
import type { Dialect } from '../index.js';
import { indexes, searchIndex, withId } from './helpers.js';

export function mailStores(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('mail_store'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('capacity', 'bigint')
        .addColumn('used_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('mailboxes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('measured_at', 'text')
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mail_store_name_idx').on('mail_store').column('name').unique().execute();
      await indexes(db, 'mail_store', ['state', 'used_bytes', 'mailboxes', 'created_at']);
      await searchIndex(db, dialect, 'mail_store', ['name', 'address']);
      const at = now();
      await db.insertInto('mail_store').values({ id: 1, name: 'main', address: 'localhost', state: 'active', note: '', created_at: at, updated_at: at }).execute();
      // PostgreSQL's sequence goes on after the row given its id.
      if (dialect === 'postgres') await sql`SELECT setval(pg_get_serial_sequence('mail_store', 'id'), 1)`.execute(db);

      await db.schema.alterTable('mailbox').addColumn('store_id', 'bigint', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema.alterTable('mailbox').addColumn('placement', 'text', (c) => c.notNull().defaultTo('only_store')).execute();
      await indexes(db, 'mailbox', [['store_id', 'id']]);
      // A deleted mailbox's mail stays on its store: a restore brings the record back there.
      await db.schema.alterTable('deleted_mailbox').addColumn('store_id', 'bigint', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema.alterTable('deleted_mailbox').addColumn('placement', 'text', (c) => c.notNull().defaultTo('only_store')).execute();
      await indexes(db, 'deleted_mailbox', [['store_id', 'state']]);
      await db.schema.alterTable('domain').addColumn('mail_store_id', 'bigint', (c) => c.references('mail_store.id').onDelete('set null')).execute();
      await db.schema.alterTable('user').addColumn('mail_store_id', 'bigint', (c) => c.references('mail_store.id').onDelete('set null')).execute();

      // The store read by its primary key for the mailbox found (not a join, which a planner that knows
      // mail_store has a row or two would start from, reading it whole).
      await sql`CREATE VIEW mail_mailbox_store AS
        SELECT v.address, v.host, CASE WHEN v.host LIKE '%:%' THEN '[' || v.host || ']' ELSE v.host END AS lmtp_host, v.state
        FROM (SELECT m.address, (SELECT s.address FROM mail_store s WHERE s.id = m.store_id) AS host, (SELECT s.state FROM mail_store s WHERE s.id = m.store_id) AS state
              FROM mailbox m) v`.execute(db);

      // PostgreSQL expanded m.* when the view was made: made again, it carries the store too.
      await sql`DROP VIEW mailbox_view`.execute(db);
      await sql`CREATE VIEW mailbox_view AS
        SELECT m.*, COALESCE(u.bytes, 0) AS used_bytes, COALESCE(u.messages, 0) AS used_messages,
               (SELECT COUNT(*) FROM app_password ap WHERE ap.mailbox_id = m.id) AS app_passwords
        FROM mailbox m LEFT JOIN mailbox_usage u ON u.address = m.address`.execute(db);
    },
  };
}
