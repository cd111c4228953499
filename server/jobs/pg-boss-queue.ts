/**
 * Jobs on PostgreSQL through pg-boss 10 (its own schema, `pgboss`). What we rely on:
 * - `send` with the `db` option runs pg-boss's INSERT on the caller's Kysely transaction,
 *   so the job commits or rolls back with the change that caused it.
 * - Workers claim with SELECT … FOR UPDATE SKIP LOCKED: one instance gets each job.
 * - A uniqueKey fixes the job's id (idOfUniqueKey): one job per key while the job is kept
 *   (done jobs are archived after `keepDoneJobsDays`, and the key is free again, as on SQLite
 *   when housekeeping removes them).
 * - Retries: retry_limit, retry_delay doubled per try (retry_backoff, with jitter); a job
 *   past its limit stays `failed` with the error as its output.
 * - Schedules: pg-boss's cron, which sends at most one job per minute per schedule across
 *   instances (a singleton on the schedule's name).
 * - A run whose process died is failed by pg-boss's supervisor when its expiry passes, and
 *   retried like any failure.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { CompiledQuery, sql } from 'kysely';
import PgBoss from 'pg-boss';
import { nowMs } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { EnqueueOptions, JobRef, JobState, JobView } from '../core/queue.js';
import { maskSecrets } from '../core/mask.js';
import { errorText, queueBase, type JobRegistry, type Queue, type Runnable } from './registry.js';
import { keepDoneJobsDays, keepFailedJobsDays } from './housekeeping.js';
import type { QueueOptions } from './table-queue.js';
import { countsOf } from './table-queue.js';

/**
 * A unique key becomes the job's id (a UUID made from name and key): pg-boss's primary key
 * (name, id) and its ON CONFLICT DO NOTHING make a second enqueue a no-op while the job is in
 * the job table. (Its singleton slots cannot be longer than the archive interval.)
 */
export function idOfUniqueKey(name: string, key: string): string {
  const hex = crypto.createHash('sha256').update(`${name}\u0000${key}`).digest('hex');
  // Version 8 (custom), variant 10xx.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
/** Longest a run may take before pg-boss fails it (and retries it). */
const expireInSeconds = 300;
/** The version of its schema this pg-boss installs (pg-boss.version in the database). */
const bossSchemaVersion: number = createRequire(import.meta.url)('pg-boss/version.json').schema;

/** Runs pg-boss's SQL on `db`: on a transaction's own connection when `db` is one. */
export const executorOf = (db: Db): PgBoss.Db => ({
  async executeSql(text, values) {
    const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
    return { rows: result.rows as any[] };
  },
});

const stateOf: Record<string, JobState> = { created: 'queued', retry: 'queued', active: 'active', completed: 'done', failed: 'failed' };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface BossRow {
  id: string;
  name: string;
  state: string;
  retry_count: number;
  retry_limit: number;
  start_after: Date;
  output: any;
  data: any;
  created_on: Date;
  completed_on: Date | null;
  started_on: Date | null;
}

const viewOf = (row: BossRow): JobView => {
  const state = stateOf[row.state] ?? 'failed';
  return {
    id: row.id,
    name: row.name,
    state,
    // pg-boss counts retries when it starts one: a job that has run had retry_count + 1 tries.
    attempts: row.state === 'created' ? 0 : row.retry_count + 1,
    max_attempts: row.retry_limit + 1,
    run_at: row.start_after.toISOString(),
    last_error: row.output && typeof row.output === 'object' && 'message' in row.output ? String(row.output.message) : null,
    payload: maskSecrets(row.data),
    created_at: row.created_on.toISOString(),
    updated_at: (row.completed_on ?? row.started_on ?? row.created_on).toISOString(),
  };
};

/**
 * pg-boss on `db`. What enqueueing needs (pg-boss's schema at its version, a queue per job:
 * pg-boss drops a job sent to a queue that does not exist) is there when this returns;
 * workers and schedules begin with start().
 */
export async function pgBossQueue(db: Db, connectionString: string, registry: JobRegistry, options: QueueOptions): Promise<Queue> {
  const base = queueBase(registry);
  const { runnables, names } = base;
  const boss = new PgBoss({
    connectionString,
    max: 4,
    schedule: options.schedules,
    supervise: true,
    archiveCompletedAfterSeconds: keepDoneJobsDays * 86_400,
    archiveFailedAfterSeconds: keepFailedJobsDays * 86_400,
    deleteAfterDays: 1,
  });
  boss.on('error', (error) => options.logger.error({ err: error }, 'pg-boss'));
  let started = false;
  let inFlight = 0;

  async function run(runnable: Runnable, job: PgBoss.JobWithMetadata<unknown>) {
    inFlight++;
    try {
      await runnable.run(job.data, base.contextOf(job.retryCount + 1, job.retryLimit + 1));
    } catch (error) {
      if (job.retryCount >= job.retryLimit) options.logger.error({ err: error, job: job.name, id: job.id }, 'job failed for good');
      throw new Error(errorText(error));
    } finally {
      inFlight--;
    }
  }

  const activeJobs = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = any(${names}) and state = 'active'`.execute(db)).rows[0].n;

  // Up to date (every start but the first, or the first after an upgrade): one read.
  if (!(await queuesReady(db, names))) {
    await boss.start(); // installs or migrates pg-boss's schema
    started = true;
    for (const runnable of runnables.values()) {
      await boss.createQueue(runnable.name, { name: runnable.name, policy: 'standard', retryLimit: runnable.retryLimit, retryDelay: runnable.retryDelaySeconds, retryBackoff: true, expireInSeconds });
    }
  }

  const select = sql`select id, name, state, retry_count, retry_limit, start_after, output, data, created_on, completed_on, started_on from pgboss.job`;

  const jobs: Queue = {
    async enqueue<P>(into: Db, job: JobRef<P>, payload: P, opts: EnqueueOptions = {}) {
      const runnable = base.runnableOf(job.name);
      await boss.send(job.name, (payload ?? {}) as object, {
        db: executorOf(into),
        retryLimit: runnable.retryLimit,
        retryDelay: runnable.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds,
        ...(opts.uniqueKey ? { id: idOfUniqueKey(job.name, opts.uniqueKey) } : {}),
        // As a delay: pg-boss counts from the database's clock, business time is ours (tests move it).
        ...(opts.startAfter && opts.startAfter.getTime() > nowMs() ? { startAfter: (opts.startAfter.getTime() - nowMs()) / 1000 } : {}),
      });
    },

    async drain() {
      for (;;) {
        let ran = 0;
        for (const name of names) {
          const fetched = await boss.fetch(name, { includeMetadata: true, batchSize: 50 });
          // Claimed in queue order, but returned in any: run them in the order they were queued.
          fetched.sort((a, b) => a.createdOn.getTime() - b.createdOn.getTime());
          for (const job of fetched) {
            ran++;
            try {
              await run(runnables.get(name)!, job);
              await boss.complete(name, job.id);
            } catch (error) {
              await boss.fail(name, job.id, { message: errorText(error) });
            }
          }
        }
        if (ran === 0) {
          // A worker may hold a job it fetched but has not started: wait for it too.
          if (inFlight === 0 && !(await activeJobs())) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },

    runSchedule: (name) => base.runSchedule(name),

    async start(services) {
      base.begin(services);
      await boss.start();
      started = true;
      for (const runnable of runnables.values()) {
        let workerId = '';
        workerId = await boss.work(runnable.name, { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: Math.max(0.5, options.pollMs / 1000) }, async ([job]) => {
          try {
            await run(runnable, job);
          } finally {
            // pg-boss waits a polling interval after every fetch; after a job, look again at once.
            boss.notifyWorker(workerId);
          }
        });
        if (runnable.cron && options.schedules) await boss.schedule(runnable.name, runnable.cron, {}, { tz: 'UTC' });
      }
    },

    async stop() {
      if (!started) return;
      started = false;
      base.halt();
      // Waits for running jobs; the pool pg-boss opened is closed with it.
      await boss.stop({ graceful: true, wait: true, timeout: 15_000 });
    },

    async counts() {
      const rows = await sql<{ name: string; state: string; n: number }>`
        select name, case when state in ('created', 'retry') then 'queued' when state = 'completed' then 'done' else state::text end as state, count(*)::int as n
        from pgboss.job
        where name = any(${names}) and (state in ('created', 'retry', 'active', 'failed') or (state = 'completed' and completed_on >= now() - interval '1 day'))
        group by 1, 2`.execute(db);
      return countsOf(rows.rows);
    },

    async oldestWaitingSeconds() {
      // pg-boss counts due times by the database's clock.
      const { rows } = await sql<{ s: number | null }>`
        select extract(epoch from now() - min(start_after))::float8 as s
        from pgboss.job where name = any(${names}) and state in ('created', 'retry') and start_after <= now()`.execute(db);
      return Math.max(0, rows[0]?.s ?? 0);
    },

    async list({ name, state, page, pageSize }) {
      const states = state === 'queued' ? ['created', 'retry'] : state === 'done' ? ['completed'] : state ? [state] : ['created', 'retry', 'active', 'completed', 'failed'];
      const where = sql`where name = any(${name ? [name] : names}) and state::text = any(${states})`;
      const [rows, total] = await Promise.all([
        sql<BossRow>`${select} ${where} order by created_on desc, id limit ${pageSize} offset ${(page - 1) * pageSize}`.execute(db),
        sql<{ n: number }>`select count(*)::int as n from pgboss.job ${where}`.execute(db),
      ]);
      return { list: rows.rows.map(viewOf), total: Number(total.rows[0].n) };
    },

    async get(id) {
      if (!uuid.test(id)) return undefined;
      const rows = await sql<BossRow>`${select} where id = ${id}::uuid and name = any(${names})`.execute(db);
      return rows.rows[0] && viewOf(rows.rows[0]);
    },

    async retry(id) {
      const job = await this.get(id);
      if (job?.state !== 'failed') return false;
      // pg-boss allows one more try (retry_limit + 1), at once.
      await boss.retry(job.name, id);
      return true;
    },

    async discard(id) {
      const job = await this.get(id);
      if (!job || (job.state !== 'failed' && job.state !== 'queued')) return false;
      await boss.deleteJob(job.name, id);
      return true;
    },
  };
  return jobs;
}

/** Whether pg-boss's schema is at this pg-boss's version and has a queue for every name. */
async function queuesReady(db: Db, names: string[]): Promise<boolean> {
  try {
    const { rows } = await sql<{ version: number; queues: number }>`
      select (select version from pgboss.version) as version, (select count(*)::int from pgboss.queue where name = any(${names})) as queues`.execute(db);
    return Number(rows[0].version) === bossSchemaVersion && rows[0].queues === names.length;
  } catch {
    return false; // no pgboss schema yet: boss.start() makes it
  }
}
