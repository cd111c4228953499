/**
 * What the mail server reads of the mailbox owners' area (deploy/queries.ts):
 * - mail_mailbox_login: the mailboxes whose main password mail programs may use (not
 *   app_passwords_only) — Dovecot's last passdb;
 * - mail_app_password: app passwords of mailboxes that may receive and log in, found by address and
 *   the password's first four characters — Dovecot's first passdb;
 * - mail_app_password_use (PostgreSQL): the only columns Dovecot may write, an app password's last
 *   use and the client's address (a simple view, so PostgreSQL updates it);
 * - mail_sieve: each mailbox's Sieve script under the name "active" and its id, for Pigeonhole's
 *   dict storage (Dovecot's SQL dict).
 * All of them are made over mail_mailbox, so only active mailboxes of active, verified domains of
 * active customers log in or run rules, whatever mail_mailbox becomes. Each lookup is an index read.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';

export function mailOwnersServer(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await sql`CREATE VIEW mail_mailbox_login AS
        SELECT mm.address, mm.password_hash
        FROM mail_mailbox mm JOIN mailbox m ON m.address = mm.address
        WHERE m.app_passwords_only = 0`.execute(db);
      await sql`CREATE VIEW mail_app_password AS
        SELECT mm.address, ap.selector, ap.password_hash, ap.id
        FROM app_password ap JOIN mailbox m ON m.id = ap.mailbox_id JOIN mail_mailbox mm ON mm.address = m.address`.execute(db);
      if (dialect === 'postgres') {
        await sql`CREATE VIEW mail_app_password_use AS SELECT id, last_used_at, last_used_ip FROM app_password`.execute(db);
      }
      await sql`CREATE VIEW mail_sieve AS
        SELECT mm.address, 'active' AS name, s.script_id, s.script
        FROM mailbox_sieve s JOIN mailbox m ON m.id = s.mailbox_id JOIN mail_mailbox mm ON mm.address = m.address`.execute(db);
    },
  };
}
