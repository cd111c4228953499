/**
 * The durable job interface (services.jobs) on this database: a job exists if and only if
 * its transaction commits, failing handlers are retried with backoff up to their limit and
 * then kept as failed, a unique key holds under concurrency, schedules run once per period.
 * The handlers here are the test's own, on a second queue over the app's database.
 */
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defineJob, defineSchedule } from '../../server/core/jobs.js';
import { capabilities } from '../../server/capabilities.js';
import { createJobs } from '../../server/jobs/create.js';
import { registryOf } from '../../server/jobs/housekeeping.js';
import { queueBase } from '../../server/jobs/registry.js';
import type { Queue } from '../../server/jobs/registry.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let queue: Queue;
const runs: { job: string; payload: any; attempt: number }[] = [];
const runsOf = (job: string) => runs.filter((r) => r.job === job);

const record = defineJob<{ n: number }>({
  name: 'test.record',
  async handler(payload, ctx) {
    runs.push({ job: 'test.record', payload, attempt: ctx.attempt });
  },
});
const flaky = defineJob<{ failures: number }>({
  name: 'test.flaky',
  retryDelaySeconds: 60,
  async handler(payload, ctx) {
    runs.push({ job: 'test.flaky', payload, attempt: ctx.attempt });
    if (ctx.attempt <= payload.failures) throw new Error(`flaky failure ${ctx.attempt}`);
  },
});
const broken = defineJob<{ code: string; to: string }>({
  name: 'test.broken',
  retryLimit: 2,
  retryDelaySeconds: 60,
  async handler(payload, ctx) {
    runs.push({ job: 'test.broken', payload, attempt: ctx.attempt });
    throw new Error('the far end said no');
  },
});
const hourly = defineSchedule({
  name: 'test.hourly',
  cron: '0 * * * *',
  async handler(ctx) {
    runs.push({ job: 'test.hourly', payload: null, attempt: ctx.attempt });
  },
});
const slow = defineJob<{ n: number }>({
  name: 'test.slow',
  async handler(payload) {
    runs.push({ job: 'test.slow', payload: { ...payload, at: 'start' }, attempt: 1 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    runs.push({ job: 'test.slow', payload: { ...payload, at: 'end' }, attempt: 1 });
  },
});
const registry = { jobs: [record, flaky, broken, slow], schedules: [hourly] };
const noLogs = { error() {} };

beforeAll(async () => {
  t = await startTestApp();
  queue = await createJobs(t.services.database, registry, { ...t.config, jobSchedules: false }, noLogs);
  await queue.start(t.services);
});
afterAll(async () => {
  await queue.stop();
  await t.close();
});
afterEach(() => t.resetClock());

/** Lets time pass and runs what is then due. */
async function later(minutes: number) {
  await t.moveClock(minutes * 60_000);
  await queue.drain();
}

describe('enqueue in a transaction', () => {
  it('When the transaction rolls back, then the job never runs; when it commits, the job runs once', async () => {
    const { db } = t.services;
    await expect(
      db.transaction().execute(async (trx) => {
        await queue.enqueue(trx, record, { n: 1 });
        throw new Error('the change is refused');
      }),
    ).rejects.toThrow('the change is refused');
    await db.transaction().execute(async (trx) => {
      await queue.enqueue(trx, record, { n: 2 });
    });
    await queue.drain();
    await later(60);
    expect(runsOf('test.record').map((r) => r.payload.n)).toEqual([2]);
  });

  it('When a job is enqueued to start later, then it waits until then', async () => {
    await queue.enqueue(t.services.db, record, { n: 3 }, { startAfter: new Date(Date.now() + 3_600_000) });
    await queue.drain();
    expect(runsOf('test.record').map((r) => r.payload.n)).not.toContain(3);
    await later(61);
    expect(runsOf('test.record').filter((r) => r.payload.n === 3)).toHaveLength(1);
  });
});

describe('one at a time', () => {
  it('When jobs woke the worker and a drain runs them too, then they still run one after another, in the order they were queued', async () => {
    // Enqueued back to back: the worker's wakes are still pending when the drain begins.
    for (const n of [1, 2, 3]) await queue.enqueue(t.services.db, slow, { n });
    await queue.drain();
    expect(runsOf('test.slow').map((r) => `${r.payload.at} ${r.payload.n}`)).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });
});

// PostgreSQL only (defined on its run alone): on SQLite the one process that owns the file starts the queue again.
if (process.env.DATABASE_URL)
  describe('a process that dies while it runs a job', () => {
    it('When the process running a job is killed with SIGKILL, then another instance runs it again at once (not after its five-minute expiry); while that process lives, nobody takes it', async () => {
      const hang = defineJob<{ n: number }>({
        name: 'test.hang',
        async handler(payload, ctx) {
          runs.push({ job: 'test.hang', payload, attempt: ctx.attempt });
        },
      });
      const config = { ...t.config, jobSchedules: false };
      const here = await createJobs(t.services.database, { jobs: [hang], schedules: [] }, config, noLogs);
      await here.enqueue(t.services.db, hang, { n: 1 });
      const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/job-runner-process.ts'], { env: { ...process.env, DATABASE_URL: t.config.databaseUrl! }, stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        await new Promise<void>((resolve, reject) => {
          child.stdout!.on('data', (chunk) => {
            output += chunk;
            if (output.includes('running 1')) resolve();
          });
          child.once('exit', (code) => reject(new Error(`the runner exited (${code}): ${output}`)));
        });
        const [job] = (await here.list({ name: 'test.hang', page: 1, pageSize: 10 })).list;
        expect(job).toMatchObject({ state: 'active', attempts: 1 });

        // Alive: an instance starting now (it looks for jobs of dead runners as it starts) leaves it.
        await here.start(t.services);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(await here.get(job.id)).toMatchObject({ state: 'active', attempts: 1 });
        expect(runsOf('test.hang')).toEqual([]);

        child.kill('SIGKILL');
        await exited;
        await here.drain();
        expect(runsOf('test.hang').map((r) => r.attempt)).toEqual([2]);
        expect(await here.get(job.id)).toMatchObject({ state: 'done', attempts: 2 });
        await here.drain();
        expect(runsOf('test.hang')).toHaveLength(1);
      } finally {
        child.kill('SIGKILL');
        await here.stop();
      }
    }, 60_000);
  });

if (process.env.DATABASE_URL)
  describe('a runner whose connection to the database is lost', () => {
    it('When the connection holding a runner lock is cut while it runs a job, then it takes the lock again, and an instance starting after does not run that job a second time', async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const long = defineJob<{ n: number }>({
        name: 'test.held',
        async handler(payload, ctx) {
          runs.push({ job: 'test.held', payload, attempt: ctx.attempt });
          await released;
        },
      });
      const config = { ...t.config, jobSchedules: false };
      const here = await createJobs(t.services.database, { jobs: [long], schedules: [] }, config, noLogs);
      const other = await createJobs(t.services.database, { jobs: [long], schedules: [] }, config, noLogs);
      try {
        await here.start(t.services);
        await here.enqueue(t.services.db, long, { n: 1 });
        // Wakes the worker; it ends once the job has.
        const draining = here.drain();
        const runnerOf = async () =>
          (await sql<{ runner: string | null }>`select output->>'runner' as runner from pgboss.job where name = 'test.held'`.execute(t.services.db)).rows[0]?.runner;
        const deadline = Date.now() + 20_000;
        while (!(await runnerOf()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        const key = Number(await runnerOf());
        const lockHolder = async () =>
          (await sql<{ pid: number }>`select pid from pg_locks where locktype = 'advisory' and classid = ${0x4d44} and objid::bigint = ${key} and objsubid = 2 and granted`.execute(t.services.db)).rows[0]?.pid;
        const cut = await lockHolder();
        expect(cut).toBeGreaterThan(0);
        await sql`select pg_terminate_backend(${cut})`.execute(t.services.db);
        while (((await lockHolder()) ?? cut) === cut && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await lockHolder()).not.toBe(cut);

        await other.start(t.services);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(runsOf('test.held')).toHaveLength(1);
        release();
        await draining;
        expect((await here.list({ name: 'test.held', page: 1, pageSize: 10 })).list.map((job) => [job.state, job.attempts])).toEqual([['done', 1]]);
        expect(runsOf('test.held')).toHaveLength(1);
      } finally {
        release();
        await Promise.all([here.stop(), other.stop()]);
      }
    }, 60_000);
  });

describe('start-up order', () => {
  it('When jobs are enqueued before their queue has started (the app answers before its workers begin), then they wait and run once it starts', async () => {
    const early = defineJob<{ n: number }>({
      name: 'test.early',
      async handler(payload, ctx) {
        runs.push({ job: 'test.early', payload, attempt: ctx.attempt });
      },
    });
    const config = { ...t.config, jobSchedules: false };
    // The first queue for these names makes what enqueueing needs; the second finds it there.
    const first = await createJobs(t.services.database, { jobs: [early], schedules: [] }, config, noLogs);
    await first.enqueue(t.services.db, early, { n: 1 });
    const second = await createJobs(t.services.database, { jobs: [early], schedules: [] }, config, noLogs);
    await second.enqueue(t.services.db, early, { n: 2 });
    try {
      await second.start(t.services);
      await second.drain();
      expect(runsOf('test.early').map((r) => r.payload.n)).toEqual([1, 2]);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});

describe('retries', () => {
  it('When a handler fails twice and then succeeds, then it is retried after growing waits and ends done', async () => {
    await queue.enqueue(t.services.db, flaky, { failures: 2 });
    await queue.drain();
    expect(runsOf('test.flaky').map((r) => r.attempt)).toEqual([1]);
    const [waiting] = (await queue.list({ name: 'test.flaky', page: 1, pageSize: 10 })).list;
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1, last_error: 'flaky failure 1' });
    // The first retry waits at least its delay (60 s), the second at least twice that.
    expect(Date.parse(waiting.run_at) - Date.now()).toBeGreaterThan(55_000);
    await queue.drain();
    expect(runsOf('test.flaky')).toHaveLength(1);

    await later(3);
    expect(runsOf('test.flaky').map((r) => r.attempt)).toEqual([1, 2]);
    const second = await queue.get(waiting.id);
    expect(second).toMatchObject({ state: 'queued', attempts: 2, last_error: 'flaky failure 2' });
    expect(Date.parse(second!.run_at) - Date.now()).toBeGreaterThan(115_000);
    await later(1);
    expect(runsOf('test.flaky')).toHaveLength(2);
    await later(5);
    expect(runsOf('test.flaky').map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(await queue.get(waiting.id)).toMatchObject({ state: 'done', attempts: 3 });
    await later(60);
    expect(runsOf('test.flaky')).toHaveLength(3);
  });

  it('When a job fails past its maximum, then it is kept as failed with its error and secrets masked; retry runs it again, discard removes it', async () => {
    await queue.enqueue(t.services.db, broken, { code: '123456', to: 'someone@example.com' });
    await queue.drain();
    await later(3);
    await later(5);
    await later(60);
    expect(runsOf('test.broken').map((r) => r.attempt)).toEqual([1, 2, 3]);
    const { list, total } = await queue.list({ name: 'test.broken', state: 'failed', page: 1, pageSize: 10 });
    expect(total).toBe(1);
    expect(list[0]).toMatchObject({ name: 'test.broken', state: 'failed', attempts: 3, max_attempts: 3, last_error: 'the far end said no' });
    expect(list[0].payload).toEqual({ code: '••••••', to: 'someone@example.com' });
    expect(JSON.stringify(await queue.get(list[0].id))).not.toContain('123456');
    expect(await queue.counts()).toContainEqual({ name: 'test.broken', queued: 0, active: 0, failed: 1, done_1d: 0 });

    // Retry: one more try, now (it fails again, and is kept failed).
    expect(await queue.retry(list[0].id)).toBe(true);
    await queue.drain();
    expect(runsOf('test.broken').map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    // The handler still gets its real payload.
    expect(runsOf('test.broken').at(-1)!.payload.code).toBe('123456');
    expect(await queue.get(list[0].id)).toMatchObject({ state: 'failed', attempts: 4, max_attempts: 4, last_error: 'the far end said no' });

    expect(await queue.discard(list[0].id)).toBe(true);
    expect(await queue.get(list[0].id)).toBeUndefined();
    await later(60);
    expect(runsOf('test.broken')).toHaveLength(4);
  });
});

describe('unique keys', () => {
  it('When the same unique key is enqueued many times at once, then one job exists and runs once', async () => {
    const { db } = t.services;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => db.transaction().execute((trx) => queue.enqueue(trx, record, { n: 100 + i }, { uniqueKey: 'order-42' }))),
    );
    await queue.drain();
    expect(runsOf('test.record').filter((r) => r.payload.n >= 100)).toHaveLength(1);
    // Done, but still kept: the key still holds.
    await queue.enqueue(db, record, { n: 200 }, { uniqueKey: 'order-42' });
    await queue.drain();
    expect(runsOf('test.record').filter((r) => r.payload.n >= 100)).toHaveLength(1);
    // Another key is another job.
    await queue.enqueue(db, record, { n: 300 }, { uniqueKey: 'order-43' });
    await queue.drain();
    expect(runsOf('test.record').filter((r) => r.payload.n >= 100)).toHaveLength(2);
  });
});

describe('schedules', () => {
  it('When a scheduled task is run by hand, then its handler runs', async () => {
    const before = runsOf('test.hourly').length;
    await queue.runSchedule('test.hourly');
    expect(runsOf('test.hourly')).toHaveLength(before + 1);
    await expect(queue.runSchedule('no.such')).rejects.toThrow();
  });

  // On PostgreSQL, pg-boss's cron keeps the database's time, which tests cannot move: the
  // same guarantee is proven there by two processes in tests/services/jobs-two-instances.test.ts.
  const embedded = !process.env.DATABASE_URL;
  if (embedded) it('When two workers with schedules share the database, then each period runs once (embedded queue)', async () => {
    const config = { ...t.config, jobSchedules: true, jobPollMs: 20 };
    const workers = [await createJobs(t.services.database, registry, config, noLogs), await createJobs(t.services.database, registry, config, noLogs)];
    try {
      const before = runsOf('test.hourly').length;
      await Promise.all(workers.map((w) => w.start(t.services)));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await Promise.all(workers.map((w) => w.drain()));
      expect(runsOf('test.hourly')).toHaveLength(before + 1);
      await t.moveClock(3_600_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await Promise.all(workers.map((w) => w.drain()));
      expect(runsOf('test.hourly')).toHaveLength(before + 2);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  });

  // pg-boss's cron may deliver one period twice (its minute guard is the database's minute at
  // delivery, while the period is judged by the instance's estimate of that clock).
  if (process.env.DATABASE_URL) it('When pg-boss delivers one period of a schedule twice, then it runs once; a delivery in the next period runs again', async () => {
    const boss = new PgBoss({ connectionString: t.config.databaseUrl!, supervise: false, schedule: false, migrate: false });
    await boss.start();
    const deliveredAt = async (offset: string) => {
      const id = await boss.send('test.hourly', {});
      await sql`update pgboss.job set created_on = date_trunc('hour', now()) + ${offset}::interval where name = 'test.hourly' and id = ${id}::uuid`.execute(t.services.db);
    };
    try {
      const before = runsOf('test.hourly').length;
      await deliveredAt('5 minutes');
      await deliveredAt('35 minutes');
      await queue.drain();
      expect(runsOf('test.hourly')).toHaveLength(before + 1);
      await deliveredAt('1 hour 5 minutes');
      await queue.drain();
      expect(runsOf('test.hourly')).toHaveLength(before + 2);
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  });
});

describe('outgoing mail', () => {
  it('When a message is queued in a transaction that rolls back, then neither it nor its send log entry exists', async () => {
    const { db, mailer } = t.services;
    const to = 'rolled-back@example.com';
    await expect(
      db.transaction().execute(async (trx) => {
        await mailer.send(trx, { key: 'account_exists', locale: 'en', to, params: {} });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await t.outbox()).filter((m) => m.to === to)).toEqual([]);
    expect(await db.selectFrom('email_send_log').select('id').where('recipient', '=', to).execute()).toEqual([]);
  });
});

describe('the lane of long jobs', () => {
  it('When the length of a job grows with what a customer keeps (mail, mailboxes, files, domains), then it runs in the long lane, never in front of the mail people wait for', () => {
    const { longNames, shortNames } = queueBase(registryOf(capabilities));
    for (const name of ['mail_copy.run', 'imports.run', 'mailbox.purge', 'files.move_from_disk']) expect(longNames, name).toContain(name);
    // And the mail people wait for is not behind them.
    expect(shortNames).toContain('mail.send');
  });

  /** Long jobs that run until the test lets them end. */
  const gates = new Map<string, () => void>();
  const runningNow = new Set<string>();
  const long = defineJob<{ id: string; owner: string }>({
    name: 'test.lane.long',
    lane: 'long',
    ownerOf: ({ owner }) => owner,
    async handler({ id }) {
      runningNow.add(id);
      await new Promise<void>((resolve) => gates.set(id, resolve));
      runningNow.delete(id);
    },
  });
  const quick = defineJob<{ n: number }>({
    name: 'test.lane.quick',
    async handler(payload) {
      runs.push({ job: 'test.lane.quick', payload, attempt: 1 });
    },
  });
  const until = async (what: string, check: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('When long jobs fill their lane, then other jobs still run at once; an owner runs at most its share (2 of 3 workers) and another owner\'s job takes the free worker', async () => {
    // Workers poll often here: on PostgreSQL nothing else wakes them.
    const lanes = await createJobs(t.services.database, { jobs: [long, quick], schedules: [] }, { ...t.config, jobSchedules: false, jobPollMs: 100, longJobs: { workers: 3, perGroup: 2 } }, noLogs);
    await lanes.start(t.services);
    try {
      for (const id of ['a1', 'a2', 'a3', 'a4']) await lanes.enqueue(t.services.db, long, { id, owner: 'A' });
      await until('two of A', () => runningNow.size === 2);
      // A's share is 2: a3 waits though a worker is free.
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect([...runningNow].sort()).toEqual(['a1', 'a2']);

      // B's job, queued after all of A's, takes the free worker.
      await lanes.enqueue(t.services.db, long, { id: 'b1', owner: 'B' });
      await until('b1', () => runningNow.has('b1'));
      // Three workers: C's waits (one past), and a quick job runs beside them all.
      await lanes.enqueue(t.services.db, long, { id: 'c1', owner: 'C' });
      const before = Date.now();
      await lanes.enqueue(t.services.db, quick, { n: 1 });
      await until('the quick job', () => runsOf('test.lane.quick').length === 1);
      expect(Date.now() - before).toBeLessThan(2000);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect([...runningNow].sort()).toEqual(['a1', 'a2', 'b1']);

      // A worker comes free: C's job (nobody of C's running) goes before A's older ones.
      gates.get('a1')!();
      await until('c1', () => runningNow.has('c1'));
      expect([...runningNow].sort()).toEqual(['a2', 'b1', 'c1']);
      gates.get('b1')!();
      await until('a3', () => runningNow.has('a3'));
      for (const id of ['a2', 'c1', 'a3']) gates.get(id)!();
      await until('a4', () => runningNow.has('a4'));
      gates.get('a4')!();
      await until('the end', () => runningNow.size === 0);
    } finally {
      for (const open of gates.values()) open();
      await lanes.stop();
    }
  });

  if (!process.env.DATABASE_URL) it('When a long schedule runs (the DNS watch: minutes of lookups), then other jobs still run beside it (embedded queue)', async () => {
    let release: () => void = () => undefined;
    let watching = false;
    const watch = defineSchedule({
      name: 'test.lane.watch',
      cron: '* * * * *',
      lane: 'long',
      async handler() {
        watching = true;
        await new Promise<void>((resolve) => (release = resolve));
        watching = false;
      },
    });
    const lanes = await createJobs(t.services.database, { jobs: [quick], schedules: [watch] }, { ...t.config, jobSchedules: true, jobPollMs: 100, longJobs: { workers: 1, perGroup: 1 } }, noLogs);
    await lanes.start(t.services);
    try {
      await until('the schedule running', () => watching);
      await lanes.enqueue(t.services.db, quick, { n: 2 });
      await until('the quick job beside it', () => runsOf('test.lane.quick').some((r) => r.payload.n === 2), 2000);
      expect(watching).toBe(true);
    } finally {
      release();
      await lanes.stop();
    }
  });
});
