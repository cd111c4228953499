/**
 * Each SQL statement of one mailbox creation on the PostgreSQL bench database: round-trip time
 * seen by the app and CPU time of the backend that ran it (its /proc schedstat), per mailbox.
 *   npx tsx bench/create-statements-pg.ts [count]
 */
import fs from 'node:fs';
import pg from 'pg';
import { startMaildesk } from '../server/start.js';
import { BENCH_PASSWORD, benchConfig, benchCustomer, benchDatabase, customerEmail, sizeOf } from './data.js';

const count = Number(process.argv[2] ?? 300);
const stats = new Map<string, { n: number; ns: number; cpu: number }>();
let recording = false;
const cpuOf = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
const original = pg.Client.prototype.query as (...args: any[]) => any;
(pg.Client.prototype as any).query = function (this: pg.Client & { processID: number }, ...args: any[]) {
  if (!recording || typeof args[args.length - 1] === 'function') return original.apply(this, args);
  const text = typeof args[0] === 'string' ? args[0] : args[0].text;
  const t = process.hrtime.bigint();
  const pid = this.processID;
  const c = cpuOf(pid);
  return Promise.resolve(original.apply(this, args)).finally(() => {
    const s = stats.get(text) ?? { n: 0, ns: 0, cpu: 0 };
    s.n++;
    s.ns += Number(process.hrtime.bigint() - t);
    s.cpu += cpuOf(pid) - c;
    stats.set(text, s);
  });
};

const size = sizeOf(Number(process.env.BENCH_SIZE ?? 20000));
const database = await benchDatabase('postgres', size, process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
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
  const mainCpu = Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  for (let i = 0; i < count; i++) await create();
  recording = false;
  // The main thread's CPU for the whole call (inject, validation, handler, statements), hashing aside (it runs on its threads).
  console.log(`main thread: ${((Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) - mainCpu) / 1000 / count).toFixed(0)} µs CPU per creation`);
  let [ns, cpu] = [0, 0];
  for (const s of stats.values()) [ns, cpu] = [ns + s.ns, cpu + s.cpu];
  for (const [text, s] of [...stats].sort((a, b) => b[1].cpu - a[1].cpu)) {
    console.log(`${(s.ns / 1000 / count).toFixed(1).padStart(8)} µs/mailbox (backend cpu ${(s.cpu / 1000 / count).toFixed(1).padStart(6)}) ${String(s.n / count).padStart(4)}×  ${text.replace(/\s+/g, ' ').slice(0, 220)}`);
  }
  console.log(`${(ns / 1000 / count).toFixed(1).padStart(8)} µs/mailbox (backend cpu ${(cpu / 1000 / count).toFixed(1)}) in PostgreSQL statements`);
} finally {
  await started.close();
  await database.drop();
}
