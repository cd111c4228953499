/**
 * `npm run bench`: list calls through the real app (in-process HTTP) on a million audit-log
 * rows and a hundred thousand customers. Writes bench/results/api-lists[-postgres].json.
 * DATABASE_URL=postgres://… runs it on PostgreSQL (a fresh database, dropped afterwards).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.js';
import { startMaildesk } from '../server/start.js';
import { freshPostgresDatabase } from '../tests/helpers/postgres.js';

const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-bench-'));
const pgDatabase = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL, 'maildesk_bench') : undefined;
const config = loadConfig({ DATA_DIR: dataDir, ADMIN_USERNAME: 'bench', ADMIN_PASSWORD: 'bench-password', ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}) });
const maildesk = await startMaildesk(config);
const { app, services } = maildesk;
const { db, dialect } = services;

console.log(`Seeding ${CUSTOMERS} customers and ${LOG_ROWS} log rows on ${dialect}…`);
const seedStart = Date.now();
const at = new Date().toISOString();
// One real password hash for every seeded customer, so that one of them can sign in.
const passwordHash = (await db.selectFrom('admin').select('password_hash').executeTakeFirstOrThrow()).password_hash;
const numbers = (count: number) =>
  dialect === 'postgres'
    ? sql`select g as i from generate_series(1, ${count}) g`
    : sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${count}) select i from s`;
await sql`insert into "user" (email, username, password_hash, is_verified, status, points, storage_max, locale, created_at, updated_at)
  select 'customer' || i || '@bench.example', 'customer ' || i, ${passwordHash}, i % 2, 'active', i, 1073741824, 'en', ${at}, ${at}
  from (${numbers(CUSTOMERS)}) n`.execute(db);
const actions = ['login', 'update', 'create', 'delete', 'login_failed'];
await sql`insert into log (user_id, actor_type, actor_id, actor_name, action, target_type, target_id, before, after, ip, user_agent, created_at)
  select (i % ${CUSTOMERS}) + 1, 'customer', (i % ${CUSTOMERS}) + 1, 'customer' || ((i % ${CUSTOMERS}) + 1) || '@bench.example',
    case i % 5 when 0 then ${actions[0]} when 1 then ${actions[1]} when 2 then ${actions[2]} when 3 then ${actions[3]} else ${actions[4]} end,
    'user', (i % ${CUSTOMERS}) + 1, null, '{"username":"x"}', '10.0.' || (i % 250) || '.1', 'bench',
    ${new Date(Date.now() - LOG_ROWS * 1000).toISOString().slice(0, 10)} || 'T' || substr('0' || ((i / 3600) % 24), -2) || ':' || substr('0' || ((i / 60) % 60), -2) || ':' || substr('0' || (i % 60), -2) || '.000Z'
  from (${numbers(LOG_ROWS)}) n`.execute(db);
// The steady state autovacuum keeps PostgreSQL in (visibility map set, statistics fresh).
await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
const seedSeconds = (Date.now() - seedStart) / 1000;
console.log(`Seeded in ${seedSeconds.toFixed(1)} s`);

async function inject(method: 'GET' | 'POST', url: string, body: unknown, token: string) {
  const response = await app.inject({ method, url, headers: { authentication: token, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const parsed = response.json();
  if (parsed.code !== 0) throw new Error(`${url} answered ${JSON.stringify(parsed)}`);
  return parsed.data;
}
const operatorToken = (await inject('POST', '/api/manage/login/login', { username: 'bench', password: 'bench-password' }, '')).token as string;
// A verified (odd-numbered) seeded customer.
const customerNumber = Math.min(4243, CUSTOMERS % 2 === 0 ? CUSTOMERS - 1 : CUSTOMERS);
const customerToken = (await inject('POST', '/api/admin/login/login', { email: `customer${customerNumber}@bench.example`, password: 'bench-password' }, '')).token as string;

const scenarios: { name: string; url: string; body: Record<string, unknown>; token: string }[] = [
  { name: 'operator: newest log entries (page 1 of 20)', url: '/api/manage/log/list', body: {}, token: operatorToken },
  { name: 'operator: log sorted by time, page 1000', url: '/api/manage/log/list', body: { sort: 'created_at', order: 'desc', page: 1000 }, token: operatorToken },
  { name: 'operator: failed sign-ins (filter action)', url: '/api/manage/log/list', body: { filter: { action: 'login_failed' } }, token: operatorToken },
  { name: 'operator: one customer\'s entries (filter user_id)', url: '/api/manage/log/list', body: { filter: { user_id: 777 } }, token: operatorToken },
  { name: 'operator: log entries of one IP', url: '/api/manage/log/list', body: { filter: { ip: '10.0.42.1' }, page_size: 100 }, token: operatorToken },
  { name: 'customer: own log (scoped), page 1', url: '/api/admin/log/list', body: {}, token: customerToken },
  { name: 'operator: customers, newest first', url: '/api/manage/user/list', body: {}, token: operatorToken },
  { name: 'operator: customers by points, page 500', url: '/api/manage/user/list', body: { sort: 'points', order: 'desc', page: 500 }, token: operatorToken },
  { name: 'operator: verified customers', url: '/api/manage/user/list', body: { filter: { is_verified: 1 } }, token: operatorToken },
  { name: 'operator: customer search "customer4242" (substring scan)', url: '/api/manage/user/list', body: { q: 'customer4242' }, token: operatorToken },
];

const results = [];
for (const scenario of scenarios) {
  await inject('POST', scenario.url, scenario.body, scenario.token); // warm up
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    total = (await inject('POST', scenario.url, scenario.body, scenario.token)).total;
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const result = {
    scenario: scenario.name,
    call: `POST ${scenario.url}`,
    body: scenario.body,
    total_rows_matched: total,
    p50_ms: +times[Math.floor(times.length * 0.5)].toFixed(2),
    p95_ms: +times[Math.floor(times.length * 0.95)].toFixed(2),
    max_ms: +times[times.length - 1].toFixed(2),
  };
  console.log(`${result.p50_ms.toString().padStart(8)} ms p50 ${result.p95_ms.toString().padStart(8)} ms p95  ${scenario.name} (${total} rows)`);
  results.push(result);
}

const out = path.resolve('bench/results', dialect === 'postgres' ? 'api-lists-postgres.json' : 'api-lists.json');
fs.writeFileSync(
  out,
  JSON.stringify(
    { database: dialect, log_rows: LOG_ROWS, customers: CUSTOMERS, runs_per_scenario: RUNS, seed_seconds: seedSeconds, node: process.version, cpus: os.cpus().length, date: new Date().toISOString(), results },
    null,
    2,
  ) + '\n',
);
console.log(`Written to ${out}`);
await maildesk.close();
await pgDatabase?.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
