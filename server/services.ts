/** What every call can use, built once at start and passed down (no globals). */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { CallSpec } from './core/calls.js';
import type { RateLimiter } from './core/rate-limit.js';
import type { DatabaseHandle, Db, Dialect } from './db/index.js';
import type { Jobs } from './jobs/index.js';
import type { Mailer } from './mail/mailer.js';

export interface Services {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  dialect: Dialect;
  mailer: Mailer;
  /** Durable jobs and scheduled tasks (server/jobs). */
  jobs: Jobs;
  limiter: RateLimiter;
  logger: FastifyBaseLogger;
  /** Every call the app serves, in registration order (the OpenAPI description reads it). */
  calls: CallSpec<any>[];
}
