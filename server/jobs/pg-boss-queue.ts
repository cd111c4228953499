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
 *   instances (a singleton on the schedule's name); a period it delivers twice runs once (run()).
 * - A run whose process died is run again at once (see "Runners" below); one whose process is
 *   alive but stuck is failed by pg-boss's supervisor when its expiry passes, and retried.
 * - Long jobs (mail copies) are not worked by pg-boss's workers but by the lane of long jobs
 *   below: several at once, the job of the owner with the fewest running first and at most
 *   `perGroup` of one owner (the owner is the job's singleton_key, which the 'standard' policy
 *   leaves free for us), claimed under an advisory lock so that instances agree on the counts.
 *   pg-boss still retries, expires and archives them.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { nowMs } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { EnqueueOptions, JobRef, JobState, JobView } from '../core/queue.js';
import { maskSecrets } from '../core/mask.js';
import { currentPeriod, errorText, queueBase, type JobRegistry, type Queue, type Runnable } from './registry.js';
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
/**
 * Runners. Each started instance holds an advisory lock (this space, a key of its own) on a
 * connection of its own for as long as it lives, and a job it runs carries that key in its output
 * until it ends. PostgreSQL lets go of the lock when the process dies (kill -9 included: the
 * connection closes), so an active job whose runner's lock is gone was left by a dead process and
 * is retried at once by the next sweep of any instance, instead of after its expiry (five minutes
 * and pg-boss's next maintenance): a paid order is fulfilled right after a restart, not minutes later.
 */
const runnerLockSpace = 0x4d44; // "MD"
/** How often a started instance looks for jobs left by dead runners. */
const sweepMs = 15_000;
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
  /** Whether this instance's workers run jobs (after start()). */
  let working = false;
  const workerIds: string[] = [];
  let inFlight = 0;

  /**
   * pg-boss's cron can deliver one period twice: which period is due is judged by the instance's
   * estimate of the database's clock, but the once-a-minute guard is the minute the database is in
   * when the delivery is inserted, so two checks either side of a minute can both deliver it. The
   * first job created in a period runs; a later one of the same period is completed as a repeat
   * (its output says so).
   */
  async function repeatsItsPeriod(runnable: Runnable, job: PgBoss.JobWithMetadata<unknown>) {
    const period = currentPeriod(runnable.cron!, job.createdOn.getTime());
    const { rows } = await sql`
      select 1 from pgboss.job earlier join pgboss.job self on self.name = ${runnable.name} and self.id = ${job.id}::uuid
      where earlier.name = ${runnable.name} and earlier.created_on >= ${period}::timestamptz and (earlier.created_on, earlier.id) < (self.created_on, self.id)
      limit 1`.execute(db);
    return rows.length > 0;
  }

  async function run(runnable: Runnable, job: PgBoss.JobWithMetadata<unknown>): Promise<{ repeat: true } | undefined> {
    inFlight++;
    try {
      if (runner) await sql`update pgboss.job set output = ${JSON.stringify({ runner: runner.key })}::jsonb where name = ${job.name} and id = ${job.id}::uuid and state = 'active'`.execute(db);
      if (runnable.cron && (await repeatsItsPeriod(runnable, job))) return { repeat: true };
      await runnable.run(job.data, base.contextOf(job.retryCount + 1, job.retryLimit + 1));
    } catch (error) {
      if (job.retryCount >= job.retryLimit) options.logger.error({ err: error, job: job.name, id: job.id }, 'job failed for good');
      throw new Error(errorText(error));
    } finally {
      inFlight--;
    }
  }

  /** This instance's runner lock (Runners, above), held from start() to stop(). */
  let runner: { key: number; client: pg.Client } | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;

  /** Takes a runner lock (`key`, when one is being taken again) on a connection of its own. */
  async function holdRunnerLock(key = crypto.randomInt(1, 2 ** 31 - 1)): Promise<{ key: number; client: pg.Client }> {
    const client = new pg.Client({ connectionString });
    client.on('error', (error) => options.logger.error({ err: error }, 'job runner lock'));
    await client.connect();
    for (;;) {
      const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock($1, $2) as held', [runnerLockSpace, key]);
      if (rows[0].held) break;
      key = crypto.randomInt(1, 2 ** 31 - 1);
    }
    // A lost connection (the database restarted) loses the lock: take it again, with the same key, as
    // long as this instance works, or other instances would take its running jobs for a dead runner's.
    client.once('end', () => {
      if (runner?.client !== client) return;
      const again = () =>
        setTimeout(() => {
          if (runner?.client !== client) return;
          holdRunnerLock(key).then(
            (held) => (runner?.client === client ? (runner = held) : void held.client.end()),
            () => again(),
          );
        }, 1000).unref();
      again();
    });
    return { key, client };
  }

  /** Jobs whose runner has died are retried now (or failed, past their limit): once, under a row lock, whichever instance sweeps. */
  async function sweepDeadRunners() {
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ name: string; id: string }>`
        select j.name, j.id from pgboss.job j
        where j.name = any(${names}) and j.state = 'active' and j.output ? 'runner'
          and (j.output->>'runner')::bigint <> ${runner?.key ?? 0}
          and not exists (
            select 1 from pg_locks l
            where l.locktype = 'advisory' and l.granted and l.objsubid = 2
              and l.database = (select oid from pg_database where datname = current_database())
              and l.classid = ${runnerLockSpace} and l.objid::bigint = (j.output->>'runner')::bigint)
        for update of j skip locked`.execute(trx);
      if (rows.length === 0) return;
      for (const row of rows) await boss.fail(row.name, row.id, { message: 'its process ended while it ran' }, { db: executorOf(trx) });
      // A crash is not the job's failure: no waiting for a retry delay.
      await sql`update pgboss.job set start_after = now() where name = any(${names}) and id = any(${rows.map((row) => row.id)}::uuid[]) and state = 'retry'`.execute(trx);
      options.logger.error({ jobs: rows.map((row) => `${row.name} ${row.id}`) }, 'jobs whose process ended while they ran are run again');
    });
  }

  /** A drain looks for dead runners' jobs too, at most once a second (it loops every 20 ms, and tests drain often). */
  let drainSweptAt = -Infinity;
  async function sweepWhileDraining() {
    if (performance.now() - drainSweptAt < 1000) return;
    drainSweptAt = performance.now();
    await sweepDeadRunners();
  }

  /** Whether a job is running, or due (by the database's clock, as pg-boss counts). */
  const dueOrActive = async () =>
    (
      await sql`select 1 from pgboss.job where name = any(${names}) and (state = 'active' or (state in ('created', 'retry') and start_after < now())) limit 1`.execute(db)
    ).rows.length > 0;

  // Up to date (every start but the first, or the first after an upgrade): one read.
  if (!(await queuesReady(db, names))) {
    await boss.start(); // installs or migrates pg-boss's schema
    started = true;
    for (const runnable of runnables.values()) {
      await boss.createQueue(runnable.name, { name: runnable.name, policy: 'standard', retryLimit: runnable.retryLimit, retryDelay: runnable.retryDelaySeconds, retryBackoff: true, expireInSeconds });
    }
  }

  // The lane of long jobs (see the top of this file).
  const longNames = base.longNames;
  const longRunning = new Set<Promise<void>>();
  let longTurn: Promise<void> | undefined;
  let longWoken = false;
  let longTimer: NodeJS.Timeout | undefined;
  let longStopped = true;

  async function claimLong() {
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('maildesk.jobs.long-lane'))`.execute(trx);
      const { rows } = await sql<{ id: string; name: string; data: unknown; retry_count: number; retry_limit: number; created_on: Date }>`
        with running as (
          select singleton_key as owner, count(*)::int as n from pgboss.job
          where name = any(${longNames}) and state = 'active' and singleton_key is not null group by 1
        ), next as (
          select j.name, j.id from pgboss.job j left join running r on r.owner = j.singleton_key
          where j.name = any(${longNames}) and j.state < 'active' and j.start_after < now() and coalesce(r.n, 0) < ${options.longLane.perGroup}
          order by coalesce(r.n, 0), j.created_on, j.id
          limit 1
          for update of j skip locked
        )
        update pgboss.job j
        set state = 'active', started_on = now(), retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end
        from next where j.name = next.name and j.id = next.id
        returning j.id, j.name, j.data, j.retry_count, j.retry_limit, j.created_on`.execute(trx);
      return rows[0];
    });
  }

  async function runLong(row: NonNullable<Awaited<ReturnType<typeof claimLong>>>) {
    const job = { id: row.id, name: row.name, data: row.data, retryCount: row.retry_count, retryLimit: row.retry_limit, createdOn: row.created_on } as PgBoss.JobWithMetadata<unknown>;
    try {
      await boss.complete(row.name, row.id, (await run(runnables.get(row.name)!, job)) ?? {});
    } catch (error) {
      await boss.fail(row.name, row.id, { message: errorText(error) });
    }
  }

  /** One turn of the lane at a time: claims and starts long jobs while a worker is free. */
  function wakeLong() {
    if (longStopped || longNames.length === 0) return;
    if (longTurn) {
      longWoken = true;
      return;
    }
    longTurn = (async () => {
      do {
        longWoken = false;
        while (!longStopped && longRunning.size < options.longLane.workers) {
          const row = await claimLong();
          if (!row) break;
          const running: Promise<void> = runLong(row)
            .catch((error) => options.logger.error({ err: error }, 'job worker'))
            .finally(() => {
              longRunning.delete(running);
              wakeLong();
            });
          longRunning.add(running);
        }
      } while (longWoken && !longStopped);
    })()
      .catch((error) => options.logger.error({ err: error }, 'job worker'))
      .finally(() => {
        longTurn = undefined;
      });
  }

  const select = sql`select id, name, state, retry_count, retry_limit, start_after, output, data, created_on, completed_on, started_on from pgboss.job`;

  const jobs: Queue = {
    async enqueue<P>(into: Db, job: JobRef<P>, payload: P, opts: EnqueueOptions = {}) {
      const runnable = base.runnableOf(job.name);
      const owner = runnable.long ? runnable.ownerOf(payload) : undefined;
      await boss.send(job.name, (payload ?? {}) as object, {
        ...(owner !== undefined ? { singletonKey: owner } : {}),
        db: executorOf(into),
        retryLimit: runnable.retryLimit,
        retryDelay: runnable.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds,
        ...(opts.uniqueKey ? { id: idOfUniqueKey(job.name, opts.uniqueKey) } : {}),
        // As a delay: pg-boss counts from the database's clock, business time is ours (tests move it).
        ...(opts.startAfter && opts.startAfter.getTime() > nowMs() ? { startAfter: (opts.startAfter.getTime() - nowMs()) / 1000 } : {}),
      });
      // After the caller's transaction, if any, commits (else the lane's next poll finds it).
      if (runnable.long) setImmediate(wakeLong);
    },

    async drain() {
      if (working) {
        // The workers run what is due, one job of a name at a time and in queue order; a drain
        // that fetched beside them would run a name's jobs two at once and out of order.
        while (working) {
          await sweepWhileDraining();
          for (const id of workerIds) boss.notifyWorker(id);
          wakeLong();
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (inFlight === 0 && !(await dueOrActive())) return;
        }
        return; // stopped meanwhile
      }
      // Not started (a command, or before start-up): nothing else runs them.
      for (;;) {
        let ran = 0;
        for (const name of names) {
          const fetched = await boss.fetch(name, { includeMetadata: true, batchSize: 50 });
          // Claimed in queue order, but returned in any: run them in the order they were queued.
          fetched.sort((a, b) => a.createdOn.getTime() - b.createdOn.getTime());
          for (const job of fetched) {
            ran++;
            try {
              await boss.complete(name, job.id, (await run(runnables.get(name)!, job)) ?? {});
            } catch (error) {
              await boss.fail(name, job.id, { message: errorText(error) });
            }
          }
        }
        if (ran === 0) {
          await sweepWhileDraining();
          // Another instance may hold a job it fetched but has not finished: wait for it too.
          if (inFlight === 0 && !(await dueOrActive())) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },

    runSchedule: (name) => base.runSchedule(name),

    async start(services) {
      base.begin(services);
      await boss.start();
      started = true;
      runner = await holdRunnerLock();
      await sweepDeadRunners();
      sweepTimer = setInterval(() => void sweepDeadRunners().catch((error) => options.logger.error({ err: error }, 'job runner sweep')), sweepMs);
      sweepTimer.unref();
      longStopped = false;
      longTimer = setInterval(wakeLong, Math.max(500, options.pollMs));
      longTimer.unref();
      wakeLong();
      for (const runnable of runnables.values()) {
        if (runnable.cron && options.schedules && runnable.long) await boss.schedule(runnable.name, runnable.cron, {}, { tz: 'UTC' });
        if (runnable.long) continue;
        let workerId = '';
        workerId = await boss.work(runnable.name, { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: Math.max(0.5, options.pollMs / 1000) }, async ([job]) => {
          try {
            return await run(runnable, job);
          } finally {
            // pg-boss waits a polling interval after every fetch; after a job, look again at once.
            boss.notifyWorker(workerId);
          }
        });
        workerIds.push(workerId);
        if (runnable.cron && options.schedules) await boss.schedule(runnable.name, runnable.cron, {}, { tz: 'UTC' });
      }
      working = true;
    },

    async stop() {
      if (!started) return;
      started = false;
      working = false;
      workerIds.length = 0;
      base.halt();
      longStopped = true;
      clearInterval(longTimer);
      while (longTurn || longRunning.size) await Promise.all([longTurn, ...longRunning]);
      // Waits for running jobs; the pool pg-boss opened is closed with it.
      await boss.stop({ graceful: true, wait: true, timeout: 15_000 });
      clearInterval(sweepTimer);
      // After the runs have ended: until then, the lock says they are in hand.
      const held = runner;
      runner = undefined;
      await held?.client.end();
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
