/** Opens the database, brings it up to date, and makes sure there is someone to sign in as. */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
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
  const { app, services, calls, closeLog } = await buildApp({ config, database, db: database.db, dialect: database.dialect, mailer, jobs, limiter, files }, { logger: options.logger });
  const connections = connectionsOf(app.server);
  let jobsStarted: Promise<void> | undefined;
  const startJobs = () =>
    (jobsStarted ??= jobs.start(services).then(async () => {
      for (const capability of capabilities) await capability.started?.(services);
    }));
  if (!options.deferJobs) await startJobs();
  const close = async () => {
    try {
      await stage('requests under way', closeServing(app, connections));
      // The job being run ends first; queued ones wait in the database for the next start.
      await stage('the jobs being run', (async () => {
        await jobsStarted?.catch(() => undefined);
        await jobs.stop();
      })());
      await stage('the rate limiter', limiter.close());
      await stage('the database', database.close());
    } finally {
      // The log's last lines (written asynchronously) are out before close() returns.
      await closeLog();
    }
  };
  return { app, services, calls, firstOperator, startJobs, close };
}

/** The connections the server holds: a stop closes those that never sent a request (closeServing). */
function connectionsOf(server: Server): Set<Socket> {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return open;
}

/**
 * Stops taking requests and lets those under way finish; then nothing keeps the stop waiting.
 * - A keep-alive connection whose request was under way as the stop began becomes idle only once
 *   answered, and nothing closes it then (Fastify 5.12 closes idle connections once, as the stop
 *   begins: fastify/fastify#7044): the stop would wait for the keep-alive timeout (72 s).
 * - A connection that has not sent a request yet is not idle to Node (it waits up to its headers
 *   timeout, 60 s, for one): browsers open such connections ahead of need, and HTTP clients keep
 *   spares (the mail suite's HTTP client left a dozen, and the panel took a minute to stop).
 * Both are closed as they appear; a request under way is answered first.
 */
async function closeServing(app: FastifyInstance, connections: Set<Socket>) {
  const closeUnused = () => {
    app.server.closeIdleConnections();
    for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
  };
  const timer = setInterval(closeUnused, IDLE_CLOSE_MS);
  try {
    const closing = app.close();
    closeUnused();
    await closing;
  } finally {
    clearInterval(timer);
  }
}
const IDLE_CLOSE_MS = 50;

/** How long one step of stopping may take before the wait is said (a service manager kills a stop that waits too long). */
const SLOW_STOP_MS = 5_000;

/** One step of stopping; one that takes long says on standard error what it waits for. */
async function stage<T>(what: string, step: Promise<T>): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => console.error(`Stopping: still waiting for ${what} after ${Math.round((Date.now() - started) / 1000)} s`), SLOW_STOP_MS);
  try {
    return await step;
  } finally {
    clearInterval(timer);
  }
}
