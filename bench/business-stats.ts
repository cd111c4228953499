/**
 * `npm run bench:stats`: /api/manage/index/stat on a million orders spread over a year, read
 * from the daily summary (as the dashboard does), against the same figures computed from the
 * base tables. Writes bench/results/business-stats[-postgres].json.
 * DATABASE_URL=postgres://… runs it on PostgreSQL (a fresh database, dropped afterwards).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql, type RawBuilder } from 'kysely';
import { loadConfig } from '../server/config.js';
import { startMaildesk } from '../server/start.js';
import { refreshSummary } from '../server/stats/business.js';
import { businessReport } from '../server/stats/report.js';
import { freshPostgresDatabase } from '../tests/helpers/postgres.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const BASE_RUNS = Number(process.env.BENCH_BASE_RUNS ?? 3);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-bench-stats-'));
const pgDatabase = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL, 'maildesk_bench_stats') : undefined;
const config = loadConfig({ DATA_DIR: dataDir, ADMIN_USERNAME: 'bench', ADMIN_PASSWORD: 'bench-password', JOB_SCHEDULES: '0', ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}) });
const maildesk = await startMaildesk(config);
const { app, services } = maildesk;
const { db, dialect } = services;

console.log(`Seeding ${ORDERS} orders of ${CUSTOMERS} customers over a year on ${dialect}…`);
const seedStart = Date.now();
const at = new Date().toISOString();
const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
const numbers = (count: number) =>
  dialect === 'postgres'
    ? sql`select g as i from generate_series(1, ${count}) g`
    : sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${count}) select i from s`;
/** An ISO timestamp `days` and `seconds` after a year ago (SQL expressions of i). */
const stamp = (days: RawBuilder<unknown>, seconds: RawBuilder<unknown>) =>
  dialect === 'postgres'
    ? sql`to_char(timestamp ${sql.lit(`${yearAgo} 00:00:00`)} + (${days}) * interval '1 day' + (${seconds}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.lit(yearAgo)}, '+' || (${days}) || ' days', '+' || (${seconds}) || ' seconds')`;
const day = sql`(i % 365)`;
const second = sql`(i % 86000)`;

await sql`insert into "user" (email, username, password_hash, is_verified, status, points, storage_max, locale, created_at, updated_at)
  select 'customer' || i || '@bench.example', 'customer ' || i, 'x', 1, 'active', 0, 1073741824, 'en', ${stamp(sql`(i % 365)`, sql`(i % 86000)`)}, ${at}
  from (${numbers(CUSTOMERS)}) n`.execute(db);
for (let p = 1; p <= 4; p++) {
  await db
    .insertInto('product')
    .values({ kind: 'storage', name_zh: `存储 ${p} GB`, name_en: `Storage ${p} GB`, description_zh: '', description_en: '', price: 1000 * p, storage_size: p * 1024 ** 3, period_months: 12, points_granted: null, visible: 1, sort_order: p, created_at: at, updated_at: at })
    .execute();
}
// Every 20th order refunded a day after payment, every 10th cancelled unpaid; a third paid with points.
const status = sql`case when i % 20 = 0 then 'refunded' when i % 10 = 1 then 'cancelled' else 'fulfilled' end`;
const paid = sql`case when i % 10 = 1 then null else ${stamp(day, second)} end`;
await sql`insert into shop_order (number, owner_id, placed_by, product_id, product_kind, product_name_zh, product_name_en, storage_size, period_months, points_granted,
    currency, price, discount, amount, bonus_points, payment_method, status, pay_before, paid_at, fulfilled_at, closed_at, created_at, updated_at)
  select 'SEED' || i, (i % ${CUSTOMERS}) + 1, (i % ${CUSTOMERS}) + 1, (i % 4) + 1, 'storage', '存储', 'Storage', 1073741824, 12, null,
    'CNY', 1000 * ((i % 4) + 1), case when i % 7 = 0 then 200 else 0 end, 1000 * ((i % 4) + 1) - case when i % 7 = 0 then 200 else 0 end, 0,
    case when i % 10 = 1 then null when i % 3 = 0 then 'points' else 'stripe' end, ${status}, ${stamp(day, second)}, ${paid}, ${paid},
    case when i % 20 = 0 then ${stamp(sql`(i % 365) + 1`, second)} when i % 10 = 1 then ${stamp(day, sql`(i % 86000) + 3600`)} else null end,
    ${stamp(day, second)}, ${stamp(day, second)}
  from (${numbers(ORDERS)}) n`.execute(db);
await sql`insert into order_history (order_id, from_status, to_status, actor_type, actor_id, actor_name, reason, created_at)
  select id, 'pending_payment', case when status = 'cancelled' then 'cancelled' else 'paid' end, 'system', null, '', '', coalesce(paid_at, closed_at) from shop_order`.execute(db);
await sql`insert into payment (order_id, provider, session_id, url, amount, currency, status, payment_intent, expires_at, created_at, updated_at)
  select id, 'stripe', 'cs_' || id, '', amount, 'CNY', case when status = 'refunded' then 'refunded' else 'paid' end, 'pi_' || id, paid_at, paid_at, paid_at
  from shop_order where payment_method = 'stripe'`.execute(db);
await sql`insert into points_ledger (user_id, delta, balance_after, source, reason, note, order_id, actor_type, actor_id, created_at)
  select owner_id, -amount, 0, 'order:' || id, 'order_payment', '', id, 'customer', owner_id, paid_at from shop_order where payment_method = 'points'`.execute(db);
await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
const seedSeconds = (Date.now() - seedStart) / 1000;
console.log(`Seeded in ${seedSeconds.toFixed(1)} s`);

const timed = async <T>(work: () => Promise<T>) => {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const backfill = await timed(() => refreshSummary(db));
const hourly = await timed(() => refreshSummary(db));
console.log(`Summary: backfill of ${backfill.value} days in ${backfill.ms.toFixed(0)} ms; an hourly run in ${hourly.ms.toFixed(0)} ms`);

const login = await app.inject({ method: 'POST', url: '/api/manage/login/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: 'bench', password: 'bench-password' }) });
const token = login.json().data.token as string;
const stat = async (period: string) => {
  const response = await app.inject({ method: 'POST', url: '/api/manage/index/stat', headers: { authentication: token, 'content-type': 'application/json' }, payload: JSON.stringify({ period }) });
  const body = response.json();
  if (body.code !== 0) throw new Error(JSON.stringify(body));
  return body.data.business;
};

const results = [];
for (const period of ['30d', '12m'] as const) {
  await stat(period); // warm
  const summaryRuns = [];
  for (let i = 0; i < RUNS; i++) summaryRuns.push((await timed(() => stat(period))).ms);
  const baseRuns = [];
  let base;
  for (let i = 0; i < BASE_RUNS; i++) {
    const run = await timed(() => businessReport(services, period, 'base'));
    baseRuns.push(run.ms);
    base = run.value;
  }
  const fromSummary = await businessReport(services, period, 'summary');
  // The two ways must give the same figures (capacity and renewals are read the same way).
  const same = isDeepStrictEqual({ ...fromSummary, over_capacity: [] }, { ...base, over_capacity: [] });
  if (!same) throw new Error(`${period}: the summary and the base tables disagree`);
  const result = {
    call: `POST /api/manage/index/stat {"period":"${period}"}`,
    summary_median_ms: Number(median(summaryRuns).toFixed(1)),
    summary_max_ms: Number(Math.max(...summaryRuns).toFixed(1)),
    base_tables_median_ms: Number(median(baseRuns).toFixed(1)),
    ratio_base_to_summary: Number((median(baseRuns) / median(summaryRuns)).toFixed(1)),
    same_figures: same,
    revenue: fromSummary.totals.revenue,
  };
  console.log(result);
  results.push(result);
}

const out = path.resolve('bench/results', dialect === 'postgres' ? 'business-stats-postgres.json' : 'business-stats.json');
fs.writeFileSync(
  out,
  `${JSON.stringify(
    {
      database: dialect,
      orders: ORDERS,
      customers: CUSTOMERS,
      runs: RUNS,
      base_runs: BASE_RUNS,
      seed_seconds: seedSeconds,
      summary_backfill_days: backfill.value,
      summary_backfill_ms: Math.round(backfill.ms),
      summary_hourly_run_ms: Math.round(hourly.ms),
      node: process.version,
      cpus: os.cpus().length,
      date: new Date().toISOString(),
      results,
    },
    null,
    2,
  )}\n`,
);
console.log(`Wrote ${out}`);
await maildesk.close();
await pgDatabase?.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
