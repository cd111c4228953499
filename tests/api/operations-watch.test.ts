/**
 * Watching the panel: /metrics (Prometheus text behind METRICS_TOKEN or METRICS_ALLOW, off
 * otherwise) after known calls; /health and /ready, /ready 503 while the database is gone; and
 * the JSON log of a whole API flow, in which no password, token, code or key appears.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer } from '../helpers/fixtures.js';
import { sample } from '../helpers/metrics.js';

const METRICS_TOKEN = 'metrics-token-0f9a8b7c6d5e';
const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN, METRICS_ALLOW: '10.9.8.7' }, process.env.DATABASE_URL, { logger: { level: 'info', stream: { write: (line) => void lines.push(line) } } });
});
afterAll(() => t?.close());

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${METRICS_TOKEN}` }, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });

describe('/metrics', () => {
  it('When scraped after known calls, then it counts them by call and status, with latencies, sign-in failures, jobs, mail and the pool', async () => {
    const before = (await scrape()).body;
    const infoBefore = sample(before, 'maildesk_http_requests_total', { call: '/api/manage/me/info', status: '200' }) ?? 0;
    const failedBefore = sample(before, 'maildesk_sign_in_failures_total', { area: 'manage' }) ?? 0;
    expect((await t.post('/api/manage/login/login', { username: ROOT.username, password: 'wrong-password-1' })).code).not.toBe(0);
    const token = (await t.post('/api/manage/login/login', ROOT)).data.token;
    for (let i = 0; i < 3; i++) expect((await t.post('/api/manage/me/info', {}, { token })).code).toBe(0);
    expect((await t.get('/api/manage/ticket/get', { id: 999_999 }, { token })).status).toBe(404);

    const answer = await scrape();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain; version=0.0.4');
    const text = answer.body;
    expect(sample(text, 'maildesk_http_requests_total', { call: '/api/manage/me/info', method: 'POST', status: '200' })).toBe(infoBefore + 3);
    // The route's pattern, not the URL with its query: one series per call.
    expect(sample(text, 'maildesk_http_requests_total', { call: '/api/manage/ticket/get', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/call="[^"]*\?/);
    expect(sample(text, 'maildesk_http_request_duration_seconds_count', { call: '/api/manage/me/info', status: '200' })).toBe(infoBefore + 3);
    expect(sample(text, 'maildesk_http_request_duration_seconds_bucket', { call: '/api/manage/me/info', status: '200', le: '+Inf' })).toBe(infoBefore + 3);
    expect(sample(text, 'maildesk_sign_in_failures_total', { area: 'manage' })).toBe(failedBefore + 1);
    expect(sample(text, 'maildesk_jobs_oldest_waiting_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^maildesk_mail_messages_last_day\{status="sent"\} \d+$/m);
    expect(sample(text, 'maildesk_db_pool_connections', { state: 'max' })).toBeGreaterThan(0);
  });

  it('When a job waits, then the queue figures show it and how long it has waited', async () => {
    // A customer's sign-up mails a code: a mail.send job (jobs run only when the test drains them).
    await t.post('/api/admin/login/register', { email: 'waiting@example.com', password: 'customer-pass-1' });
    const text = (await scrape()).body;
    expect(sample(text, 'maildesk_jobs', { name: 'mail.send', state: 'queued' })).toBeGreaterThanOrEqual(1);
    await t.services.jobs.drain();
    const after = (await scrape()).body;
    expect(sample(after, 'maildesk_jobs', { name: 'mail.send', state: 'queued' })).toBe(0);
    expect(sample(after, 'maildesk_mail_messages_last_day', { status: 'sent' })).toBeGreaterThanOrEqual(1);
  });

  it('When the token is missing or wrong, then it answers 401; from a listed address it answers without one', async () => {
    expect((await scrape({})).statusCode).toBe(401);
    expect((await scrape({ authorization: 'Bearer not-the-token' })).statusCode).toBe(401);
    expect((await scrape({}, '10.9.8.7')).statusCode).toBe(200);
  });

  it('When only METRICS_ALLOW is set, then /metrics answers the listed address without a token, and 401 to any other', async () => {
    const allowOnly = await startTestApp({ METRICS_ALLOW: '10.9.8.7' }, undefined);
    try {
      const from = (remoteAddress: string, headers: Record<string, string> = {}) => allowOnly.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
      const listed = await from('10.9.8.7');
      expect(listed.statusCode).toBe(200);
      expect(listed.body).toContain('maildesk_http_requests_total');
      expect((await from('127.0.0.1')).statusCode).toBe(401);
      expect((await from('127.0.0.1', { authorization: `Bearer ${METRICS_TOKEN}` })).statusCode).toBe(401);
    } finally {
      await allowOnly.close();
    }
  });

  it('When neither METRICS_TOKEN nor METRICS_ALLOW is set, then there is no /metrics (404)', async () => {
    const off = await startTestApp({}, undefined);
    try {
      expect((await off.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('/health and /ready', () => {
  it('When the database answers and is current, then both answer 200', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'current' });
  });

  it('When a migration of this code has not run on the database, then /ready answers 503 naming it; migrations of a newer release (an upgrade under way) leave it ready', async () => {
    const ready = async () => {
      const answer = await t.app.inject({ method: 'GET', url: '/ready' });
      return { http: answer.statusCode, ...answer.json() };
    };
    const migrations = () => t.services.db.selectFrom('kysely_migration' as never).selectAll() as any;
    const last = (await migrations().orderBy('name', 'desc').executeTakeFirstOrThrow()) as { name: string; timestamp: string };
    await t.services.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', last.name as never).execute();
    try {
      expect(await ready()).toEqual({ http: 503, status: 'not_ready', database: 'ok', migrations: `pending: ${last.name}` });
    } finally {
      await t.services.db.insertInto('kysely_migration' as never).values(last as never).execute();
    }
    expect(await ready()).toEqual({ http: 200, status: 'ready', database: 'ok', migrations: 'current' });

    await t.services.db.insertInto('kysely_migration' as never).values({ name: '0999_from_the_future', timestamp: new Date().toISOString() } as never).execute();
    try {
      expect(await ready()).toEqual({ http: 200, status: 'ready', database: 'ok', migrations: 'newer than this code: 0999_from_the_future' });
    } finally {
      await t.services.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', '0999_from_the_future' as never).execute();
    }
  });

  it('When the database is gone, then /ready answers 503 (and /health still 200: the process lives)', async () => {
    // PostgreSQL: its database dropped under it (the shared server stays up); SQLite: its connections closed.
    const app = await startTestApp();
    try {
      expect((await app.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      if (app.dialect === 'postgres') {
        const name = (await sql<{ n: string }>`select current_database() as n`.execute(app.services.db)).rows[0].n;
        const { default: pg } = await import('pg');
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
        await admin.end();
      } else {
        await app.services.database.close();
      }
      const ready = await app.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'not_ready', database: expect.stringMatching(/^unreachable: /) });
      expect((await app.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});

describe('the log', () => {
  it('When a whole API flow has run, then every line is JSON with a request id, and none holds a password, token, code or key it used', async () => {
    const secrets: string[] = [ROOT.password, METRICS_TOKEN];
    const operator = (await t.post('/api/manage/login/login', ROOT)).data.token;
    secrets.push(operator);
    const customer = await signUpCustomer(t, 'logged@example.com', 'customer-secret-pass-9');
    secrets.push(customer.password, customer.token, await t.lastCode(customer.email));
    const key = (await t.post('/api/admin/api_key/create', { name: 'Script', access: 'write', confirmation: customer.password }, { token: customer.token })).data.key;
    secrets.push(key);
    expect((await t.post('/api/admin/domain/list', {}, { headers: { authorization: `Bearer ${key}` } })).code).toBe(0);
    // A secret in a query string, and a failed sign-in with a password.
    await t.get('/api/admin/api_key/list', { token: 'query-token-5e4d3c2b', page: 1 }, { token: customer.token });
    secrets.push('query-token-5e4d3c2b');
    await t.post('/api/admin/login/login', { email: customer.email, password: 'wrong-secret-pass-8' });
    secrets.push('wrong-secret-pass-8');
    await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' });
    const loginCode = await t.lastCode(customer.email);
    secrets.push(loginCode);
    expect((await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code: loginCode })).code).toBe(0);
    const answered = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}`, cookie: 'session=cookie-secret-7a6b' } });
    secrets.push('cookie-secret-7a6b');

    const log = lines.join('');
    const entries = lines.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line));
    expect(entries.length).toBeGreaterThan(20);
    const requestLines = entries.filter((e) => e.msg === 'request');
    expect(requestLines.length).toBeGreaterThan(10);
    expect(requestLines.every((e) => typeof e.reqId === 'string' && e.reqId.length > 0)).toBe(true);
    // The id the answer carries finds the request's line.
    expect(entries.filter((e) => e.reqId === answered.headers['x-request-id'])).toMatchObject([{ msg: 'request', url: '/metrics', statusCode: 200 }]);
    // Each secret as a whole value: a 6-digit code may well occur inside a longer number (a line's time in ms).
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const secret of secrets) expect(log, `a secret is in the log: ${secret.slice(0, 4)}…`).not.toMatch(new RegExp(`(?<![A-Za-z0-9])${escape(secret)}(?![A-Za-z0-9])`));
    expect(log).toContain('token=%5BRedacted%5D');
  });
});
