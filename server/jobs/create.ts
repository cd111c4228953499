/**
 * The queue for this database: the embedded table on SQLite, pg-boss on PostgreSQL. Jobs can
 * be enqueued once this returns; they run once the queue is started.
 */
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/index.js';
import type { JobRegistry, Queue } from './registry.js';
import { pgBossQueue } from './pg-boss-queue.js';
import { tableQueue } from './table-queue.js';

export async function createJobs(
  database: DatabaseHandle,
  registry: JobRegistry,
  config: Pick<Config, 'jobPollMs' | 'jobSchedules' | 'databaseUrl' | 'longJobs'>,
  logger: { error(obj: unknown, msg?: string): void },
): Promise<Queue> {
  const options = { pollMs: config.jobPollMs, schedules: config.jobSchedules, longLane: config.longJobs, logger };
  if (database.dialect === 'postgres') return pgBossQueue(database.db, config.databaseUrl!, registry, options);
  return tableQueue(database.db, registry, options);
}
