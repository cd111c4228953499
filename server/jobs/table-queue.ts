/**
 * The embedded queue: jobs are rows of the `job` table in the app's own database, worked by
 * this process in two lanes. The first runs one job at a time, in order (the mail people wait
 * for, payments, schedules: SQLite has one writer anyway). The second runs the long jobs (mail
 * copies, which mostly wait on the network), several at once, at most a few of one owner, so that
 * long work never stands in front of a password-reset mail and one customer's many copies do not
 * hold the lane. A job is claimed by a guarded UPDATE (…WHERE id = ? AND state = ? AND run_at = ?),
 * so a job runs once however many workers look at it. A running job holds a lease; one whose
 * process died is taken again when the lease ends (at start, at once: on SQLite this process owns
 * the database).
 */
import { sql, type Selectable } from 'kysely';
import { daysAgo, inSeconds, now, nowMs } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { JobRow } from '../db/schema.js';
import { retryDelayMs } from '../core/jobs.js';
import type { EnqueueOptions, JobCounts, JobQuery, JobRef, JobView } from '../core/queue.js';
import { maskSecrets } from '../core/mask.js';
import { currentPeriod, errorText, periodEnd, queueBase, type JobRegistry, type LongLane, type Queue } from './registry.js';

export interface QueueOptions {
  /** How often the worker looks for due jobs and schedules when nothing woke it. */
  pollMs: number;
  /** Whether this process starts scheduled tasks (tests run them by hand). */
  schedules: boolean;
  /** The lane of long jobs (MAIL_COPY_WORKERS, MAIL_COPY_PER_CUSTOMER). */
  longLane: LongLane;
  logger: { error(obj: unknown, msg?: string): void };
}

/** Longest a run may take before another worker takes the job again. */
const leaseSeconds = 300;

type Claimed = Pick<Selectable<JobRow>, 'id' | 'name' | 'payload' | 'attempts' | 'max_attempts' | 'retry_delay_seconds'> & { owner?: string };
type Candidate = Pick<Selectable<JobRow>, 'id' | 'name' | 'state' | 'run_at' | 'payload'>;

/** A lane: its jobs, how many run at once, what runs now, and its worker's turn (claiming and starting). */
interface Lane {
  names: string[];
  slots: number;
  running: Set<Promise<void>>;
  turn?: Promise<void>;
  wokenDuringTurn: boolean;
}

export function tableQueue(db: Db, registry: JobRegistry, options: QueueOptions): Queue {
  const base = queueBase(registry);
  const { runnables, names } = base;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  const lastPeriod = new Map<string, { start: string; end: number }>();
  const main: Lane = { names: base.shortNames, slots: 1, running: new Set(), wokenDuringTurn: false };
  const long: Lane = { names: base.longNames, slots: options.longLane.workers, running: new Set(), wokenDuringTurn: false };
  const lanes = [main, long];
  /** Long jobs running, by owner. */
  const runningOf = new Map<string, number>();
  /** Jobs run so far (drain: whether a round ran anything). */
  let started = 0;

  /** Takes a candidate unless another worker did first. */
  async function take(candidate: Pick<Candidate, 'id' | 'state' | 'run_at'>, at: string): Promise<Claimed | undefined> {
    return db
      .updateTable('job')
      .set((eb) => ({ state: 'active', attempts: eb('attempts', '+', 1), run_at: inSeconds(leaseSeconds), updated_at: at }))
      .where('id', '=', candidate.id)
      .where('state', '=', candidate.state)
      .where('run_at', '=', candidate.run_at)
      .returning(['id', 'name', 'payload', 'attempts', 'max_attempts', 'retry_delay_seconds'])
      .executeTakeFirst();
  }

  const due = (laneNames: string[], at: string) => db.selectFrom('job').where('state', 'in', ['queued', 'active']).where('run_at', '<=', at).where('name', 'in', laneNames);

  /** The first lane's next job: the one due first. */
  async function claimNext(laneNames: string[]): Promise<Claimed | undefined> {
    if (laneNames.length === 0) return undefined;
    for (let tries = 0; tries < 5; tries++) {
      const at = now();
      const candidate = await due(laneNames, at).select(['id', 'state', 'run_at']).orderBy('run_at').orderBy('id').limit(1).executeTakeFirst();
      if (!candidate) return undefined;
      const claimed = await take(candidate, at);
      if (claimed) return claimed;
      // Another worker took it first: look again.
    }
    return undefined;
  }

  /**
   * The long lane's next job: of the owners below their share, the one with the fewest jobs
   * running, and its job due first (a copy's next slice is queued behind the others' as it ends,
   * so copies take turns).
   */
  async function claimLong(): Promise<Claimed | undefined> {
    if (long.names.length === 0) return undefined;
    for (let tries = 0; tries < 5; tries++) {
      const at = now();
      let best: { candidate: Candidate; owner?: string; load: number } | undefined;
      let after: Candidate | undefined;
      for (;;) {
        let query = due(long.names, at);
        if (after) {
          const { run_at, id } = after;
          query = query.where((eb) => eb.or([eb('run_at', '>', run_at), eb.and([eb('run_at', '=', run_at), eb('id', '>', id)])]));
        }
        const page = await query.select(['id', 'name', 'state', 'run_at', 'payload']).orderBy('run_at').orderBy('id').limit(500).execute();
        for (const candidate of page) {
          let owner: string | undefined;
          try {
            owner = runnables.get(candidate.name)!.ownerOf(JSON.parse(candidate.payload));
          } catch {}
          const load = owner === undefined ? 0 : (runningOf.get(owner) ?? 0);
          if (load >= options.longLane.perGroup) continue;
          if (!best || load < best.load) best = { candidate, owner, load };
          if (load === 0) break;
        }
        if (best?.load === 0 || page.length < 500) break;
        after = page[page.length - 1];
      }
      if (!best) return undefined;
      const claimed = await take(best.candidate, at);
      if (claimed) return { ...claimed, owner: best.owner };
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

  /** Starts a claimed job in its lane; when it ends, the lane looks for the next. */
  function begin(lane: Lane, job: Claimed) {
    started++;
    if (job.owner !== undefined) runningOf.set(job.owner, (runningOf.get(job.owner) ?? 0) + 1);
    const running: Promise<void> = run(job)
      .catch((error) => options.logger.error({ err: error }, 'job worker'))
      .finally(() => {
        lane.running.delete(running);
        if (job.owner !== undefined) {
          const left = (runningOf.get(job.owner) ?? 1) - 1;
          if (left > 0) runningOf.set(job.owner, left);
          else runningOf.delete(job.owner);
        }
        wake(lane);
      });
    lane.running.add(running);
  }

  /** A lane's turn: claims and starts jobs while it has a free slot and a job is due. */
  async function fill(lane: Lane) {
    do {
      lane.wokenDuringTurn = false;
      if (lane === main && options.schedules && !stopped) await startDueSchedules();
      while (lane.running.size < lane.slots) {
        const job = lane === main ? await claimNext(main.names) : await claimLong();
        if (!job) break;
        begin(lane, job);
      }
    } while (lane.wokenDuringTurn);
  }

  /** One turn of a lane at a time; a wake during it makes the turn look again. */
  function turn(lane: Lane, force = false) {
    if (stopped && !force) return;
    if (lane.turn) {
      lane.wokenDuringTurn = true;
      return;
    }
    lane.turn = fill(lane)
      .catch((error) => options.logger.error({ err: error }, 'job worker'))
      .finally(() => {
        lane.turn = undefined;
      });
  }

  function wake(lane?: Lane) {
    for (const each of lane ? [lane] : lanes) turn(each);
  }

  /** Until no lane takes a turn or runs a job. */
  async function settled() {
    for (;;) {
      const busy = lanes.flatMap((lane) => [...(lane.turn ? [lane.turn] : []), ...lane.running]);
      if (busy.length === 0) return;
      await Promise.all(busy);
    }
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
      setImmediate(() => wake(runnable.long ? long : main));
    },

    async drain() {
      // Each lane takes its turns as ever (the first one job at a time, in order); a drain only
      // gives them turns, even before start, until a round starts nothing.
      for (;;) {
        await settled();
        const before = started;
        for (const lane of lanes) turn(lane, true);
        await settled();
        if (started === before) return;
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
      timer = setInterval(() => wake(), options.pollMs);
      timer.unref();
      wake();
    },

    async stop() {
      stopped = true;
      base.halt();
      clearInterval(timer);
      await settled();
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
      setImmediate(() => wake());
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
