/**
 * `npm run bench:support` (also run by `npm run bench`): the operators' ticket queue through
 * the real app (in-process HTTP) on 100,000 tickets with 1,000,000 messages. Every page is an
 * index read: filters and sorts lead an index, the subject search reads ticket_word.
 * Writes bench/results/support-queue[-postgres].json; DATABASE_URL=postgres://… for PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.js';
import { startMaildesk } from '../server/start.js';
import { freshPostgresDatabase } from '../tests/helpers/postgres.js';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const MESSAGES_PER_TICKET = Number(process.env.BENCH_MESSAGES_PER_TICKET ?? 10);
const CUSTOMERS = Math.max(1, Math.floor(TICKETS / 10));
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-bench-support-'));
const pgDatabase = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL, 'maildesk_bench_support') : undefined;
const config = loadConfig({ DATA_DIR: dataDir, ADMIN_USERNAME: 'bench', ADMIN_PASSWORD: 'bench-password', JOB_SCHEDULES: '0', ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}) });
const maildesk = await startMaildesk(config);
const { app, services } = maildesk;
const { db, dialect } = services;

console.log(`Seeding ${CUSTOMERS} customers, ${TICKETS} tickets, ${TICKETS * MESSAGES_PER_TICKET} messages on ${dialect}…`);
const seedStart = Date.now();
const passwordHash = (await db.selectFrom('admin').select('password_hash').executeTakeFirstOrThrow()).password_hash;
const numbers = (count: number) =>
  dialect === 'postgres'
    ? sql`select g as i from generate_series(1, ${count}) g`
    : sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${count}) select i from s`;
// Times spread over the last ~100 days, one tick per ticket; ISO strings as the app writes them.
const base = Date.now() - TICKETS * 86_400;
const iso = (expr: string) =>
  dialect === 'postgres'
    ? sql.raw(`to_char(to_timestamp(${base / 1000} + (${expr}) * 86.4) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)
    : sql.raw(`strftime('%Y-%m-%dT%H:%M:%fZ', ${base / 1000} + (${expr}) * 86.4, 'unixepoch')`);
const at = new Date().toISOString();
await sql`insert into "user" (email, username, password_hash, is_verified, status, points, storage_max, locale, created_at, updated_at)
  select 'customer' || i || '@bench.example', 'customer ' || i, ${passwordHash}, 1, 'active', 0, 1073741824, 'en', ${at}, ${at}
  from (${numbers(CUSTOMERS)}) n`.execute(db);
for (let i = 1; i <= 5; i++) {
  await db.insertInto('admin').values({ username: `agent${i}`, password_hash: passwordHash, role: 'support', status: 'active', created_at: at, updated_at: at }).execute();
}
const statuses = ['open', 'answered', 'waiting_customer', 'closed', 'closed', 'closed', 'closed', 'answered'];
const categories = ['account', 'billing', 'mail_delivery', 'domains', 'other'];
const priorities = ['low', 'normal', 'normal', 'high', 'urgent'];
const subjects = ['Mail delivery delayed', 'Cannot log in over IMAP', 'Invoice question', 'Domain verification fails', 'SPF record help', '邮件投递失败', '域名验证问题'];
const pickOf = (values: string[], expr: string) => sql.raw(`case (${expr}) % ${values.length} ${values.map((v, i) => `when ${i} then '${v}'`).join(' ')} end`);
await sql`insert into ticket (number, owner_id, author_id, subject, category, priority, status, assignee_id, link_type, link_id,
    last_activity_at, last_reply_by, waiting_since, first_response_at, first_response_seconds, closed_at, created_at, updated_at)
  select 'B' || i, (i % ${CUSTOMERS}) + 1, (i % ${CUSTOMERS}) + 1, ${pickOf(subjects, 'i')} || ' ref' || i, ${pickOf(categories, 'i / 7')}, ${pickOf(priorities, 'i / 3')},
    ${pickOf(statuses, 'i')}, case when i % 3 = 0 then null else (i % 5) + 2 end, null, null,
    ${iso('i + 50')}, case when i % 8 = 0 then 'customer' else 'operator' end,
    case when i % 8 = 0 then ${iso('i')} else null end,
    case when i % 8 = 0 then null else ${iso('i + 1')} end, case when i % 8 = 0 then null else 3600 + i % 7200 end,
    case when i % 8 between 3 and 6 then ${iso('i + 60')} else null end, ${iso('i')}, ${iso('i + 50')}
  from (${numbers(TICKETS)}) n`.execute(db);
// Words of the subjects, as the app indexes them (server/support/words.ts).
const { wordsOf } = await import('../server/support/words.js');
for (const [index, subject] of subjects.entries()) {
  for (const word of wordsOf(subject)) {
    await sql`insert into ticket_word (word, ticket_id) select ${word}, id from ticket where id % ${subjects.length} = ${index}`.execute(db);
  }
}
await sql`insert into ticket_word (word, ticket_id) select 'ref' || substr(number, 2), id from ticket`.execute(db);
await sql`insert into ticket_message (ticket_id, owner_id, author_type, author_id, author_name, body, internal, created_at)
  select t.id, t.owner_id, case when m.i % 2 = 0 then 'customer' else 'operator' end, null, 'bench',
    'Message ' || m.i || ' of ticket ' || t.id, case when m.i = ${MESSAGES_PER_TICKET} then 1 else 0 end, t.created_at
  from ticket t cross join (${numbers(MESSAGES_PER_TICKET)}) m`.execute(db);
await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
const seedSeconds = (Date.now() - seedStart) / 1000;
console.log(`Seeded in ${seedSeconds.toFixed(1)} s`);

async function inject(method: 'GET' | 'POST', url: string, body: Record<string, unknown>, token: string) {
  const response = await app.inject(
    method === 'GET'
      ? { method, url, query: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])), headers: { authentication: token } }
      : { method, url, headers: { authentication: token, 'content-type': 'application/json' }, payload: JSON.stringify(body) },
  );
  const parsed = response.json();
  if (parsed.code !== 0) throw new Error(`${url} answered ${JSON.stringify(parsed)}`);
  return parsed.data;
}
const agentToken = (await inject('POST', '/api/manage/login/login', { username: 'agent1', password: 'bench-password' }, '')).token as string;
const customerToken = (await inject('POST', '/api/admin/login/login', { email: `customer${Math.min(4242, CUSTOMERS)}@bench.example`, password: 'bench-password' }, '')).token as string;
const someTicket = Math.floor(TICKETS / 2);
const notClosed = ['open', 'answered', 'waiting_customer'];

const scenarios: { name: string; method?: 'GET' | 'POST'; url: string; body: Record<string, unknown>; token: string }[] = [
  { name: 'queue: not closed, last activity first (page 1)', url: '/api/manage/ticket/list', body: { filter: { status: notClosed } }, token: agentToken },
  { name: 'queue: open, waiting longest first', url: '/api/manage/ticket/list', body: { filter: { status: 'open' }, sort: 'waiting_since', order: 'asc' }, token: agentToken },
  { name: 'queue: mine, last activity first', url: '/api/manage/ticket/list', body: { filter: { assignee_id: 'mine' } }, token: agentToken },
  { name: 'queue: unassigned', url: '/api/manage/ticket/list', body: { filter: { assignee_id: 'none' } }, token: agentToken },
  { name: 'queue: urgent', url: '/api/manage/ticket/list', body: { filter: { priority: 'urgent' } }, token: agentToken },
  { name: 'queue: billing, page 50', url: '/api/manage/ticket/list', body: { filter: { category: 'billing' }, page: 50 }, token: agentToken },
  { name: 'queue: all, page 1000', url: '/api/manage/ticket/list', body: { page: 1000 }, token: agentToken },
  { name: 'queue: search "deliv" (word prefix)', url: '/api/manage/ticket/list', body: { q: 'deliv' }, token: agentToken },
  { name: 'queue: search "验证" (Chinese word)', url: '/api/manage/ticket/list', body: { q: '验证' }, token: agentToken },
  { name: 'queue: search "ref4242" (one ticket)', url: '/api/manage/ticket/list', body: { q: 'ref4242' }, token: agentToken },
  { name: 'operator: one ticket with its conversation', method: 'GET', url: '/api/manage/ticket/get', body: { id: someTicket }, token: agentToken },
  { name: 'operator: dashboard figures (index/stat)', url: '/api/manage/index/stat', body: {}, token: agentToken },
  { name: 'customer: own tickets', url: '/api/admin/ticket/list', body: {}, token: customerToken },
];

const results = [];
for (const scenario of scenarios) {
  const method = scenario.method ?? 'POST';
  await inject(method, scenario.url, scenario.body, scenario.token); // warm up
  const times: number[] = [];
  let total: number | undefined;
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    total = (await inject(method, scenario.url, scenario.body, scenario.token)).total;
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const result = {
    scenario: scenario.name,
    call: `${method} ${scenario.url}`,
    body: scenario.body,
    total_rows_matched: total ?? null,
    p50_ms: +times[Math.floor(times.length * 0.5)].toFixed(2),
    p95_ms: +times[Math.floor(times.length * 0.95)].toFixed(2),
    max_ms: +times[times.length - 1].toFixed(2),
  };
  console.log(`${result.p50_ms.toString().padStart(8)} ms p50 ${result.p95_ms.toString().padStart(8)} ms p95  ${scenario.name} (${total ?? '-'} rows)`);
  results.push(result);
}

const out = path.resolve('bench/results', dialect === 'postgres' ? 'support-queue-postgres.json' : 'support-queue.json');
fs.writeFileSync(
  out,
  JSON.stringify(
    { database: dialect, tickets: TICKETS, messages: TICKETS * MESSAGES_PER_TICKET, customers: CUSTOMERS, runs_per_scenario: RUNS, seed_seconds: seedSeconds, node: process.version, cpus: os.cpus().length, date: new Date().toISOString(), results },
    null,
    2,
  ) + '\n',
);
console.log(`Written to ${out}`);
await maildesk.close();
await pgDatabase?.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
