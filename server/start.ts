/** Opens the database, brings it up to date, and makes sure there is someone to sign in as. */
import type { Config } from './config.js';
import type { LogSetting } from './core/logging.js';
import { ensureFirstOperator } from './accounts/first-operator.js';
import { buildApp } from './app.js';
import { capabilities } from './capabilities.js';
import { createFileStore } from './core/files.js';
import { MemoryCounterStore, RateLimiter } from './core/rate-limit.js';
import { redisCounterStore } from './core/redis-counter-store.js';
import { openDatabase } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { createJobs } from './jobs/create.js';
import { registryOf } from './jobs/housekeeping.js';
import { createMailer } from './outbox/mailer.js';

export interface StartOptions {
  /** The app's JSON log (core/logging.ts): off by default (tests). */
  logger?: boolean | LogSetting;
  /**
   * Leave the job workers and schedules to startJobs(), called once the app listens: they
   * are not needed to answer requests (enqueueing works as soon as startMaildesk returns),
   * and their first round (due schedules, jobs left by the last run) would delay listening.
   */
  deferJobs?: boolean;
}

export async function startMaildesk(config: Config, options: StartOptions = {}) {
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  for (const capability of capabilities) await capability.prepare?.(database.db);
  const firstOperator = await ensureFirstOperator(database.db, config);
  const logger = { error: (obj: unknown, msg?: string) => console.error(msg ?? '', obj) };
  const jobs = await createJobs(database, registryOf(capabilities), config, logger);
  const mailer = createMailer(database.db, jobs, config);
  const limiter = new RateLimiter(config.redisUrl ? await redisCounterStore(config.redisUrl) : new MemoryCounterStore());
  const files = await createFileStore(config, database.db);
  const { app, services, calls } = await buildApp({ config, database, db: database.db, dialect: database.dialect, mailer, jobs, limiter, files }, { logger: options.logger });
  let jobsStarted: Promise<void> | undefined;
  const startJobs = () =>
    (jobsStarted ??= jobs.start(services).then(async () => {
      for (const capability of capabilities) await capability.started?.(services);
    }));
  if (!options.deferJobs) await startJobs();
  const close = async () => {
    await app.close();
    // The job being run ends first; queued ones wait in the database for the next start.
    await jobsStarted?.catch(() => undefined);
    await jobs.stop();
    await limiter.close();
    await database.close();
  };
  return { app, services, calls, firstOperator, startJobs, close };
}
