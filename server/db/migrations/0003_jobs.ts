/**
 * The job table of the embedded queue (server/jobs/table-queue.ts), and the send log's life
 * of a message: pending → sent | failed, with its attempts. On PostgreSQL, pg-boss keeps
 * the jobs in its own schema.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function jobs(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('job'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        // queued → active → done | failed (queued again between retries)
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('unique_key', 'text')
        // When it may run next; while active, when its lease ends (a crashed run is taken again).
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('retry_delay_seconds', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('done_at', 'text')
        .execute();
      // NULL keys never collide: only jobs enqueued with a unique key are held to one.
      await db.schema.createIndex('job_name_unique_key_idx').on('job').columns(['name', 'unique_key']).unique().execute();
      await indexes(db, 'job', [
        ['state', 'run_at'],
        ['name', 'state'],
        ['state', 'updated_at'],
      ]);

      // Housekeeping removes what has ended by these (server/jobs/housekeeping.ts).
      await indexes(db, 'session', ['expires_at', 'last_seen_at', 'revoked_at']);
      await indexes(db, 'verify_code', ['expires_at']);

      await db.schema.alterTable('email_send_log').addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('email_send_log').addColumn('sent_at', 'text').execute();
    },
  };
}
