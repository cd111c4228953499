/**
 * Each SQL statement of one mailbox creation on a bench database, timed per mailbox: the app
 * in-process (fastify.inject), with the driver's statements wrapped. Hashing runs on its own
 * threads and is left out; the main thread's CPU per creation is reported as a whole.
 *   SQLite: the statement's time and this thread's CPU during it (better-sqlite3 runs in it).
 *   PostgreSQL: the round trip seen by the app and the CPU of the backend that ran it.
 *   npx tsx bench/create-statements.ts [sqlite|postgres] [count]     (WAL_PAGES=1: SQLite's WAL pages per creation)
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startMaildesk } from '../server/start.js';
import { BENCH_PASSWORD, benchConfig, benchCustomer, benchDatabase, customerEmail, sizeOf } from './data.js';

const dialect = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const count = Number(process.argv[3] ?? 300);
const stats = new Map<string, { n: number; ns: number; cpu: number }>();
let recording = false;
// CPU time (ns) of a thread or process, which preemption by other processes does not inflate.
const cpuNs = (of = 'thread-self') => Number(fs.readFileSync(`/proc/${of}/schedstat`, 'utf8').split(' ')[0]);
const record = (text: string, started: bigint, cpu: number) => {
  const s = stats.get(text) ?? { n: 0, ns: 0, cpu: 0 };
  s.n++;
  s.ns += Number(process.hrtime.bigint() - started);
  s.cpu += cpu;
  stats.set(text, s);
};

const writers: any[] = [];
if (dialect === 'sqlite') {
  const originalPragma = (Database as any).prototype.pragma;
  (Database as any).prototype.pragma = function (this: any, ...args: unknown[]) {
    if (!writers.includes(this)) writers.push(this);
    return originalPragma.apply(this, args);
  };
  const proto = (Database as any).prototype.prepare.call(new Database(':memory:'), 'select 1').constructor.prototype;
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = proto[method];
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (!recording) return original.apply(this, args);
      const [t, c] = [process.hrtime.bigint(), cpuNs()];
      try {
        return original.apply(this, args);
      } finally {
        record(this.source, t, cpuNs() - c);
      }
    };
  }
} else {
  const original = pg.Client.prototype.query as (...args: any[]) => any;
  (pg.Client.prototype as any).query = function (this: pg.Client & { processID: number }, ...args: any[]) {
    if (!recording || typeof args[args.length - 1] === 'function') return original.apply(this, args);
    const text = typeof args[0] === 'string' ? args[0] : args[0].text;
    const [t, pid] = [process.hrtime.bigint(), this.processID];
    const c = cpuNs(String(pid));
    return Promise.resolve(original.apply(this, args)).finally(() => record(text, t, cpuNs(String(pid)) - c));
  };
}

const size = sizeOf(Number(process.env.BENCH_SIZE ?? 20000));
const database = await benchDatabase(dialect, size, process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
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
  let serial = 0;
  const create = () => call('/api/admin/email/create', { domain_id: domain, local_part: `s${serial++}`, password: 'bench-mailbox-1', quota: 1048576 }, token);
  for (let i = 0; i < 50; i++) await create();
  recording = true;
  const mainCpu = cpuNs();
  for (let i = 0; i < count; i++) await create();
  recording = false;
  // The main thread's CPU for the whole call (inject, validation, handler, statements), hashing aside.
  console.log(`main thread: ${((cpuNs() - mainCpu) / 1000 / count).toFixed(0)} µs CPU per creation`);
  const where = dialect === 'sqlite' ? 'cpu' : 'backend cpu';
  let [ns, cpu] = [0, 0];
  for (const [text, s] of [...stats].sort((a, b) => b[1].cpu - a[1].cpu)) {
    [ns, cpu] = [ns + s.ns, cpu + s.cpu];
    console.log(`${(s.ns / 1000 / count).toFixed(1).padStart(8)} µs/mailbox (${where} ${(s.cpu / 1000 / count).toFixed(1).padStart(6)}) ${String(s.n / count).padStart(4)}×  ${text.replace(/\s+/g, ' ').slice(0, 240)}`);
  }
  console.log(`${(ns / 1000 / count).toFixed(1).padStart(8)} µs/mailbox (${where} ${(cpu / 1000 / count).toFixed(1)}) in ${dialect} statements`);
  if (dialect === 'sqlite' && process.env.WAL_PAGES) {
    const writer = writers[0];
    writer.pragma('wal_checkpoint(truncate)');
    writer.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 100; i++) await create();
    console.log(`WAL pages per creation: ${(fs.statSync(`${database.sqlitePath}-wal`).size / (writer.pragma('page_size', { simple: true }) + 24) / 100).toFixed(1)}`);
  }
} finally {
  await started.close();
  await database.drop();
}
