/**
 * Where people are signed in, and API keys for scripts: the devices each person has signed in
 * from (a sign-in from a new one is e-mailed), customers' and operators' API keys (only a hash
 * of the key is kept), and the key a change was made with in the activity log.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function sessionsAndApiKeys(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      // One row per (person, device): a sign-in from a device not here is a new device.
      await withId(db.schema.createTable('known_device'), dialect)
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('account_id', 'bigint', (c) => c.notNull())
        .addColumn('device_hash', 'text', (c) => c.notNull())
        .addColumn('first_seen_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('known_device_actor_account_id_device_hash_key', ['actor', 'account_id', 'device_hash'])
        .execute();

      // A key is found by its hash (unique index); it belongs to the login that made it and goes with it.
      await withId(db.schema.createTable('api_key'), dialect)
        .addColumn('area', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'bigint', (c) => c.references('user.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', (c) => c.references('user.id').onDelete('cascade'))
        .addColumn('admin_id', 'bigint', (c) => c.references('admin.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('access', 'text', (c) => c.notNull())
        .addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('last_used_at', 'text')
        .addColumn('last_used_ip', 'text')
        .execute();
      await indexes(db, 'api_key', [['customer_id', 'id'], ['user_id', 'id'], ['admin_id', 'id']]);

      await db.schema.alterTable('log').addColumn('api_key_id', 'bigint').execute();
      await db.schema.alterTable('log').addColumn('api_key_name', 'text').execute();
      // The customer's view of the log names their own keys, never an operator's.
      const masked = (column: string, empty: string) =>
        sql.raw(`CASE WHEN actor_type = 'operator' THEN ${empty} ELSE ${column} END AS ${column}`);
      await sql`DROP VIEW customer_log_view`.execute(db);
      await sql`CREATE VIEW customer_log_view AS
        SELECT id, user_id, actor_type, ${masked('actor_id', 'NULL')}, ${masked('actor_name', "''")}, action, target_type, target_id,
          before, after, ${masked('ip', "''")}, ${masked('user_agent', "''")}, created_at, ${masked('api_key_id', 'NULL')}, ${masked('api_key_name', 'NULL')}
        FROM log`.execute(db);
    },
  };
}
