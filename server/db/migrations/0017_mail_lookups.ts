/**
 * The mail server's lookups as index reads at a million mailboxes, on both databases.
 *
 * Before: each mail_* view joined its record to mail_domain, itself a join of domain and "user"
 * (active, verified, customer active), the aliases view (a UNION ALL) repeated that join in both
 * branches and the alias domains' view joined four tables. Postfix and Dovecot send their lookups
 * unprepared, so PostgreSQL planned all of those joins on each call: the quota check at RCPT (four
 * alias resolutions, two alias-domain ones) took ~10 ms of planning for a 0.3 ms read.
 *
 * Now what the views asked of the joins is kept on the domain's row by triggers, on both databases:
 * - `domain.receives_mail`: 1 while the domain is active and verified and its customer active
 *   (written on any change of the domain's status, verification or owner, or of the customer's
 *   status);
 * - `domain.alias_target`: the name of the domain it is an active alias domain of, while that
 *   domain receives mail, else NULL (written on any change of the domain's alias-domain record
 *   and of its target's flag or name).
 * Each view then reads one table through its primary or unique index, with the record's domain
 * flag and name as scalar subqueries on the domain's primary key (which PostgreSQL plans as
 * single-table reads instead of searching join orders). The views keep their names and columns:
 * Postfix's, Dovecot's and OpenDKIM's configurations (deploy/queries.ts) read them.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';

/** Whether a domain row (its columns named with `row.`) receives mail, its customer's status read by primary key. */
const receivesMail = (row: string) =>
  `CASE WHEN ${row}.status = 'active' AND ${row}.verified_at IS NOT NULL AND (SELECT u.status FROM "user" u WHERE u.id = ${row}.owner_id) = 'active' THEN 1 ELSE 0 END`;

/** The target of the domain whose id is `id`, when it is an active alias domain of a domain that receives mail. */
const aliasTarget = (id: string) =>
  `(SELECT t.name FROM alias_domain ad JOIN domain t ON t.id = ad.target_domain_id WHERE ad.alias_domain_id = ${id} AND ad.active = 1 AND t.receives_mail = 1)`;

/** The domain of a record (its domain_id) receives mail. */
const domainReceives = (record: string) => `(SELECT d.receives_mail FROM domain d WHERE d.id = ${record}.domain_id) = 1`;

const views: Record<string, string> = {
  mail_domain: `SELECT d.id, d.name FROM domain d WHERE d.receives_mail = 1`,
  // `+active`: no index on the flag is ever a candidate (SQLite chose the active index over the
  // address for a list of addresses made of subqueries, reading every active row).
  mail_mailbox: `SELECT m.address, m.password_hash, m.quota, m.local_part, (SELECT d.name FROM domain d WHERE d.id = m.domain_id) AS domain
    FROM mailbox m WHERE +m.active = 1 AND ${domainReceives('m')}`,
  // Every mailbox is also an alias of itself. Each branch reads one table, so PostgreSQL pushes
  // the address (a constant, or a value of an earlier subquery) into both unique indexes.
  mail_alias: `SELECT a.address, a.goto FROM alias a WHERE +a.active = 1 AND ${domainReceives('a')}
    UNION ALL
    SELECT m.address, m.address FROM mailbox m WHERE +m.active = 1 AND ${domainReceives('m')}`,
  mail_alias_domain: `SELECT d.name AS alias_domain, d.alias_target AS target_domain FROM domain d WHERE d.receives_mail = 1 AND d.alias_target IS NOT NULL`,
  mail_dkim_key: `SELECT d.name AS domain, d.dkim_selector AS selector, d.dkim_private_key AS private_key FROM domain d WHERE d.receives_mail = 1`,
  // Mailboxes whose usage (written by Dovecot) reached their quota; a quota of 0 has no limit.
  mail_mailbox_full: `SELECT m.address FROM mailbox m
    WHERE +m.active = 1 AND +m.quota > 0 AND (SELECT u.bytes FROM mailbox_usage u WHERE u.address = m.address) >= m.quota AND ${domainReceives('m')}`,
};

/** Dependents first: the order in which SQLite's views are dropped (and the reverse, made). */
const dropOrder = ['mail_mailbox_full', 'mail_dkim_key', 'mail_alias_domain', 'mail_alias', 'mail_mailbox', 'mail_domain'];

export function mailLookups(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('domain').addColumn('receives_mail', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('domain').addColumn('alias_target', 'text').execute();
      await sql.raw(`UPDATE domain SET receives_mail = ${receivesMail('domain')}`).execute(db);
      await sql.raw(`UPDATE domain SET alias_target = ${aliasTarget('domain.id')}`).execute(db);

      if (dialect === 'postgres') {
        // A domain's flag is set as its row is written (any change of status, verification or
        // owner, or a write of the flag itself); a customer's status change sets their domains'.
        await sql.raw(`CREATE FUNCTION domain_receives_mail() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            NEW.receives_mail := ${receivesMail('NEW')};
            RETURN NEW;
          END $$`).execute(db);
        await sql.raw(`CREATE TRIGGER domain_receives_mail BEFORE INSERT OR UPDATE OF status, verified_at, owner_id, receives_mail ON domain
          FOR EACH ROW EXECUTE FUNCTION domain_receives_mail()`).execute(db);
        await sql.raw(`CREATE FUNCTION user_domains_receive_mail() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            UPDATE domain SET receives_mail = ${receivesMail('domain')} WHERE owner_id = NEW.id;
            RETURN NULL;
          END $$`).execute(db);
        await sql.raw(`CREATE TRIGGER user_domains_receive_mail AFTER UPDATE OF status ON "user"
          FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION user_domains_receive_mail()`).execute(db);
        // Alias targets: of the alias domain whose record changed (before and after the change),
        // and of the alias domains of a domain whose flag or name changed.
        await sql.raw(`CREATE FUNCTION alias_domain_target() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF TG_OP <> 'INSERT' THEN UPDATE domain SET alias_target = ${aliasTarget('domain.id')} WHERE id = OLD.alias_domain_id; END IF;
            IF TG_OP <> 'DELETE' THEN UPDATE domain SET alias_target = ${aliasTarget('domain.id')} WHERE id = NEW.alias_domain_id; END IF;
            RETURN NULL;
          END $$`).execute(db);
        await sql.raw(`CREATE TRIGGER alias_domain_target AFTER INSERT OR DELETE OR UPDATE OF alias_domain_id, target_domain_id, active ON alias_domain
          FOR EACH ROW EXECUTE FUNCTION alias_domain_target()`).execute(db);
        await sql.raw(`CREATE FUNCTION domain_alias_targets() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            UPDATE domain SET alias_target = ${aliasTarget('domain.id')} WHERE id IN (SELECT alias_domain_id FROM alias_domain WHERE target_domain_id = NEW.id);
            RETURN NULL;
          END $$`).execute(db);
        await sql.raw(`CREATE TRIGGER domain_alias_targets AFTER UPDATE OF status, verified_at, owner_id, receives_mail, name ON domain
          FOR EACH ROW WHEN (OLD.receives_mail IS DISTINCT FROM NEW.receives_mail OR OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION domain_alias_targets()`).execute(db);
        // Same names and columns: the mail server's grants on them stay.
        for (const name of [...dropOrder].reverse()) await sql.raw(`CREATE OR REPLACE VIEW ${name} AS ${views[name]}`).execute(db);
        return;
      }

      // SQLite's triggers cannot change the row being written: they correct it after, only when it differs.
      const correct = `UPDATE domain SET receives_mail = ${receivesMail('domain')} WHERE id = NEW.id AND receives_mail <> ${receivesMail('domain')};`;
      await sql.raw(`CREATE TRIGGER domain_receives_mail_insert AFTER INSERT ON domain BEGIN ${correct} END`).execute(db);
      await sql.raw(`CREATE TRIGGER domain_receives_mail_update AFTER UPDATE OF status, verified_at, owner_id, receives_mail ON domain BEGIN ${correct} END`).execute(db);
      await sql.raw(`CREATE TRIGGER user_domains_receive_mail AFTER UPDATE OF status ON "user" WHEN OLD.status IS NOT NEW.status BEGIN
          UPDATE domain SET receives_mail = ${receivesMail('domain')} WHERE owner_id = NEW.id;
        END`).execute(db);
      const retarget = (id: string) => `UPDATE domain SET alias_target = ${aliasTarget('domain.id')} WHERE id = ${id};`;
      await sql.raw(`CREATE TRIGGER alias_domain_target_insert AFTER INSERT ON alias_domain BEGIN ${retarget('NEW.alias_domain_id')} END`).execute(db);
      await sql.raw(`CREATE TRIGGER alias_domain_target_update AFTER UPDATE OF alias_domain_id, target_domain_id, active ON alias_domain BEGIN
          ${retarget('OLD.alias_domain_id')} ${retarget('NEW.alias_domain_id')}
        END`).execute(db);
      await sql.raw(`CREATE TRIGGER alias_domain_target_delete AFTER DELETE ON alias_domain BEGIN ${retarget('OLD.alias_domain_id')} END`).execute(db);
      await sql.raw(`CREATE TRIGGER domain_alias_targets AFTER UPDATE OF receives_mail, name ON domain
          WHEN OLD.receives_mail IS NOT NEW.receives_mail OR OLD.name IS NOT NEW.name BEGIN
          UPDATE domain SET alias_target = ${aliasTarget('domain.id')} WHERE id IN (SELECT alias_domain_id FROM alias_domain WHERE target_domain_id = NEW.id);
        END`).execute(db);
      for (const name of dropOrder) await sql.raw(`DROP VIEW ${name}`).execute(db);
      for (const name of [...dropOrder].reverse()) await sql.raw(`CREATE VIEW ${name} AS ${views[name]}`).execute(db);
    },
  };
}
