/**
 * The embedded queue: jobs are rows of the `job` table in the app's own database, worked by
 * this process one at a time (SQLite has one writer anyway). A job is claimed by a guarded
 * UPDATE (…WHERE id = ? AND state = ? AND run_at = ?), so a job runs once however many
 * workers look at it. A running job holds a lease; one whose process died is taken again
 * when the lease ends (at start, at once: on SQLite this process owns the database).
 */
import { sql, type Selectable } from 'kysely';
import { daysAgo, inSeconds, now, nowMs } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { JobRow } from '../db/schema.js';
import { retryDelayMs } from '../core/jobs.js';
import type { EnqueueOptions, JobCounts, JobQuery, JobRef, JobView } from '../core/queue.js';
import { maskSecrets } from '../core/mask.js';
import { currentPeriod, errorText, periodEnd, queueBase, type JobRegistry, type Queue } from './registry.js';

export interface QueueOptions {
  /** How often the worker looks for due jobs and schedules when nothing woke it. */
  pollMs: number;
  /** Whether this process starts scheduled tasks (tests run them by hand). */
  schedules: boolean;
  logger: { error(obj: unknown, msg?: string): void };
}

/** Longest a run may take before another worker takes the job again. */
const leaseSeconds = 300;

type Claimed = Pick<Selectable<JobRow>, 'id' | 'name' | 'payload' | 'attempts' | 'max_attempts' | 'retry_delay_seconds'>;

export function tableQueue(db: Db, registry: JobRegistry, options: QueueOptions): Queue {
  const base = queueBase(registry);
  const { runnables, names } = base;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let working: Promise<void> | undefined;
  let wokenWhileWorking = false;
  const lastPeriod = new Map<string, { start: string; end: number }>();

  async function claimNext(): Promise<Claimed | undefined> {
    if (names.length === 0) return undefined;
    for (let tries = 0; tries < 5; tries++) {
      const at = now();
      const candidate = await db
        .selectFrom('job')
        .select(['id', 'state', 'run_at'])
        .where('state', 'in', ['queued', 'active'])
        .where('run_at', '<=', at)
        .where('name', 'in', names)
        .orderBy('run_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      const claimed = await db
        .updateTable('job')
        .set((eb) => ({ state: 'active', attempts: eb('attempts', '+', 1), run_at: inSeconds(leaseSeconds), updated_at: at }))
        .where('id', '=', candidate.id)
        .where('state', '=', candidate.state)
        .where('run_at', '=', candidate.run_at)
        .returning(['id', 'name', 'payload', 'attempts', 'max_attempts', 'retry_delay_seconds'])
        .executeTakeFirst();
      if (claimed) return claimed;
      // Another worker took it first: look again.
    }
    return undefined;
  }

  async function run(job: Claimed) {
    const runnable = runnables.get(job.name)!;
    const stillOurs = (q: any) => q.where('id', '=', job.id).where('state', '=', 'active').where('attempts', '=', job.attempts);
    try {
      await runnable.run(JSON.parse(job.payload), base.contextOf(job.attempts, job.max_attempts));
      const at = now();
      await stillOurs(db.updateTable('job').set({ state: 'done', done_at: at, updated_at: at })).execute();
    } catch (error) {
      const final = job.attempts >= job.max_attempts;
      const at = nowMs();
      await stillOurs(
        db.updateTable('job').set({
          state: final ? 'failed' : 'queued',
          run_at: new Date(at + (final ? 0 : retryDelayMs({ retryDelaySeconds: job.retry_delay_seconds }, job.attempts))).toISOString(),
          last_error: errorText(error),
          updated_at: new Date(at).toISOString(),
        }),
      ).execute();
      if (final) options.logger.error({ err: error, job: job.name, id: job.id }, 'job failed for good');
    }
  }

  /** Enqueues the current period's run of each schedule; the unique key makes it once per period. */
  async function startDueSchedules() {
    for (const runnable of runnables.values()) {
      if (!runnable.cron) continue;
      // Reading a cron expression costs more than a poll's queries: once per period is enough.
      const at = nowMs();
      const known = lastPeriod.get(runnable.name);
      if (known && Date.parse(known.start) <= at && at < known.end) continue;
      const start = currentPeriod(runnable.cron, at);
      if (known?.start !== start) await insert(db, runnable.name, runnable, {}, { uniqueKey: start });
      lastPeriod.set(runnable.name, { start, end: periodEnd(runnable.cron, at) });
    }
  }

  async function work() {
    do {
      wokenWhileWorking = false;
      if (options.schedules) await startDueSchedules();
      for (let job = await claimNext(); job && !stopped; job = await claimNext()) await run(job);
    } while (wokenWhileWorking && !stopped);
  }

  function wake() {
    if (stopped) return;
    if (working) {
      wokenWhileWorking = true;
      return;
    }
    working = work()
      .catch((error) => options.logger.error({ err: error }, 'job worker'))
      .finally(() => {
        working = undefined;
      });
  }

  async function insert(into: Db, name: string, runnable: { retryLimit: number; retryDelaySeconds: number }, payload: unknown, opts: EnqueueOptions) {
    const at = now();
    await into
      .insertInto('job')
      .values({
        name,
        payload: JSON.stringify(payload ?? null),
        state: 'queued',
        unique_key: opts.uniqueKey ?? null,
        run_at: opts.startAfter && opts.startAfter.getTime() > nowMs() ? opts.startAfter.toISOString() : at,
        max_attempts: runnable.retryLimit + 1,
        retry_delay_seconds: runnable.retryDelaySeconds,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['name', 'unique_key']).doNothing())
      .execute();
  }

  const viewOf = (row: Selectable<JobRow>): JobView => ({
    id: String(row.id),
    name: row.name,
    state: row.state,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    run_at: row.run_at,
    last_error: row.last_error,
    payload: maskSecrets(JSON.parse(row.payload)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
  const idOf = (id: string) => (/^\d+$/.test(id) ? Number(id) : -1);

  return {
    async enqueue<P>(into: Db, job: JobRef<P>, payload: P, opts: EnqueueOptions = {}) {
      const runnable = base.runnableOf(job.name);
      await insert(into, job.name, runnable, payload, opts);
      // After the caller's current step: inside a transaction the job may not be committed yet
      // (the worker reads on a second connection); then the next wake or poll finds it.
      setImmediate(wake);
    },

    async drain() {
      for (;;) {
        while (working) await working;
        // Each job runs as the worker's turn: a wake that comes meanwhile (an enqueue's) waits for
        // it instead of starting the worker beside it, so jobs still run one at a time, in order.
        let ran = false;
        working = (async () => {
          const job = await claimNext();
          if (job) await run(job);
          ran = job !== undefined;
        })().finally(() => {
          working = undefined;
          if (wokenWhileWorking) wake();
        });
        await working;
        if (!ran && !working) return;
      }
    },

    runSchedule: (name) => base.runSchedule(name),

    async start(services) {
      base.begin(services);
      // A run cut short by a crash is taken again at once: this process owns the database.
      if (names.length) {
        await db.updateTable('job').set({ state: 'queued', run_at: now(), updated_at: now() }).where('state', '=', 'active').where('name', 'in', names).execute();
      }
      stopped = false;
      timer = setInterval(wake, options.pollMs);
      timer.unref();
      wake();
    },

    async stop() {
      stopped = true;
      base.halt();
      clearInterval(timer);
      while (working) await working;
    },

    async counts() {
      const dayAgo = daysAgo(1);
      // Two index reads: the few unfinished jobs, and the range of the last day's done ones.
      const count = sql<number>`count(*)`.as('n');
      const [open, done] = await Promise.all([
        db.selectFrom('job').select(['name', 'state', count]).where('state', 'in', ['queued', 'active', 'failed']).groupBy(['name', 'state']).execute(),
        db.selectFrom('job').select(['name', 'state', count]).where('state', '=', 'done').where('updated_at', '>=', dayAgo).groupBy(['name', 'state']).execute(),
      ]);
      return countsOf([...open, ...done]);
    },

    async oldestWaitingSeconds() {
      // The first entry of the (state, run_at) index.
      const at = now();
      const row = await db.selectFrom('job').select('run_at').where('state', '=', 'queued').where('run_at', '<=', at).orderBy('run_at').limit(1).executeTakeFirst();
      return row ? Math.max(0, (Date.parse(at) - Date.parse(row.run_at)) / 1000) : 0;
    },

    async list({ name, state, page, pageSize }: JobQuery) {
      let query = db.selectFrom('job');
      if (name) query = query.where('name', '=', name);
      if (state) query = query.where('state', '=', state);
      const [rows, total] = await Promise.all([
        query.selectAll().orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
        query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return { list: rows.map(viewOf), total: Number(total.n) };
    },

    async get(id) {
      const row = await db.selectFrom('job').selectAll().where('id', '=', idOf(id)).executeTakeFirst();
      return row && viewOf(row);
    },

    async retry(id) {
      const at = now();
      const result = await db
        .updateTable('job')
        .set((eb) => ({ state: 'queued', max_attempts: eb('attempts', '+', 1), run_at: at, updated_at: at }))
        .where('id', '=', idOf(id))
        .where('state', '=', 'failed')
        .executeTakeFirst();
      setImmediate(wake);
      return Number(result.numUpdatedRows) === 1;
    },

    async discard(id) {
      const result = await db.deleteFrom('job').where('id', '=', idOf(id)).where('state', 'in', ['failed', 'queued']).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

/** Rows of (name, state, n) → one line per job name. */
export function countsOf(rows: { name: string; state: string; n: number | string }[]): JobCounts[] {
  const byName = new Map<string, JobCounts>();
  for (const { name, state, n } of rows) {
    const line = byName.get(name) ?? { name, queued: 0, active: 0, failed: 0, done_1d: 0 };
    const key = state === 'done' ? 'done_1d' : (state as 'queued' | 'active' | 'failed');
    if (key in line) line[key] += Number(n);
    byName.set(name, line);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
