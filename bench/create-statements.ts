/**
 * Each SQL statement of one mailbox creation on the SQLite bench database, timed: the app
 * in-process (fastify.inject), better-sqlite3's statements wrapped. Hashing is excluded
 * (time spent outside statements is reported as the rest of the main thread).
 *   npx tsx bench/create-statements.ts [count]
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { startMaildesk } from '../server/start.js';
import { BENCH_PASSWORD, benchConfig, benchCustomer, benchDatabase, customerEmail, sizeOf } from './data.js';

const count = Number(process.argv[2] ?? 300);
const stats = new Map<string, { n: number; ns: bigint; cpu: number }>();
// This thread's CPU time (ns), which preemption by other processes does not inflate.
const cpuNs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
const writers: any[] = [];
const originalPragma = (Database as any).prototype.pragma;
(Database as any).prototype.pragma = function (this: any, ...args: unknown[]) {
  if (!writers.includes(this)) writers.push(this);
  return originalPragma.apply(this, args);
};
let recording = false;
const proto = (Database as any).prototype.prepare.call(new Database(':memory:'), 'select 1').constructor.prototype;
for (const method of ['run', 'all', 'get', 'iterate']) {
  const original = proto[method];
  proto[method] = function (this: { source: string }, ...args: unknown[]) {
    if (!recording) return original.apply(this, args);
    const t = process.hrtime.bigint();
    const c = cpuNs();
    try {
      return original.apply(this, args);
    } finally {
      const ns = process.hrtime.bigint() - t;
      const s = stats.get(this.source) ?? { n: 0, ns: 0n, cpu: 0 };
      s.n++;
      s.ns += ns;
      s.cpu += cpuNs() - c;
      stats.set(this.source, s);
    }
  };
}

const size = sizeOf(Number(process.env.BENCH_SIZE ?? 20000));
const database = await benchDatabase('sqlite', size);
const started = await startMaildesk(benchConfig(database), { deferJobs: true });
const { app } = started;
try {
  const call = async (url: string, payload: unknown, token = '') => {
    const res = await app.inject({ method: 'POST', url, payload: payload as any, headers: { authentication: token } });
    const body = res.json();
    if (body.code !== 0) throw new Error(`${url}: ${res.body}`);
    return body.data;
  };
  const token = (await call('/api/admin/login/login', { email: customerEmail(benchCustomer(size)), password: BENCH_PASSWORD })).token;
  const domain = (await call('/api/admin/domain/list', { page_size: 1 }, token)).list[0].id;
  // The password hashed once: every call sends it, and only the time outside hashing is wanted.
  let serial = 0;
  const create = () => call('/api/admin/email/create', { domain_id: domain, local_part: `s${serial++}`, password: 'bench-mailbox-1', quota: 1048576 }, token);
  for (let i = 0; i < 50; i++) await create();
  recording = true;
  const mainCpu = Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  let total = 0n;
  for (let i = 0; i < count; i++) {
    await create();
  }
  recording = false;
  // The main thread's CPU for the whole call (inject, validation, handler, statements), hashing aside (it runs on its threads).
  console.log(`main thread: ${((Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) - mainCpu) / 1000 / count).toFixed(0)} µs CPU per creation`);
  for (const s of stats.values()) total += s.ns;
  const rows = [...stats].sort((a, b) => Number(b[1].ns - a[1].ns));
  let cpu = 0;
  for (const s of stats.values()) cpu += s.cpu;
  for (const [source, s] of rows) console.log(`${(Number(s.ns) / 1000 / count).toFixed(1).padStart(8)} µs/mailbox (cpu ${(s.cpu / 1000 / count).toFixed(1).padStart(6)}) ${String(s.n / count).padStart(4)}×  ${source.replace(/\s+/g, ' ').slice(0, 260)}`);
  console.log(`${(Number(total) / 1000 / count).toFixed(1).padStart(8)} µs/mailbox in SQLite statements (cpu ${(cpu / 1000 / count).toFixed(1)})`);
  if (process.env.WAL_PAGES) {
    const writer = writers[0];
    writer.pragma('wal_checkpoint(truncate)');
    writer.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 100; i++) await create();
    const walPath = `${database.sqlitePath}-wal`;
    console.log(`WAL pages per creation: ${(fs.statSync(walPath).size / (writer.pragma('page_size', { simple: true }) + 24) / 100).toFixed(1)}`);
  }
} finally {
  await started.close();
  await database.drop();
}
