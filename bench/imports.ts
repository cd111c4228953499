/**
 * `npm run bench:imports`: a CSV file of 10,000 rows (8,000 mailboxes with their hashes, as
 * a PostfixAdmin export brings them, and 2,000 aliases) over 5 domains, imported by an operator
 * through the API: the dry run (parse, check every row, hold it against what is here), the
 * start call, and the job making the records (batches of IMPORT_BATCH_SIZE, default 250), each
 * timed; then the same file again (all of it already here). Also 200 mailboxes with clear
 * passwords, whose argon2id hashing is the cost. Writes bench/results/imports[-postgres].json.
 * DATABASE_URL=postgres://… for PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config.js';
import { startMaildesk } from '../server/start.js';
import { freshPostgresDatabase } from '../tests/helpers/postgres.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const CLEAR = Number(process.env.BENCH_IMPORT_CLEAR ?? 200);
const DOMAINS = 5;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-bench-imports-'));
const pgDatabase = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL, 'maildesk_bench') : undefined;
const config = loadConfig({ DATA_DIR: dataDir, ADMIN_USERNAME: 'bench', ADMIN_PASSWORD: 'bench-password', JOB_SCHEDULES: '0', JOB_POLL_MS: '600000', ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}) });
const maildesk = await startMaildesk(config);
const { app, services } = maildesk;

async function call(method: 'GET' | 'POST', url: string, body: Record<string, unknown>, token = '') {
  const response = await app.inject({ method, url, headers: { authentication: token, 'content-type': 'application/json' }, ...(method === 'GET' ? { query: body as Record<string, string> } : { payload: JSON.stringify(body) }) });
  const reply = response.json();
  if (reply.code !== 0) throw new Error(`${url}: ${JSON.stringify(reply).slice(0, 500)}`);
  return reply.data;
}
const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await work();
  return [value, Math.round(performance.now() - started)];
};

const root = (await call('POST', '/api/manage/login/login', { username: 'bench', password: 'bench-password' })).token;
const customer = await call('POST', '/api/manage/user/create', { email: 'bench-import@example.com', password: 'customer-pass-1', is_verified: 1 }, root);
await call('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 1024 ** 4 }, root);
const domains: string[] = [];
for (let i = 0; i < DOMAINS; i++) {
  const name = `import${i}.example`;
  const created = await call('POST', '/api/manage/domain/create', { name, owner_id: customer.id }, root);
  await call('POST', '/api/manage/domain/update', { id: created.id, status: 'active' }, root);
  domains.push(name);
}
// PostfixAdmin's default: md5crypt, one salt shared by many mailboxes.
const hash = execFileSync('doveadm', ['pw', '-s', 'MD5-CRYPT', '-p', 'old-password-1'], { encoding: 'utf8' }).trim();
const mailboxes = Math.round(ROWS * 0.8);
const lines = ['type,address,name,password,password_hash,quota,active,destinations'];
for (let i = 0; i < mailboxes; i++) lines.push(`mailbox,user${i}@${domains[i % DOMAINS]},User ${i},,${hash},100M,1,`);
for (let i = 0; i < ROWS - mailboxes; i++) lines.push(`alias,alias${i}@${domains[i % DOMAINS]},,,,,1,user${i}@${domains[i % DOMAINS]} outside${i}@elsewhere.org`);
const csv = `${lines.join('\n')}\n`;

async function importFile(text: string) {
  const [dry, dryMs] = await timed(() => call('POST', '/api/manage/imports/csv_dry_run', { csv: text }, root));
  if (dry.errors.length) throw new Error(JSON.stringify(dry.errors.slice(0, 3)));
  const [run, startMs] = await timed(() => call('POST', '/api/manage/imports/csv_start', { csv: text }, root));
  const [, jobMs] = await timed(() => services.jobs.drain());
  const finished = await call('GET', '/api/manage/imports/get', { id: run.id }, root);
  if (finished.state !== 'done') throw new Error(`run ${run.id}: ${finished.state} ${finished.error}`);
  return { dry_run_ms: dryMs, start_ms: startMs, job_ms: jobMs, total_ms: dryMs + startMs + jobMs, created: finished.created };
}

console.log(`Importing ${ROWS} rows (${(csv.length / 1024 / 1024).toFixed(1)} MB) on ${services.dialect}…`);
const first = await importFile(csv);
console.log(first);
const again = await importFile(csv);
console.log('again', again);
const clearLines = ['type,address,password'];
for (let i = 0; i < CLEAR; i++) clearLines.push(`mailbox,clear${i}@${domains[0]},clear-password-${i}`);
const clear = await importFile(`${clearLines.join('\n')}\n`);
console.log('clear passwords', clear);
const weak = await call('GET', '/api/manage/imports/weak_hashes', {}, root);

const result = {
  when: new Date().toISOString(),
  database: services.dialect,
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`,
  batch_size: config.importBatchSize,
  rows: ROWS,
  file_bytes: csv.length,
  first,
  rows_per_second: Math.round(ROWS / (first.total_ms / 1000)),
  again,
  clear_passwords: { rows: CLEAR, ...clear, hashes_per_second: Math.round(CLEAR / (clear.job_ms / 1000)) },
  weak_hashes: weak,
};
const out = path.join('bench/results', services.dialect === 'postgres' ? 'imports-postgres.json' : 'imports.json');
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`Wrote ${out}`);
await maildesk.close();
await pgDatabase?.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
