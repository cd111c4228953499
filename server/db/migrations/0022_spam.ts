/**
 * Spam and malware protection (server/spam): the operators' defaults, a domain's and a mailbox's
 * own settings (off, or a junk and a reject score), allow and block lists of senders per domain
 * and per mailbox, mailboxes held for sending spam, and the figures rspamd reports (per domain
 * and day; per mailbox and hour for the sending rate).
 *
 * Scores are kept in tenths (whole numbers), so both databases write them, and the Sieve script
 * below compares them, the same way. The mail server reads:
 * - mail_held_mailbox: held mailboxes' addresses (Postfix refuses their submissions);
 * - mail_sieve, now also under the name "spam" for every mailbox: the script Pigeonhole runs before
 *   the owner's own (sieve_before), made here from the mailbox's effective junk score, with an id
 *   that changes with it so that Pigeonhole compiles it again.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

/** Sieve's CRLF, in SQL. */
const crlf = (dialect: Dialect) => (dialect === 'postgres' ? `E'\\r\\n'` : `char(13, 10)`);

/** The spam script of a mailbox whose effective setting is e (filter, junk_tenths). */
function spamScript(dialect: Dialect) {
  const nl = crlf(dialect);
  return `CASE WHEN e.filter = 'off' THEN '# Made by Maildesk: spam filtering is off for this mailbox.' || ${nl}
    ELSE 'require ["fileinto", "mailbox", "relational", "comparator-i;ascii-numeric"];' || ${nl}
      || '# Made by Maildesk: mail rspamd scored at or over this mailbox''s junk score goes to Junk, before the owner''s rules.' || ${nl}
      || 'if header :value "ge" :comparator "i;ascii-numeric" "X-Maildesk-Spam-Score" "' || e.junk_tenths || '" {' || ${nl}
      || '  fileinto :create "Junk";' || ${nl} || '  stop;' || ${nl} || '}' || ${nl} END`;
}

export function spam(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      // The operators' defaults (one row) and what "far above its normal rate" means for submissions.
      await db.schema
        .createTable('spam_default')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('filter', 'text', (c) => c.notNull().defaultTo('on'))
        .addColumn('junk_tenths', 'integer', (c) => c.notNull().defaultTo(60))
        .addColumn('reject_tenths', 'integer', (c) => c.notNull().defaultTo(150))
        // A mailbox is held when it sends more in an hour than this many messages and than
        // rate_factor times its usual hourly count (the last 7 days' busiest hour).
        .addColumn('hourly_floor', 'integer', (c) => c.notNull().defaultTo(200))
        .addColumn('rate_factor', 'integer', (c) => c.notNull().defaultTo(10))
        .addColumn('updated_at', 'text')
        .addColumn('updated_by', 'text')
        .execute();
      await db.insertInto('spam_default').values({ id: 1 }).execute();

      // A domain's (mailbox_id null) or a mailbox's own setting; none: as the level above.
      await withId(db.schema.createTable('spam_setting'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('mailbox_id', 'bigint', (c) => c.references('mailbox.id').onDelete('cascade'))
        .addColumn('filter', 'text', (c) => c.notNull())
        .addColumn('junk_tenths', 'integer', (c) => c.notNull())
        .addColumn('reject_tenths', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        .execute();
      await sql`CREATE UNIQUE INDEX spam_setting_scope_key ON spam_setting (domain_id, coalesce(mailbox_id, 0))`.execute(db);
      await indexes(db, 'spam_setting', ['mailbox_id']);

      // Senders (an address, or a whole domain) a domain or one mailbox allows or blocks.
      await withId(db.schema.createTable('spam_list'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('mailbox_id', 'bigint', (c) => c.references('mailbox.id').onDelete('cascade'))
        .addColumn('sender', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await sql`CREATE UNIQUE INDEX spam_list_scope_sender_key ON spam_list (domain_id, coalesce(mailbox_id, 0), sender)`.execute(db);
      await indexes(db, 'spam_list', ['owner_id', 'mailbox_id', ['domain_id', 'id']]);

      // Held mailboxes: their submissions are refused until released.
      await db.schema
        .createTable('spam_hold')
        .addColumn('mailbox_id', 'bigint', (c) => c.primaryKey().references('mailbox.id').onDelete('cascade'))
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('address', 'text', (c) => c.notNull().unique())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('held_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'spam_hold', ['owner_id', 'held_at']);

      // What rspamd reported, per recipient domain and UTC day.
      await db.schema
        .createTable('spam_day')
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('received', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('junked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('rejected', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('spam_day_pkey', ['domain_id', 'day'])
        .execute();

      // Messages a mailbox submitted, per UTC hour (its usual rate, and this hour's).
      await db.schema
        .createTable('spam_sent_hour')
        .addColumn('mailbox_id', 'bigint', (c) => c.notNull().references('mailbox.id').onDelete('cascade'))
        .addColumn('hour', 'text', (c) => c.notNull())
        .addColumn('messages', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('spam_sent_hour_pkey', ['mailbox_id', 'hour'])
        .execute();

      await sql`CREATE VIEW mail_held_mailbox AS SELECT address FROM spam_hold`.execute(db);

      // The mailbox owners' scripts (0019) and, for every mailbox that receives, its spam script.
      const view = sql.raw(`SELECT mm.address, 'active' AS name, s.script_id, s.script
        FROM mailbox_sieve s JOIN mailbox m ON m.id = s.mailbox_id JOIN mail_mailbox mm ON mm.address = m.address
        UNION ALL
        SELECT e.address, 'spam' AS name,
          CASE WHEN e.filter = 'off' THEN 'spam-off' ELSE 'spam-' || e.junk_tenths END AS script_id,
          ${spamScript(dialect)} AS script
        FROM (SELECT mm.address,
            coalesce(sm.filter, sd.filter, g.filter) AS filter,
            coalesce(sm.junk_tenths, sd.junk_tenths, g.junk_tenths) AS junk_tenths
          FROM mail_mailbox mm JOIN mailbox m ON m.address = mm.address
          JOIN spam_default g ON g.id = 1
          LEFT JOIN spam_setting sm ON sm.mailbox_id = m.id
          LEFT JOIN spam_setting sd ON sd.domain_id = m.domain_id AND sd.mailbox_id IS NULL) e`);
      if (dialect === 'postgres') {
        // Replaced in place: Dovecot's role keeps its grant on it.
        await sql`CREATE OR REPLACE VIEW mail_sieve AS ${view}`.execute(db);
      } else {
        await sql`DROP VIEW mail_sieve`.execute(db);
        await sql`CREATE VIEW mail_sieve AS ${view}`.execute(db);
      }
    },
  };
}
