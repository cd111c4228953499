/**
 * Domain health (server/domain-health): the DNS watch and MTA-STS.
 * - domain.mta_sts_mode: the MTA-STS policy's mode (testing until the customer enforces it).
 * - domain.dns_watch_at: when the watch next looks at the domain's records; read by index
 *   (status, dns_watch_at), so each run takes only the domains that are due. '' is due at once.
 * - domain_dns_record: each watched record's state as last seen (one row per domain and kind).
 * - domain_dns_change: the history of those states (what was found before and after, and
 *   whether the customer was e-mailed about it), newest first per domain.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function domainHealth(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('domain').addColumn('mta_sts_mode', 'text', (c) => c.notNull().defaultTo('testing')).execute();
      await db.schema.alterTable('domain').addColumn('dns_watch_at', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('domain').addColumn('dns_checked_at', 'text').execute();
      await indexes(db, 'domain', [['status', 'dns_watch_at']]);

      await db.schema
        .createTable('domain_dns_record')
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('found', 'text', (c) => c.notNull())
        .addColumn('since', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('domain_dns_record_pkey', ['domain_id', 'kind'])
        .execute();

      await withId(db.schema.createTable('domain_dns_change'), dialect)
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('status_before', 'text', (c) => c.notNull())
        .addColumn('found_before', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('found', 'text', (c) => c.notNull())
        .addColumn('notified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'domain_dns_change', [['domain_id', 'id'], 'at']);
    },
  };
}
