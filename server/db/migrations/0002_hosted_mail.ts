/**
 * Hosted mail: domains, mailboxes (and the usage Dovecot writes back), aliases, alias
 * domains, capacity blocks, team members' domains, and the views Postfix and Dovecot read.
 *
 * The mail_* views are the whole contract with the mail server: only active records of
 * active, verified domains of active customers appear in them, and every mailbox is also
 * an alias of itself (mail_alias), computed here instead of stored as a second row.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function hostedMail(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('domain'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('name_unicode', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('verified_at', 'text')
        .addColumn('verified_by', 'text')
        .addColumn('verify_token', 'text', (c) => c.notNull())
        .addColumn('max_mailboxes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_aliases', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_quota', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('dkim_selector', 'text', (c) => c.notNull())
        .addColumn('dkim_private_key', 'text', (c) => c.notNull())
        .addColumn('dkim_public_key', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'domain', [['owner_id', 'id'], 'name_unicode', 'status', 'verified_at', 'created_at']);

      await withId(db.schema.createTable('mailbox'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('local_part', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull().unique())
        .addColumn('address_unicode', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('quota', 'bigint', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('delivery_checked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'mailbox', [['owner_id', 'id'], ['domain_id', 'id'], 'address_unicode', 'name', 'quota', 'active', 'created_at']);

      // Written by Dovecot (quota_clone through dict-sql), keyed by the mailbox address.
      await db.schema
        .createTable('mailbox_usage')
        .addColumn('address', 'text', (c) => c.primaryKey())
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('messages', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();

      await withId(db.schema.createTable('alias'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('local_part', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull().unique())
        .addColumn('address_unicode', 'text', (c) => c.notNull())
        .addColumn('goto', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'alias', [['owner_id', 'id'], ['domain_id', 'id'], 'address_unicode', 'active', 'created_at']);

      await withId(db.schema.createTable('alias_domain'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('alias_domain_id', 'bigint', (c) => c.notNull().unique().references('domain.id').onDelete('cascade'))
        .addColumn('target_domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'alias_domain', [['owner_id', 'id'], 'target_domain_id', 'active', 'created_at']);

      await withId(db.schema.createTable('storage'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'storage', [['owner_id', 'id'], ['owner_id', 'expires_at'], 'source', 'size', 'expires_at', 'created_at']);

      await db.schema
        .createTable('team_member_domain')
        .addColumn('member_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('team_member_domain_pk', ['member_id', 'domain_id'])
        .execute();
      await indexes(db, 'team_member_domain', ['domain_id']);

      // What the panel lists: records with their usage and names.
      await sql`CREATE VIEW mailbox_view AS
        SELECT m.*, COALESCE(u.bytes, 0) AS used_bytes, COALESCE(u.messages, 0) AS used_messages
        FROM mailbox m LEFT JOIN mailbox_usage u ON u.address = m.address`.execute(db);
      await sql`CREATE VIEW alias_domain_view AS
        SELECT ad.*, a.name AS alias_domain_name, a.name_unicode AS alias_domain_unicode,
               t.name AS target_domain_name, t.name_unicode AS target_domain_unicode
        FROM alias_domain ad JOIN domain a ON a.id = ad.alias_domain_id JOIN domain t ON t.id = ad.target_domain_id`.execute(db);
      const domainIds =
        dialect === 'postgres'
          ? sql`(SELECT COALESCE(json_agg(tmd.domain_id ORDER BY tmd.domain_id), '[]'::json)::text FROM team_member_domain tmd WHERE tmd.member_id = u.id)`
          : sql`(SELECT json_group_array(domain_id) FROM (SELECT tmd.domain_id FROM team_member_domain tmd WHERE tmd.member_id = u.id ORDER BY tmd.domain_id))`;
      await sql`CREATE VIEW team_member_view AS SELECT u.*, ${domainIds} AS domain_ids FROM "user" u WHERE u.owner_id IS NOT NULL`.execute(db);

      // What the mail server reads (deploy/): only what may receive mail right now.
      await sql`CREATE VIEW mail_domain AS
        SELECT d.id, d.name FROM domain d JOIN "user" u ON u.id = d.owner_id
        WHERE d.status = 'active' AND d.verified_at IS NOT NULL AND u.status = 'active'`.execute(db);
      await sql`CREATE VIEW mail_mailbox AS
        SELECT m.address, m.password_hash, m.quota, m.local_part, d.name AS domain
        FROM mailbox m JOIN mail_domain d ON d.id = m.domain_id WHERE m.active = 1`.execute(db);
      await sql`CREATE VIEW mail_alias AS
        SELECT a.address, a.goto FROM alias a JOIN mail_domain d ON d.id = a.domain_id WHERE a.active = 1
        UNION ALL
        SELECT address, address FROM mail_mailbox`.execute(db);
      await sql`CREATE VIEW mail_alias_domain AS
        SELECT a.name AS alias_domain, t.name AS target_domain
        FROM alias_domain ad JOIN mail_domain a ON a.id = ad.alias_domain_id JOIN mail_domain t ON t.id = ad.target_domain_id
        WHERE ad.active = 1`.execute(db);
    },
  };
}
