/**
 * `npm run bench` (second part): jobs through the queue, and what outgoing mail costs a call.
 * - jobs/s: BENCH_JOBS no-op jobs enqueued (each in its own transaction), then worked by a
 *   started queue (the embedded table on SQLite, pg-boss on PostgreSQL) until all are done.
 * - mail: the time `mailer.send` adds inside a sign-up's transaction (template read, send-log
 *   row, job row), timed inside the open transaction, median of BENCH_RUNS, beside a whole
 *   register call for scale.
 * Writes bench/results/jobs[-postgres].json. DATABASE_URL=postgres://… for PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config.js';
import { createJobs } from '../server/jobs/create.js';
import { defineJob } from '../server/core/jobs.js';
import { startMaildesk } from '../server/start.js';
import { freshPostgresDatabase } from '../tests/helpers/postgres.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-bench-jobs-'));
const pgDatabase = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL, 'maildesk_bench') : undefined;
const config = loadConfig({ DATA_DIR: dataDir, ADMIN_USERNAME: 'bench', ADMIN_PASSWORD: 'bench-password', JOB_SCHEDULES: '0', JOB_POLL_MS: '500', ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}) });
const maildesk = await startMaildesk(config);
const { services, app } = maildesk;
const { db, dialect } = services;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

let ran = 0;
const noop = defineJob<{ n: number }>({ name: 'bench.noop', async handler() { ran++; } });
const queue = await createJobs(services.database, { jobs: [noop], schedules: [] }, config, { error: console.error });
// Queues exist once started; the workers then wait for their next poll while we enqueue.
await queue.start(services);

console.log(`Enqueuing ${JOBS} jobs on ${dialect}…`);
let started = performance.now();
for (let n = 0; n < JOBS; n++) await db.transaction().execute((trx) => queue.enqueue(trx, noop, { n }));
const enqueueSeconds = (performance.now() - started) / 1000;
started = performance.now();
while (ran < JOBS) await new Promise((resolve) => setTimeout(resolve, 20));
const workSeconds = (performance.now() - started) / 1000;
await queue.stop();

// Mail inside a sign-up: the rows it adds to the caller's transaction, timed inside it (the
// sign-up's own transaction, begin and commit, is there with or without mail).
const sendTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  await db.transaction().execute(async (trx) => {
    const at = performance.now();
    await services.mailer.send(trx, { key: 'verify_code', locale: 'en', to: `bench-${i}@example.com`, params: { code: '123456', minutes: 10 } });
    sendTimes.push(performance.now() - at);
  });
}
const registerTimes: number[] = [];
for (let i = 0; i < Math.min(RUNS, 20); i++) {
  const at = performance.now();
  const response = await app.inject({ method: 'POST', url: '/api/admin/login/register', remoteAddress: `10.8.${i}.1`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: `bench-register-${i}@example.com`, password: 'bench-password-1' }) });
  if (response.json().code !== 0) throw new Error(response.body);
  registerTimes.push(performance.now() - at);
}

const result = {
  dialect,
  engine: dialect === 'postgres' ? 'pg-boss 10' : 'embedded job table',
  jobs: JOBS,
  enqueue_per_second: Math.round(JOBS / enqueueSeconds),
  worked_per_second: Math.round(JOBS / workSeconds),
  mail_send_in_transaction_ms_median: Number(median(sendTimes).toFixed(3)),
  register_call_ms_median: Number(median(registerTimes).toFixed(1)),
  machine: `${os.cpus().length} cores, Node ${process.version}`,
  measured_at: new Date().toISOString(),
};
console.log(result);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync(`bench/results/jobs${dialect === 'postgres' ? '-postgres' : ''}.json`, `${JSON.stringify(result, null, 2)}\n`);
await maildesk.close();
await pgDatabase?.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
