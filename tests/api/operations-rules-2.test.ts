/**
 * /metrics, /health and /ready, and the move of attachments an earlier release left on disk, at
 * each of their rules (found by reading server/operations/metrics.ts, health-routes.ts and
 * move-files.ts for what Stryker would change): who may scrape (the token in each form, a listed
 * address), what each figure counts and where it stops, what /ready says for each state of the
 * database, and which files are moved, when, and how often. On PostgreSQL too when DATABASE_URL is set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../../server/capabilities.js';
import { daysAgo, now } from '../../server/core/time.js';
import { registryOf } from '../../server/jobs/housekeeping.js';
import { queueBase } from '../../server/jobs/registry.js';
import { moveFilesFromDisk, moveFilesJob, moveFilesLeftOnDisk } from '../../server/operations/move-files.js';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { sample } from '../helpers/metrics.js';

const postgresServer = process.env.DATABASE_URL;
const METRICS_TOKEN = 'metrics-rules-token-3c2b1a';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-operations-rules-2-'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN, METRICS_ALLOW: '10.9.8.7, 10.9.8.8' });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${METRICS_TOKEN}` }, remoteAddress = '127.0.0.1', app = t) => app.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
const figures = async (app = t) => {
  const answer = await scrape(undefined, undefined, app);
  expect(answer.statusCode).toBe(200);
  return answer.body;
};

/** Every sample line of one metric. */
const linesOf = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

describe('/metrics: who may read it', () => {
  it('When the token comes in the Authorization header, then only "Bearer <token>" (any case, spaces around) is taken; anything before, after or instead of it is refused with 401', async () => {
    const status = async (authorization: string) => (await scrape({ authorization })).statusCode;
    for (const taken of [`Bearer ${METRICS_TOKEN}`, `BEARER ${METRICS_TOKEN}`, ` \tbearer \t ${METRICS_TOKEN}\t `]) expect(await status(taken), taken).toBe(200);
    for (const refused of [
      `Bearer ${METRICS_TOKEN} extra`,
      `NotBearer ${METRICS_TOKEN}`,
      `Basic ${METRICS_TOKEN}`,
      `Bearer${METRICS_TOKEN}`,
      'Bearer ',
      `Bearer ${METRICS_TOKEN.slice(0, -1)}x`,
      `Bearer ${METRICS_TOKEN.slice(0, -1)}`,
      METRICS_TOKEN,
    ]) {
      expect(await status(refused), refused).toBe(401);
    }
  });

  it('When a scrape is refused, then it answers 401 with a bearer challenge and a plain-text "Unauthorized"', async () => {
    const refused = await scrape({});
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.body).toBe('Unauthorized\n');
  });

  it('When METRICS_ALLOW lists addresses, then each of them may read without a token, even with a wrong one; other addresses may not', async () => {
    for (const address of ['10.9.8.7', '10.9.8.8']) {
      expect((await scrape({}, address)).statusCode, address).toBe(200);
      expect((await scrape({ authorization: 'Bearer wrong' }, address)).statusCode, address).toBe(200);
    }
    expect((await scrape({}, '10.9.8.9')).statusCode).toBe(401);
  });
});

describe('/metrics: what it counts', () => {
  it('When a URL matches no route, then it is counted once as the call "unmatched"; a call is counted by its pattern, method and status, with its time in seconds in the buckets', async () => {
    const before = await figures();
    const unmatchedBefore = sample(before, 'maildesk_http_requests_total', { call: 'unmatched', method: 'GET', status: '404' }) ?? 0;
    const healthBefore = sample(before, 'maildesk_http_request_duration_seconds_count', { call: '/health', method: 'GET', status: '200' }) ?? 0;
    const sumBefore = sample(before, 'maildesk_http_request_duration_seconds_sum', { call: '/health', method: 'GET', status: '200' }) ?? 0;
    expect((await t.app.inject({ method: 'GET', url: '/no/such/page?x=1' })).statusCode).toBe(404);
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/health' });

    const text = await figures();
    expect(sample(text, 'maildesk_http_requests_total', { call: 'unmatched', method: 'GET', status: '404' })).toBe(unmatchedBefore + 1);
    expect(text).not.toContain('/no/such/page');
    expect(sample(text, 'maildesk_http_requests_total', { call: '/health', method: 'GET', status: '200' })).toBe(healthBefore + 3);
    // Seconds: three quick answers take well under a second together (milliseconds would be thousands).
    const sum = sample(text, 'maildesk_http_request_duration_seconds_sum', { call: '/health', method: 'GET', status: '200' })! - sumBefore;
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(3);
    const buckets = linesOf(text, 'maildesk_http_request_duration_seconds_bucket')
      .filter((l) => l.includes('call="/health"') && l.includes('status="200"'))
      .map((l) => /le="([^"]+)"/.exec(l)![1]);
    expect(buckets).toEqual(['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '+Inf']);
    expect(sample(text, 'maildesk_http_request_duration_seconds_bucket', { call: '/health', status: '200', le: '5' })).toBe(healthBefore + 3);
    // The counter is the histogram's count, not its buckets or its sum.
    expect(linesOf(text, 'maildesk_http_requests_total').filter((l) => l.includes('call="/health"'))).toEqual([`maildesk_http_requests_total{call="/health",method="GET",status="200"} ${healthBefore + 3}`]);
  });

  it('When sign-ins are refused in each area (a wrong password, a malformed one answered 400, a wrong code), then each counts once for its area; a sign-in that works, or a call beside them that fails, does not', async () => {
    const failures = async () => {
      const text = await figures();
      return Object.fromEntries(['admin', 'manage', 'mail'].map((area) => [area, sample(text, 'maildesk_sign_in_failures_total', { area }) ?? 0]));
    };
    const before = await failures();
    const malformed = await t.post('/api/manage/login/login', { username: ROOT.username });
    expect(malformed.status).toBe(400);
    expect(await failures()).toEqual({ ...before, manage: before.manage + 1 });

    expect((await t.post('/api/admin/login/login', { email: 'nobody@example.com', password: 'wrong-password-1' })).status).toBeGreaterThanOrEqual(400);
    expect((await t.post('/api/mail/login/login', { email: 'nobody@example.com', password: 'wrong-password-1' })).status).toBeGreaterThanOrEqual(400);
    expect((await t.post('/api/admin/login/login_by_verify_code', { email: 'nobody@example.com', code: '000000' })).status).toBeGreaterThanOrEqual(400);
    expect((await t.post('/api/manage/login/second_factor', { token: 'no-such-pending-sign-in', code: '000000' })).status).toBeGreaterThanOrEqual(400);
    expect(await failures()).toEqual({ admin: before.admin + 2, manage: before.manage + 2, mail: before.mail + 1 });

    expect((await t.post('/api/manage/login/login', ROOT)).status).toBe(200);
    const beside = await t.post('/api/manage/login/passkey_options', { token: 'no-such-pending-sign-in' });
    expect(beside.status).toBeGreaterThanOrEqual(400);
    expect(await failures()).toEqual({ admin: before.admin + 2, manage: before.manage + 2, mail: before.mail + 1 });
  });

  it('When jobs are queued, then each job name has its queued, active and failed figures, and the oldest waiting one\'s wait in seconds', async () => {
    await t.post('/api/admin/login/register', { email: 'metrics-waiting@example.com', password: 'customer-pass-1' });
    await t.moveClock(120_000);
    try {
      const text = await figures();
      expect(linesOf(text, 'maildesk_jobs').filter((l) => l.includes('name="mail.send"'))).toEqual([
        expect.stringMatching(/^maildesk_jobs\{name="mail.send",state="queued"\} [1-9]\d*$/),
        'maildesk_jobs{name="mail.send",state="active"} 0',
        'maildesk_jobs{name="mail.send",state="failed"} 0',
      ]);
      expect(sample(text, 'maildesk_jobs_oldest_waiting_seconds')).toBeGreaterThanOrEqual(119);
    } finally {
      t.resetClock();
    }
    await t.services.jobs.drain();
    expect(sample(await figures(), 'maildesk_jobs_oldest_waiting_seconds')).toBe(0);
  });

  it('When the send log has messages of the last day and older, then the figures count the last 24 hours\' by status: sent, failed and pending', async () => {
    const count = async () => {
      const text = await figures();
      return Object.fromEntries(['sent', 'failed', 'pending'].map((status) => [status, sample(text, 'maildesk_mail_messages_last_day', { status })]));
    };
    const before = await count();
    for (const status of ['sent', 'failed', 'pending']) expect(before[status], status).toEqual(expect.any(Number));
    const row = (status: 'sent' | 'failed' | 'pending', created_at: string) => ({ template_key: 'metrics', locale: 'en', recipient: 'figures@example.com', subject: 'Figures', status, transport: 'outbox' as const, created_at });
    await t.services.db
      .insertInto('email_send_log')
      .values([row('sent', now()), row('sent', now()), row('failed', now()), row('pending', now()), row('pending', now()), row('pending', now()), row('sent', daysAgo(2)), row('failed', daysAgo(2))])
      .execute();
    expect(await count()).toEqual({ sent: before.sent! + 2, failed: before.failed! + 1, pending: before.pending! + 3 });
  });

  it('When the database\'s connections are read, then SQLite shows its two, always open; PostgreSQL its pool in use, idle, waiting and at most', async () => {
    const text = await figures();
    if (t.dialect === 'sqlite') {
      expect(linesOf(text, 'maildesk_db_pool_connections')).toEqual(['maildesk_db_pool_connections{state="max"} 2']);
    } else {
      expect(linesOf(text, 'maildesk_db_pool_connections').map((l) => l.replace(/ \d+$/, ''))).toEqual([
        'maildesk_db_pool_connections{state="in_use"}',
        'maildesk_db_pool_connections{state="idle"}',
        'maildesk_db_pool_connections{state="waiting"}',
        'maildesk_db_pool_connections{state="max"}',
      ]);
      expect(sample(text, 'maildesk_db_pool_connections', { state: 'max' })).toBe(10);
      const open = sample(text, 'maildesk_db_pool_connections', { state: 'in_use' })! + sample(text, 'maildesk_db_pool_connections', { state: 'idle' })!;
      expect(open).toBeGreaterThan(0);
      expect(open).toBeLessThanOrEqual(10);
    }
  });
});

describe('/ready', () => {
  const ready = async (app = t) => {
    const answer = await app.app.inject({ method: 'GET', url: '/ready' });
    expect(answer.headers['cache-control']).toBe('no-store');
    return { http: answer.statusCode, ...answer.json() };
  };
  const migrations = 'kysely_migration' as never;

  it('When two migrations of this code have not run, then it is not ready and names both; with two of a newer release, it is ready and names both', async () => {
    const last = (await t.services.db.selectFrom(migrations).selectAll().orderBy('name' as never, 'desc').limit(2).execute()) as { name: string; timestamp: string }[];
    await t.services.db.deleteFrom(migrations).where('name' as never, 'in', last.map((m) => m.name) as never).execute();
    try {
      expect(await ready()).toEqual({ http: 503, status: 'not_ready', database: 'ok', migrations: `pending: ${last[1].name}, ${last[0].name}` });
    } finally {
      await t.services.db.insertInto(migrations).values(last as never).execute();
    }
    const future = ['0998_from_the_future', '0999_from_further_on'];
    for (const name of future) await t.services.db.insertInto(migrations).values({ name, timestamp: new Date().toISOString() } as never).execute();
    try {
      expect(await ready()).toEqual({ http: 200, status: 'ready', database: 'ok', migrations: 'newer than this code: 0998_from_the_future, 0999_from_further_on' });
    } finally {
      await t.services.db.deleteFrom(migrations).where('name' as never, 'in', future as never).execute();
    }
    expect(await ready()).toEqual({ http: 200, status: 'ready', database: 'ok', migrations: 'current' });
  });

  it('When the database is closed under it, then it is not ready: unreachable, with why, and its migrations unknown', async () => {
    const app = await startTestApp();
    try {
      await app.services.database.close();
      expect(await ready(app)).toEqual({ http: 503, status: 'not_ready', database: 'unreachable: driver has already been destroyed', migrations: 'unknown' });
    } finally {
      await app.close().catch(() => undefined);
    }
  });

  if (postgresServer) {
    it('When every connection of the pool is taken for longer than 2 seconds, then it is not ready: no answer within 2000 ms', async () => {
      const app = await startTestApp();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const held = Array.from({ length: 10 }, () => app.services.db.connection().execute(async (c) => {
        await sql`select 1`.execute(c);
        await gate;
      }));
      try {
        const started = Date.now();
        expect(await ready(app)).toEqual({ http: 503, status: 'not_ready', database: 'unreachable: no answer within 2000 ms', migrations: 'unknown' });
        expect(Date.now() - started).toBeLessThan(4000);
      } finally {
        release();
        await Promise.all(held);
        await app.close();
      }
    }, 20_000);

    it('When the migrations table is locked for longer than 2 seconds, then the database answers but the migrations are unknown, and it is not ready', async () => {
      const locker = new pg.Client({ connectionString: t.config.databaseUrl });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE kysely_migration IN ACCESS EXCLUSIVE MODE');
        expect(await ready()).toEqual({ http: 503, status: 'not_ready', database: 'ok', migrations: 'unknown' });
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
      }
    }, 20_000);
  }
});

describe('attachments left on disk by an earlier release', () => {
  const stored = ['0123456789abcdef0123456789abcdef', 'fedcba9876543210fedcba9876543210'];
  const others = ['notes.txt', '0123456789abcdef0123456789abcde', '0123456789ABCDEF0123456789ABCDEF'];
  /** An attachment directory as an earlier release left it: two stored files, files that are not its, and a directory with a stored file's name. */
  function leftOnDisk() {
    const dir = fs.mkdtempSync(path.join(work, 'attachments-'));
    for (const name of [...stored, ...others]) fs.writeFileSync(path.join(dir, name), `bytes of ${name}`);
    fs.mkdirSync(path.join(dir, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'));
    return dir;
  }
  const queued = async (app: TestApp) => sample(await figures(app), 'maildesk_jobs', { name: 'files.move_from_disk', state: 'queued' }) ?? 0;

  it('When the panel starts with attachments on disk, then one job (one an hour, however many starts) moves exactly the stored ones into the file store, deletes them from disk, and logs how many', async () => {
    const dir = leftOnDisk();
    const lines: string[] = [];
    const app = await startTestApp({ ATTACHMENT_DIR: dir, METRICS_TOKEN }, process.env.DATABASE_URL, { logger: { level: 'info', stream: { write: (line) => void lines.push(line) } } });
    try {
      // The job in any state: the app's own worker may have taken it already (PostgreSQL's in CI did).
      const movesMade = async () => {
        const [jobs] = (await app.services.jobs.counts()).filter((c) => c.name === 'files.move_from_disk');
        return { jobs, total: Object.entries(jobs ?? {}).filter(([key]) => key !== 'name').reduce((sum, [, value]) => sum + Number(value), 0) };
      };
      expect((await movesMade()).total).toBe(1);
      // Another instance starting within the hour: no second job, whether the first has run yet or not.
      await moveFilesLeftOnDisk(app.services);
      await app.services.jobs.drain();
      await moveFilesLeftOnDisk(app.services);
      await app.services.jobs.drain();
      const { jobs, total } = await movesMade();
      expect(jobs).toMatchObject({ queued: 0, active: 0, failed: 0 });
      expect(total).toBe(1);
      expect(fs.readdirSync(dir).sort()).toEqual([...others, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'].sort());
      for (const name of stored) expect((await app.services.files.get(name))?.toString(), name).toBe(`bytes of ${name}`);
      for (const name of [...others, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']) expect(await app.services.files.has(name), name).toBe(false);
      const moved = () => lines.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line)).filter((e) => e.msg === 'files moved into the file store');
      expect(moved()).toEqual([expect.objectContaining({ moved: 2, from: dir, to: 'database' })]);

      // Nothing left to move: the job moves none and says nothing; a start queues none.
      expect(await moveFilesFromDisk(app.services)).toBe(0);
      await moveFilesJob.handler({}, { services: app.services } as never);
      expect(moved()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('When there is no attachment directory, or it holds none of the stored files, then a start queues no job; when ATTACHMENT_DIR is not a directory, that is an error', async () => {
    const services = (attachmentDir: string) => ({ ...t.services, config: { ...t.services.config, attachmentDir } });
    const before = await queued(t);
    await moveFilesLeftOnDisk(services(path.join(work, 'never-made')));
    const notStored = fs.mkdtempSync(path.join(work, 'not-stored-'));
    fs.writeFileSync(path.join(notStored, 'notes.txt'), 'x');
    await moveFilesLeftOnDisk(services(notStored));
    expect(await queued(t)).toBe(before);
    expect(await moveFilesFromDisk(services(notStored))).toBe(0);
    expect(fs.readdirSync(notStored)).toEqual(['notes.txt']);

    const file = path.join(work, 'a-file');
    fs.writeFileSync(file, 'not a directory');
    await expect(moveFilesLeftOnDisk(services(file))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('When the job is registered, then it runs in the lane of long jobs', () => {
    expect(queueBase(registryOf(capabilities)).longNames).toContain('files.move_from_disk');
  });
});
