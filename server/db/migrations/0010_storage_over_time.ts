/**
 * Storage over time: when a block's next notice (reminder before expiry, or the expiry
 * itself) is due, and one row per notice sent, whose unique key makes each one happen once.
 * The business over time: the daily summary the dashboard reads (stat_daily), and the
 * indexes that let one day's figures be read by range.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function storageOverTime(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      // Maintained whenever expires_at is written; the notices schedule reads it by range.
      await db.schema.alterTable('storage').addColumn('next_notice_at', 'text').execute();
      await indexes(db, 'storage', ['next_notice_at']);

      await withId(db.schema.createTable('storage_notice'), dialect)
        .addColumn('storage_id', 'bigint', (c) => c.notNull().references('storage.id').onDelete('cascade'))
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        // The reminder's threshold in days; 0 for the expiry notice.
        .addColumn('days', 'integer', (c) => c.notNull())
        // The expiry the notice is about: a renewed block is reminded again for its new expiry.
        .addColumn('expires_at', 'text', (c) => c.notNull())
        // Bytes the customer's quotas exceeded the capacity by when the block expired.
        .addColumn('shortfall', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('storage_notice_once', ['storage_id', 'expires_at', 'kind', 'days'])
        .execute();
      await indexes(db, 'storage_notice', [['owner_id', 'id'], ['kind', 'shortfall', 'id']]);

      // One row per (UTC day, figure, detail such as a status or product id); a day's event
      // figures are final once it has ended, capacity figures are the day's last snapshot.
      await db.schema
        .createTable('stat_daily')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('metric', 'text', (c) => c.notNull())
        .addColumn('dim', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('value', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('stat_daily_pk', ['day', 'metric', 'dim'])
        .execute();
      await indexes(db, 'stat_daily', [['metric', 'day']]);
      // Refunds by the day they happened, order events by the day they happened.
      await indexes(db, 'shop_order', ['closed_at']);
      await indexes(db, 'order_history', ['created_at']);
    },
  };
}
