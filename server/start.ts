/** Opens the database, brings it up to date, and makes sure there is someone to sign in as. */
import crypto from 'node:crypto';
import type { Config } from './config.js';
import { hashPassword } from './core/passwords.js';
import { MemoryCounterStore, RateLimiter } from './core/rate-limit.js';
import { redisCounterStore } from './core/redis-counter-store.js';
import { now } from './core/time.js';
import { migrateToLatest } from './db/migrate.js';
import { openDatabase } from './db/index.js';
import type { Db } from './db/index.js';
import { createMailer, ensureDefaultTemplates } from './mail/mailer.js';
import { allJobs } from './jobs/all.js';
import { createJobs } from './jobs/create.js';
import { buildApp } from './app.js';

/** The first operator, created when there is none; the generated password is shown once. */
export async function ensureFirstOperator(db: Db, config: Pick<Config, 'adminUsername' | 'adminPassword'>) {
  const any = await db.selectFrom('admin').select('id').executeTakeFirst();
  if (any) return undefined;
  const password = config.adminPassword ?? crypto.randomBytes(12).toString('base64url');
  const at = now();
  await db
    .insertInto('admin')
    .values({ username: config.adminUsername, password_hash: await hashPassword(password), role: 'superadmin', status: 'active', created_at: at, updated_at: at })
    .execute();
  return { username: config.adminUsername, password, generated: !config.adminPassword };
}

export interface StartOptions {
  logger?: boolean;
  /**
   * Leave the job workers and schedules to startJobs(), called once the app listens: they
   * are not needed to answer requests (enqueueing works as soon as startMaildesk returns),
   * and their first round (due schedules, jobs left by the last run) would delay listening.
   */
  deferJobs?: boolean;
}

export async function startMaildesk(config: Config, options: StartOptions = {}) {
  const database = openDatabase(config);
  await migrateToLatest(database);
  await ensureDefaultTemplates(database.db);
  const firstOperator = await ensureFirstOperator(database.db, config);
  const logger = { error: (obj: unknown, msg?: string) => console.error(msg ?? '', obj) };
  const jobs = await createJobs(database, allJobs, config, logger);
  const mailer = createMailer(database.db, jobs, config);
  const limiter = new RateLimiter(config.redisUrl ? await redisCounterStore(config.redisUrl) : new MemoryCounterStore());
  const { app, services } = await buildApp({ config, database, db: database.db, dialect: database.dialect, mailer, jobs, limiter }, { logger: options.logger });
  let jobsStarted: Promise<void> | undefined;
  const startJobs = () => (jobsStarted ??= jobs.start(services));
  if (!options.deferJobs) await startJobs();
  const close = async () => {
    await app.close();
    // The job being run ends first; queued ones wait in the database for the next start.
    await jobsStarted?.catch(() => undefined);
    await jobs.stop();
    await limiter.close();
    await database.close();
  };
  return { app, services, firstOperator, startJobs, close };
}
