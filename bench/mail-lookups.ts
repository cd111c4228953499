/**
 * `npm run bench:mail`: every lookup the mail server makes (deploy/queries.ts: Postfix maps,
 * Dovecot passdb/userdb with app passwords, Pigeonhole's Sieve dict, OpenDKIM keys) at a million mailboxes, aliases and domains (half of
 * them alias domains). Writes bench/results/mail-lookups[-postgres].json with each query's time
 * and whether its plan reads only through indexes. DATABASE_URL=postgres://… for PostgreSQL.
 *
 * On PostgreSQL a lookup's time is a round trip to another process: on a machine whose cores
 * are busy it is mostly the wait for the server's turn. Each result also carries PostgreSQL's
 * own time for it (planning and execution, EXPLAIN ANALYZE), which that wait does not inflate.
 * BENCH_MAIL_KEEP=1 keeps the seeded PostgreSQL database (its URL is printed);
 * BENCH_MAIL_DATABASE_URL=<that URL> measures it again without seeding.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.js';
import { startMaildesk } from '../server/start.js';
import { freshPostgresDatabase } from '../tests/helpers/postgres.js';
import { lookupQueries, seededSampleSql, seedStatements, tableScans } from '../tests/mail/lookups.js';

const ROWS = Number(process.env.BENCH_MAIL_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-bench-mail-'));
const seeded = process.env.BENCH_MAIL_DATABASE_URL;
const pgDatabase = seeded
  ? { url: seeded, drop: async () => undefined }
  : process.env.DATABASE_URL
    ? await freshPostgresDatabase(process.env.DATABASE_URL, 'maildesk_bench_mail')
    : undefined;
const config = loadConfig({ DATA_DIR: dataDir, ADMIN_USERNAME: 'bench', ADMIN_PASSWORD: 'bench-password', LOG_LEVEL: 'silent', JOB_SCHEDULES: '0', ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}) });
// No job workers nor schedules: what runs beside the lookups (a capacity snapshot of a million
// mailboxes on SQLite holds this thread) is not the lookups' time.
const maildesk = await startMaildesk(config, { deferJobs: true });
const { db, dialect } = maildesk.services;

const seedStart = Date.now();
if (!seeded) {
  console.log(`Seeding ${ROWS} customers, domains, mailboxes and aliases (${ROWS / 2} alias domains) on ${dialect}…`);
  for (const statement of seedStatements(dialect, ROWS)) await sql.raw(statement).execute(db);
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
  console.log(`Seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
}
const seedSeconds = seeded ? undefined : (Date.now() - seedStart) / 1000;

const sample = (await sql.raw<{ alias_domain: string; domain: string }>(seededSampleSql(ROWS)).execute(db)).rows[0];
const queries = lookupQueries({ domain: sample.domain, aliasDomain: sample.alias_domain, mailbox: 'm', alias: 'a' }, dialect);

/** The plan, and whether it reads every table through an index (no full scan). */
async function plan(text: string) {
  if (dialect === 'postgres') {
    const rows = (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${text}`).execute(db)).rows.map((r) => r['QUERY PLAN']);
    return { plan: rows, index_reads_only: tableScans(dialect, rows).length === 0 };
  }
  const rows = (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`).execute(db)).rows.map((r) => r.detail);
  return { plan: rows, index_reads_only: tableScans(dialect, rows).length === 0 };
}

const results = [];
for (const query of queries) {
  const answer = await sql.raw(query.sql).execute(db); // warm up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await sql.raw(query.sql).execute(db);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  // PostgreSQL's own time: planning and execution of the same text.
  const server: number[] = [];
  for (let i = 0; dialect === 'postgres' && i < RUNS; i++) {
    const explained = (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${query.sql}`).execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n');
    server.push(Number(/Planning Time: ([\d.]+)/.exec(explained)?.[1]) + Number(/Execution Time: ([\d.]+)/.exec(explained)?.[1]));
  }
  server.sort((a, b) => a - b);
  const result = {
    lookup: query.name,
    sql: query.sql,
    rows_answered: answer.rows.length,
    p50_ms: +times[Math.floor(times.length * 0.5)].toFixed(3),
    p95_ms: +times[Math.floor(times.length * 0.95)].toFixed(3),
    max_ms: +times[times.length - 1].toFixed(3),
    ...(server.length ? { server_p50_ms: +server[Math.floor(server.length * 0.5)].toFixed(3) } : {}),
    ...(await plan(query.sql)),
  };
  const inServer = result.server_p50_ms === undefined ? '' : ` (PostgreSQL's own ${result.server_p50_ms} ms p50)`;
  console.log(`${result.p50_ms.toString().padStart(8)} ms p50 ${result.p95_ms.toString().padStart(8)} ms p95  ${result.index_reads_only ? 'index' : 'SCAN '}  ${query.name}${inServer}`);
  results.push(result);
}

const out = path.resolve('bench/results', dialect === 'postgres' ? 'mail-lookups-postgres.json' : 'mail-lookups.json');
fs.writeFileSync(
  out,
  JSON.stringify(
    { database: dialect, rows: ROWS, runs_per_lookup: RUNS, seed_seconds: seedSeconds, node: process.version, cpus: os.cpus().length, load_average: os.loadavg().map((l) => +l.toFixed(2)), date: new Date().toISOString(), results },
    null,
    2,
  ) + '\n',
);
console.log(`Written to ${out}`);
await maildesk.close();
if (process.env.BENCH_MAIL_KEEP && pgDatabase && !seeded) console.log(`Kept: BENCH_MAIL_DATABASE_URL=${pgDatabase.url}`);
else await pgDatabase?.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
if (results.some((r) => !r.index_reads_only)) {
  console.error('A lookup reads a whole table: see the plan in the results file.');
  process.exit(1);
}
