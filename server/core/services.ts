/** What every capability can use, built once at start and passed down (no globals). */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { DatabaseHandle, Db, Dialect } from '../db/index.js';
import type { FileStore } from './file-store.js';
import type { Mailer } from './mailer.js';
import type { Jobs } from './queue.js';
import type { RateLimiter } from './rate-limit.js';

export interface Services {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  dialect: Dialect;
  /** Outgoing mail from templates (server/outbox). */
  mailer: Mailer;
  /** Durable jobs and scheduled tasks (server/jobs). */
  jobs: Jobs;
  limiter: RateLimiter;
  /** Files every instance reaches: the database, or an S3-compatible bucket (core/files.ts). */
  files: FileStore;
  logger: FastifyBaseLogger;
}
