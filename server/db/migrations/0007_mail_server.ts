/**
 * The mail server in production: DKIM key rotation (a next key published before the switch),
 * the signing keys OpenDKIM reads, and the full mailboxes Postfix refuses at RCPT through
 * aliases, alias domains and catch-alls (Dovecot's quota policy only knows mailboxes).
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';

export function mailServer(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('domain').addColumn('dkim_next_selector', 'text').execute();
      await db.schema.alterTable('domain').addColumn('dkim_next_private_key', 'text').execute();
      await db.schema.alterTable('domain').addColumn('dkim_next_public_key', 'text').execute();

      // OpenDKIM's KeyTable and SigningTable (deploy/queries.ts): the current key of each domain that may send.
      await sql`CREATE VIEW mail_dkim_key AS
        SELECT d.name AS domain, d.dkim_selector AS selector, d.dkim_private_key AS private_key
        FROM domain d JOIN mail_domain md ON md.id = d.id`.execute(db);
      // Mailboxes whose usage (written by Dovecot) reached their quota; a quota of 0 has no limit.
      await sql`CREATE VIEW mail_mailbox_full AS
        SELECT m.address FROM mail_mailbox m JOIN mailbox_usage u ON u.address = m.address
        WHERE m.quota > 0 AND u.bytes >= m.quota`.execute(db);
    },
  };
}
