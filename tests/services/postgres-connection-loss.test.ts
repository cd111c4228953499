/** When PostgreSQL closes the app's idle connections (restart, failover), the app carries on. */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin } from '../helpers/fixtures.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, serverUrl);
});
afterAll(() => t.close());

it('When the server terminates every idle connection of the app, then the next calls still answer', async () => {
  expect(t.dialect).toBe('postgres');
  const token = await operatorLogin(t);
  expect((await t.post('/api/manage/me/info', {}, { token })).code).toBe(0);

  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const database = new URL(t.config.databaseUrl!).pathname.slice(1);
  const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
  await admin.end();
  expect(rowCount).toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, 200));

  for (let i = 0; i < 3; i++) expect((await t.post('/api/manage/me/info', {}, { token })).code).toBe(0);
});
