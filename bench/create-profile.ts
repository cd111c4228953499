/**
 * Where a created mailbox's CPU goes: the bench's creation load (8 at a time) against the
 * bench server child, with every thread's CPU time read from /proc before and after
 * (server main thread, its hashing threads, the rest of the child, this client, PostgreSQL).
 *   npx tsx bench/create-profile.ts [sqlite|postgres] [seconds] [extra node flags for the child…]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { hashPassword } from '../server/core/passwords.js';
import { BENCH_PASSWORD, benchCustomer, benchDatabase, customerEmail, sizeOf } from './data.js';

const [dialect = 'sqlite', seconds = '8', ...nodeFlags] = process.argv.slice(2);
const size = sizeOf(Number(process.env.BENCH_SIZE ?? 20000));
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(port: number, url: string, body: unknown, token = ''): Promise<any> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: url, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authentication: token } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** CPU ms per thread of a process: name → ms (threads of one name summed, the main thread as 'main'). */
function threads(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      // schedstat: time on a CPU in ns (stat's utime/stime are sampled at the 100 Hz tick).
      const ms = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      const name = Number(tid) === pid ? 'main' : `${fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()}#${tid}`;
      out.set(name, (out.get(name) ?? 0) + ms);
      if (process.env.FAULTS) {
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // minor faults, voluntary + involuntary context switches: shown per item as µs columns
        out.set(`${name} minflt`, Number(fields[7]));
        const status = fs.readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
        out.set(`${name} nvcsw`, Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)![1]));
      }
    } catch {}
  }
  return out;
}
function postgresCpu(): number {
  let ms = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      ms += Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {}
  }
  return ms;
}
const diff = (a: Map<string, number>, b: Map<string, number>) => new Map([...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)]));

const database = await benchDatabase(dialect as any, size, process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'bench/serve.ts', 'serve', JSON.stringify(database)], { stdio: ['ignore', 'pipe', 'inherit'] });
const ports = await new Promise<any>((resolve) => {
  let out = '';
  child.stdout!.on('data', (c) => {
    out += c;
    if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
  });
});
try {
  const token = (await post(ports.maildesk, '/api/admin/login/login', { email: customerEmail(benchCustomer(size)), password: BENCH_PASSWORD })).data.token;
  const domain = (await post(ports.maildesk, '/api/admin/domain/list', { page_size: 1 }, token)).data.list[0].id;
  let serial = 0;
  const create = async () => {
    const answer = await post(ports.maildesk, '/api/admin/email/create', { domain_id: domain, local_part: `p${process.pid}x${serial++}`, password: 'bench-mailbox-1', quota: 1048576 }, token);
    if (answer.code !== 0) throw new Error(JSON.stringify(answer));
  };
  const run = async (ms: number, work: () => Promise<void>) => {
    const end = Date.now() + ms;
    let n = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (Date.now() < end) {
        await work();
        n++;
      }
    }));
    return n;
  };
  await run(2000, create); // warm-up
  if (process.env.PROBE_FLOOR) {
    // The request path alone: me/info, 8 at a time.
    const info = async () => void (await post(ports.maildesk, '/api/admin/me/info', {}, token));
    await run(1000, info);
    const [cb, sb] = [threads(child.pid!), threads(process.pid)];
    const n = await run(4000, info);
    const [cc, sc] = [diff(cb, threads(child.pid!)), diff(sb, threads(process.pid))];
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    console.log(`me/info: ${n} calls; server main ${((cc.get('main')! / n) * 1000).toFixed(0)} µs, server all ${((sum(cc) / n) * 1000).toFixed(0)} µs, client all ${((sum(sc) / n) * 1000).toFixed(0)} µs per call`);
  }

  // Raw argon2 in this process, for the reference.
  const selfBefore = threads(process.pid);
  let t = Date.now();
  const hashed = await run(Number(seconds) * 1000, async () => void (await hashPassword('bench-mailbox-1')));
  const hashMs = Date.now() - t;
  const selfAfter = diff(selfBefore, threads(process.pid));

  // PERF=1: perf samples the server's main thread (on CPU only) during the creation phase (child flag --perf-basic-prof names JIT frames).
  const perf = process.env.PERF ? spawn('perf', ['record', '-F', '2999', '-g', '-t', String(child.pid), '-o', '/tmp/perf.data'], { stdio: 'ignore' }) : undefined;
  const [childBefore, clientBefore, pgBefore] = [threads(child.pid!), threads(process.pid), postgresCpu()];
  t = Date.now();
  const created = await run(Number(seconds) * 1000, create);
  const createMs = Date.now() - t;
  const [childCpu, clientCpu, pgCpu] = [diff(childBefore, threads(child.pid!)), diff(clientBefore, threads(process.pid)), postgresCpu() - pgBefore];
  if (perf) {
    perf.kill('SIGINT');
    await new Promise((resolve) => perf.once('exit', resolve));
  }

  const per = (ms: number, n: number) => ((ms / n) * 1000).toFixed(0).padStart(7);
  console.log(`raw argon2: ${hashed} in ${hashMs} ms = ${((hashed / hashMs) * 1000).toFixed(1)}/s`);
  for (const [name, ms] of selfAfter) if (ms > 0) console.log(`  bench ${name.padEnd(28)} ${per(ms, hashed)} µs/hash`);
  console.log(`created: ${created} in ${createMs} ms = ${((created / createMs) * 1000).toFixed(1)}/s  ratio ${((created / createMs) / (hashed / hashMs)).toFixed(3)}`);
  let total = 0;
  for (const [name, ms] of [...childCpu].sort((a, b) => b[1] - a[1])) {
    if (ms <= 0) continue;
    total += ms;
    console.log(`  server ${name.padEnd(27)} ${per(ms, created)} µs/mailbox`);
  }
  for (const [name, ms] of clientCpu) {
    if (ms <= 0) continue;
    total += ms;
    console.log(`  client ${name.padEnd(27)} ${per(ms, created)} µs/mailbox`);
  }
  if (dialect === 'postgres') {
    total += pgCpu;
    console.log(`  postgres (all processes)           ${per(pgCpu, created)} µs/mailbox`);
  }
  console.log(`  total                              ${per(total, created)} µs/mailbox; wall×2 cores ${per(createMs * 2, created)} µs/mailbox`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await database.drop();
  agent.destroy();
}
