/**
 * The shop's throughput through the real app (in-process HTTP): orders made and paid with
 * points (made, paid and fulfilled in one call), orders made for card payment, and card
 * payment notices fulfilling them (signed like Stripe's, through the local stand-in), with
 * several requests in flight; then order lists on a million orders. Writes
 * bench/results/shop[-postgres].json. DATABASE_URL=postgres://… runs it on PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.js';
import { startMaildesk } from '../server/start.js';
import { freshPostgresDatabase } from '../tests/helpers/postgres.js';
import { startStripeStandin } from '../tests/helpers/stripe-standin.js';

const ORDERS = Number(process.env.BENCH_SHOP_ORDERS ?? 2000);
const IN_FLIGHT = Number(process.env.BENCH_SHOP_IN_FLIGHT ?? 8);
const CUSTOMERS = Number(process.env.BENCH_SHOP_CUSTOMERS ?? 50);
const SEEDED_ORDERS = Number(process.env.BENCH_SHOP_SEEDED_ORDERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const stripe = await startStripeStandin();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-bench-shop-'));
const pgDatabase = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL, 'maildesk_bench') : undefined;
const config = loadConfig({
  DATA_DIR: dataDir,
  ADMIN_USERNAME: 'bench',
  ADMIN_PASSWORD: 'bench-password',
  LOG_LEVEL: 'silent',
  ...stripe.env,
  ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
});
const maildesk = await startMaildesk(config);
const { app, services } = maildesk;
const { db, dialect } = services;

async function inject(method: 'GET' | 'POST', url: string, body: unknown, token: string, headers: Record<string, string> = {}) {
  const response = await app.inject({ method, url, headers: { authentication: token, 'content-type': 'application/json', ...headers }, payload: typeof body === 'string' ? body : JSON.stringify(body) });
  const parsed = response.json();
  if (parsed.code !== 0) throw new Error(`${url} answered ${JSON.stringify(parsed)}`);
  return parsed.data;
}
stripe.setWebhook((payload, signature) => inject('POST', '/api/payment/stripe/webhook', payload, '', { 'stripe-signature': signature }));

const operator = (await inject('POST', '/api/manage/login/login', { username: 'bench', password: 'bench-password' }, '')).token as string;
const tokens: string[] = [];
for (let i = 0; i < CUSTOMERS; i++) {
  const email = `shop${i}@bench.example`;
  const { id } = await inject('POST', '/api/manage/user/create', { email, password: 'customer-pass-1', is_verified: 1 }, operator);
  await inject('POST', '/api/manage/user/add_points', { user_id: id, points: 1_000_000_000, note: 'bench' }, operator);
  tokens.push((await inject('POST', '/api/admin/login/login', { email, password: 'customer-pass-1' }, '')).token);
}
const product = await inject('POST', '/api/manage/product/create', { kind: 'storage', name_zh: '存储', name_en: 'Storage', price: 100, storage_size: 1024 ** 2, period_months: 1 }, operator);
await inject('POST', '/api/manage/activity/create', { name_zh: '促销', name_en: 'Sale', kind: 'percent', value: 10, product_ids: [product.id], starts_at: new Date(Date.now() - 3600_000).toISOString(), ends_at: new Date(Date.now() + 86_400_000).toISOString() }, operator);

/** Runs `count` jobs with IN_FLIGHT at a time; answers per second. */
async function throughput(count: number, job: (i: number) => Promise<unknown>) {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) await job(next++);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { count, seconds: +seconds.toFixed(2), per_second: +(count / seconds).toFixed(1) };
}

const results: Record<string, unknown> = {};
results['order made, paid with points and fulfilled (one call)'] = await throughput(ORDERS, (i) =>
  inject('POST', '/api/admin/order/create', { product_id: product.id, pay_with: 'points' }, tokens[i % CUSTOMERS]),
);
const pending: { id: number; token: string }[] = [];
results['order made for card payment (pending)'] = await throughput(ORDERS, async (i) => {
  const order = await inject('POST', '/api/admin/order/create', { product_id: product.id, pay_with: 'card' }, tokens[i % CUSTOMERS]);
  pending.push({ id: order.id, token: tokens[i % CUSTOMERS] });
});
const notices: { payload: string; signature: string }[] = [];
for (const order of pending) {
  const checkout = await inject('POST', '/api/admin/order/create_payment_checkouturl', { id: order.id }, order.token);
  notices.push(stripe.notice('checkout.session.completed', stripe.pay(checkout.session_id)));
}
results['card payment notice verified and recorded (fulfilment queued)'] = await throughput(notices.length, (i) =>
  inject('POST', '/api/payment/stripe/webhook', notices[i].payload, '', { 'stripe-signature': notices[i].signature }),
);
// The queued fulfilments (and their mails), run until none is left.
const drainStart = process.hrtime.bigint();
await services.jobs.drain();
const drainSeconds = Number(process.hrtime.bigint() - drainStart) / 1e9;
const fulfilled = Number((await db.selectFrom('shop_order').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'fulfilled').where('payment_method', '=', 'stripe').executeTakeFirstOrThrow()).n);
if (fulfilled !== notices.length) throw new Error(`${fulfilled} of ${notices.length} card orders fulfilled`);
results['card orders fulfilled by the job queue (with their mails)'] = { count: fulfilled, seconds: +drainSeconds.toFixed(2), per_second: +(fulfilled / drainSeconds).toFixed(1) };
for (const [name, figure] of Object.entries(results)) console.log(`${String((figure as { per_second: number }).per_second).padStart(8)} /s  ${name}`);

// Lists on a million orders stay index reads.
console.log(`Seeding ${SEEDED_ORDERS} orders on ${dialect}…`);
const numbers = (count: number) =>
  dialect === 'postgres'
    ? sql`select g as i from generate_series(1, ${count}) g`
    : sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${count}) select i from s`;
const owners = await db.selectFrom('user').select('id').where('owner_id', 'is', null).orderBy('id').execute();
const firstOwner = Number(owners[0].id);
const at = new Date().toISOString();
await sql`insert into shop_order (number, owner_id, placed_by, product_id, product_kind, product_name_zh, product_name_en, storage_size, period_months, currency, price, discount, amount, bonus_points, status, pay_before, created_at, updated_at)
  select 'SEED' || i, ${firstOwner} + (i % ${owners.length}), ${firstOwner} + (i % ${owners.length}), ${product.id}, 'storage', '存储', 'Storage', 1048576, 1, 'CNY', 100, 0, 100, 0,
    case i % 4 when 0 then 'pending_payment' when 1 then 'fulfilled' when 2 then 'expired' else 'cancelled' end, ${at}, ${at}, ${at}
  from (${numbers(SEEDED_ORDERS)}) n`.execute(db);
await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
const lists = [
  { name: 'operator: newest orders', url: '/api/manage/order/list', body: {}, token: operator },
  { name: 'operator: pending orders', url: '/api/manage/order/list', body: { filter: { status: 'pending_payment' } }, token: operator },
  { name: 'operator: one customer\'s orders', url: '/api/manage/order/list', body: { filter: { owner_id: firstOwner + 7 } }, token: operator },
  { name: 'customer: own orders, newest first', url: '/api/admin/order/list', body: {}, token: tokens[Math.min(7, tokens.length - 1)] },
  { name: 'customer: own ledger', url: '/api/admin/points/list', body: {}, token: tokens[Math.min(7, tokens.length - 1)] },
];
const listResults = [];
for (const scenario of lists) {
  await inject('POST', scenario.url, scenario.body, scenario.token);
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    total = (await inject('POST', scenario.url, scenario.body, scenario.token)).total;
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const result = { scenario: scenario.name, call: `POST ${scenario.url}`, body: scenario.body, total_rows_matched: total, p50_ms: +times[Math.floor(times.length * 0.5)].toFixed(2), p95_ms: +times[Math.floor(times.length * 0.95)].toFixed(2) };
  console.log(`${String(result.p50_ms).padStart(8)} ms p50 ${String(result.p95_ms).padStart(8)} ms p95  ${scenario.name} (${total} rows)`);
  listResults.push(result);
}

const out = path.resolve('bench/results', dialect === 'postgres' ? 'shop-postgres.json' : 'shop.json');
fs.writeFileSync(
  out,
  JSON.stringify({ database: dialect, orders_per_scenario: ORDERS, in_flight: IN_FLIGHT, customers: CUSTOMERS, seeded_orders: SEEDED_ORDERS, node: process.version, cpus: os.cpus().length, date: new Date().toISOString(), throughput: results, lists: listResults }, null, 2) + '\n',
);
console.log(`Written to ${out}`);
await maildesk.close();
await stripe.close();
await pgDatabase?.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
