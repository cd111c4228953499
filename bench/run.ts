/**
 * `npm run bench`: Maildesk against a bare Fastify server on the same database, at two sizes
 * (BENCH_SIZES, mailboxes: default 20000 and 1000000), on SQLite and, when DATABASE_URL
 * names a PostgreSQL server, on PostgreSQL too (BENCH_DIALECTS=sqlite|postgres to pick one).
 * Each server runs in a child process of its own (bench/serve.ts); this process generates the load,
 * alternating Maildesk and the bare server round by round, so that the machine's drift
 * (2 shared cores) hits both alike: ratios are the figures to read, not absolute numbers.
 * Prints a table of every figure with its goal and writes bench/results/api-<database>.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Dialect } from '../server/db/index.js';
import { BENCH_PASSWORD, benchCustomer, benchDatabase, customerEmail, OPERATOR, sizeOf, type BenchDatabase, type Size } from './data.js';

const SIZES = (process.env.BENCH_SIZES ?? '20000,1000000').split(',').map(Number);
const DIALECTS = (process.env.BENCH_DIALECTS?.split(',') ?? (process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'])) as Dialect[];
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARM_MS = Number(process.env.BENCH_WARM_MS ?? 2000);
const CONCURRENCY = 4;
// Which parts to run (all by default): startup, throughput, lists, create.
const PARTS = new Set((process.env.BENCH_PARTS ?? 'startup,throughput,lists,create').split(','));
const PROBE_PAUSE_MS = 10;
const PG_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// ---------------------------------------------------------------- HTTP load
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Answer {
  status: number;
  body: any;
  ms: number;
}

// The calls that take their parameters as a query string (resources' listVia: 'query').
const byQuery = /^\/api\/(admin|manage)\/(alias|alias_domain|email_template|guest_message|email_send_log)\/list$/;

function request(port: number, url: string, body: unknown, token = ''): Promise<Answer> {
  const get = byQuery.test(url);
  const query = new URLSearchParams(Object.entries((body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]));
  const payload = get ? '' : JSON.stringify(body ?? {});
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: get ? `${url}?${query}` : url, method: get ? 'GET' : 'POST', agent, headers: { ...(get ? {} : { 'content-type': 'application/json' }), 'content-length': Buffer.byteLength(payload), authentication: token, 'accept-language': 'en' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - start) / 1e6;
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), ms });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function ok(port: number, url: string, body: unknown, token = '') {
  const answer = await request(port, url, body, token);
  if (answer.body.code !== 0) throw new Error(`${url} answered ${JSON.stringify(answer.body)}`);
  return answer;
}

/** `concurrency` loops calling `call` for `ms`; every latency and the count. */
async function load(ms: number, concurrency: number, call: () => Promise<Answer>) {
  const end = Date.now() + ms;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const answer = await call();
        if (answer.body.code !== 0) throw new Error(`answered ${JSON.stringify(answer.body)}`);
        latencies.push(answer.ms);
      }
    }),
  );
  return latencies;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(2) : NaN;
};
const round2 = (n: number) => +n.toFixed(2);

/**
 * CPU time a process has used (every thread's, in ns; Linux's /proc, 0 elsewhere). Per request,
 * it is the figure the other work on a shared machine moves least: a round's rate falls when
 * another process takes the cores, its CPU per request does not.
 */
function cpuNs(pid: number | undefined): number {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]), 0);
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------- child servers
function child(args: string[]): { process: ChildProcess; line: Promise<any> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/serve.ts', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = new Promise<any>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    proc.on('exit', (code) => reject(new Error(`bench/serve.ts ${args[0]} exited with ${code}`)));
  });
  return { process: proc, line };
}

// ---------------------------------------------------------------- one size on one database
interface Figure {
  figure: string;
  unit: string;
  maildesk: number;
  bare?: number;
  ratio?: number;
  goal: string;
  met?: boolean;
  p50_ms?: number;
  bare_p50_ms?: number;
  /** The serving process's CPU per request (µs; medians of the rounds), and the median of bare's divided by Maildesk's round by round: the rate ratio without the machine's other work. */
  cpu_us_per_request?: number;
  bare_cpu_us_per_request?: number;
  cpu_ratio?: number;
  total?: number;
  total_is_estimate?: boolean;
}

async function measure(dialect: Dialect, size: Size) {
  const database: BenchDatabase = await benchDatabase(dialect, size, PG_SERVER);
  const options = JSON.stringify(database);
  const figures: Figure[] = [];
  try {
    // Start-up, alternating (each a process of its own on the same database).
    if (PARTS.has('startup')) {
      const starts: Record<'maildesk' | 'bare', number[]> = { maildesk: [], bare: [] };
      for (let i = 0; i < 3; i++) {
        for (const which of i % 2 ? (['bare', 'maildesk'] as const) : (['maildesk', 'bare'] as const)) {
          const run = child(['startup', which, options]);
          starts[which].push((await run.line).ms);
        }
      }
      const startMaildesk = percentile(starts.maildesk, 0.5);
      const startBare = percentile(starts.bare, 0.5);
      figures.push({ figure: 'start-up', unit: 'ms', maildesk: startMaildesk, bare: startBare, ratio: round2(startMaildesk / startBare), goal: '≤ 2× bare', met: startMaildesk / startBare <= 2 });
    }

    // Each server in a process of its own: in one, they share Fastify's and Node's code, and V8's
    // feedback on it (the shapes each call site has seen) mixed both servers' objects, costing one or the other.
    const servers = { maildesk: child(['serve', options, 'maildesk']), bare: child(['serve', options, 'bare']) };
    const ports = { maildesk: (await servers.maildesk.line).maildesk as number, bare: (await servers.bare.line).bare as number };
    try {
      const operator = (await ok(ports.maildesk, '/api/manage/login/login', OPERATOR)).body.data.token as string;
      const customer = (await ok(ports.maildesk, '/api/admin/login/login', { email: customerEmail(benchCustomer(size)), password: BENCH_PASSWORD })).body.data.token as string;

      // The same answers, or the comparison means nothing.
      for (const [url, body] of [['/api/admin/me/info', {}], ['/api/admin/email/list', { page_size: 100 }]] as const) {
        const [a, b] = [await ok(ports.maildesk, url, body, customer), await ok(ports.bare, url, body, customer)];
        // Same keys and values; key order and Maildesk's count labels aside.
        const strip = (data: any) =>
          JSON.stringify(data, (key, value) =>
            key === 'total_is_estimate' ? undefined : value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
          );
        if (strip(a.body.data) !== strip(b.body.data)) throw new Error(`${url}: Maildesk and the bare server disagree:\n${strip(a.body.data).slice(0, 400)}\n${strip(b.body.data).slice(0, 400)}`);
      }

      // Throughput, A/B alternated round by round (ABBA), same concurrency.
      for (const [name, url, body] of !PARTS.has('throughput') ? [] : [
        ['me/info', '/api/admin/me/info', {}],
        ['customer email/list page 1 (100 mailboxes)', '/api/admin/email/list', { page_size: 100 }],
      ] as const) {
        const lat: Record<'maildesk' | 'bare', number[]> = { maildesk: [], bare: [] };
        const time: Record<'maildesk' | 'bare', number> = { maildesk: 0, bare: 0 };
        // Each round's CPU per request (µs), paired with the other server's round beside it.
        const cpu: Record<'maildesk' | 'bare', number[]> = { maildesk: [], bare: [] };
        // Both warmed until V8 has compiled their hot paths: a server answers warm for days, and a
        // Maildesk round started cold took 3× a warm one's CPU per request (318 µs against 107 µs).
        for (let w = 0; w < 2; w++) for (const which of ['maildesk', 'bare'] as const) await load(WARM_MS, CONCURRENCY, () => request(ports[which], url, body, customer));
        for (let r = 0; r < ROUNDS; r++) {
          for (const which of r % 2 ? (['bare', 'maildesk'] as const) : (['maildesk', 'bare'] as const)) {
            const [t, used] = [Date.now(), cpuNs(servers[which].process.pid)];
            const answered = await load(ROUND_MS, CONCURRENCY, () => request(ports[which], url, body, customer));
            lat[which].push(...answered);
            time[which] += Date.now() - t;
            cpu[which].push((cpuNs(servers[which].process.pid) - used) / 1000 / answered.length);
          }
        }
        const rps = (which: 'maildesk' | 'bare') => round2((lat[which].length / time[which]) * 1000);
        const ratio = round2(rps('maildesk') / rps('bare'));
        const median = (values: number[]) => percentile(values, 0.5);
        // The median of the rounds' ratios: a burst of other work (the machine's, or Maildesk's jobs in the same process) moves one round, not the figure.
        const cpuPer = (which: 'maildesk' | 'bare') => round2(median(cpu[which]));
        const cpuRatio = round2(median(cpu.bare.map((bare, i) => bare / cpu.maildesk[i])));
        figures.push({
          figure: `${name}: req/s at concurrency ${CONCURRENCY}`,
          unit: 'req/s',
          maildesk: rps('maildesk'),
          bare: rps('bare'),
          ratio,
          goal: '≥ 0.8 of bare',
          met: ratio >= 0.8,
          p50_ms: percentile(lat.maildesk, 0.5),
          bare_p50_ms: percentile(lat.bare, 0.5),
          ...(cpu.maildesk[0] > 0 ? { cpu_us_per_request: cpuPer('maildesk'), bare_cpu_us_per_request: cpuPer('bare'), cpu_ratio: cpuRatio } : {}),
        });
      }

      // Operator lists and searches: latency of one request at a time.
      const customerNumber = benchCustomer(size);
      const someDomain = Math.min(777, size.domains);
      const someMailbox = Math.min(4242, size.mailboxes);
      const lists: [string, string, Record<string, unknown>, number][] = [
        ['operator email/list page 1 (newest)', '/api/manage/email/list', {}, 20],
        ['operator email/list page 1 by address', '/api/manage/email/list', { sort: 'address', order: 'asc' }, 20],
        ['operator email/list of one customer', '/api/manage/email/list', { filter: { owner_id: customerNumber } }, 20],
        ['operator email/list search by address (q=user4242)', '/api/manage/email/list', { q: `user${someMailbox}` }, 50],
        ['operator email/list search by domain (q=d777.example)', '/api/manage/email/list', { q: `d${someDomain}.example` }, 50],
        ['operator email/list search q="User 42" (name)', '/api/manage/email/list', { q: 'User 42' }, 50],
        ['operator alias/list page 1', '/api/manage/alias/list', {}, 20],
        ['operator alias/list search by address (q=alias4242)', '/api/manage/alias/list', { q: `alias${someMailbox}` }, 50],
        ['operator domain/list page 1', '/api/manage/domain/list', {}, 20],
        ['operator domain/list search by name (q=d777)', '/api/manage/domain/list', { q: `d${someDomain}` }, 50],
        ['operator user/list page 1', '/api/manage/user/list', {}, 20],
        ['operator user/list search by e-mail (q=customer<n>)', '/api/manage/user/list', { q: `customer${customerNumber}` }, 50],
        ['operator log/list page 1 (newest)', '/api/manage/log/list', {}, 20],
        ['operator log/list failed sign-ins', '/api/manage/log/list', { filter: { action: 'login_failed' } }, 20],
        ['operator log/list of one IP', '/api/manage/log/list', { filter: { ip: '10.0.42.1' } }, 20],
        ['customer log/list page 1', '/api/admin/log/list', {}, 20],
      ];
      for (const [name, url, body, goalMs] of PARTS.has('lists') ? lists : []) {
        const token = url.startsWith('/api/admin/') ? customer : operator;
        await ok(ports.maildesk, url, body, token);
        const times: number[] = [];
        let last: any;
        for (let i = 0; i < RUNS; i++) {
          const answer = await ok(ports.maildesk, url, body, token);
          times.push(answer.ms);
          last = answer.body.data;
        }
        const p50 = percentile(times, 0.5);
        figures.push({
          figure: name,
          unit: 'ms p50',
          maildesk: p50,
          goal: `< ${goalMs} ms p50`,
          met: p50 < goalMs,
          total: last.total,
          total_is_estimate: last.total_is_estimate ?? false,
        });
      }

      // Bulk creation, 8 at a time, against the bare server doing the same over HTTP (the session,
      // the body, argon2id with our parameters on the same hashing threads, one row), alternated
      // round by round; and me/info while Maildesk creates.
      if (PARTS.has('create')) {
        const idle = percentile(
          (await load(1000, 1, () => request(ports.maildesk, '/api/admin/me/info', {}, customer))),
          0.5,
        );
        const domain = (await ok(ports.maildesk, '/api/admin/domain/list', { page_size: 1 }, customer)).body.data.list[0].id as number;
        let serial = 0;
        const create = (which: 'maildesk' | 'bare') => () =>
          request(ports[which], '/api/admin/email/create', { domain_id: domain, local_part: `bench${process.pid}${which[0]}${serial++}`, password: 'bench-mailbox-1', quota: 1048576 }, customer);
        // The same answer, or the comparison means nothing.
        for (const which of ['maildesk', 'bare'] as const) {
          const made = (await ok(ports[which], '/api/admin/email/create', { domain_id: domain, local_part: `check${process.pid}${which}`, password: 'bench-mailbox-1', quota: 1048576 }, customer)).body.data;
          if (!made.id || made.address !== `check${process.pid}${which}@${made.address.split('@')[1]}`) throw new Error(`${which} email/create answered ${JSON.stringify(made)}`);
        }
        const windowMs = Math.max(ROUND_MS * 2, 3000);
        // One me/info every PROBE_PAUSE_MS in both phases: a user's clicks, not a second load. A
        // probe in a tight loop takes a core's share from the hashing it measures, more so the
        // quicker the server answers; the bare phase carries the same probe.
        const probe = async (during: number[], busy: () => boolean) => {
          while (busy()) {
            during.push((await ok(ports.maildesk, '/api/admin/me/info', {}, customer)).ms);
            await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS));
          }
        };
        const made: Record<'maildesk' | 'bare', number> = { maildesk: 0, bare: 0 };
        const time: Record<'maildesk' | 'bare', number> = { maildesk: 0, bare: 0 };
        const during: number[] = [];
        await load(1000, 8, create('maildesk'));
        await load(1000, 8, create('bare'));
        for (let r = 0; r < ROUNDS; r++) {
          for (const which of r % 2 ? (['bare', 'maildesk'] as const) : (['maildesk', 'bare'] as const)) {
            const t = Date.now();
            let creating = true;
            const creators = load(windowMs, 8, create(which)).then((l) => {
              creating = false;
              return l;
            });
            await probe(which === 'maildesk' ? during : [], () => creating);
            made[which] += (await creators).length;
            time[which] += Date.now() - t;
          }
        }
        const busy = percentile(during, 0.5);
        figures.push({ figure: 'me/info p50 while 8 mailboxes are created', unit: 'ms p50', maildesk: busy, bare: idle, ratio: round2(busy / idle), goal: '< 5 ms p50', met: busy < 5 });
        const rate = (which: 'maildesk' | 'bare') => round2((made[which] / time[which]) * 1000);
        const ratio = round2(rate('maildesk') / rate('bare'));
        figures.push({ figure: 'mailbox creation, 8 at a time', unit: 'per s', maildesk: rate('maildesk'), bare: rate('bare'), ratio, goal: '≥ 0.9 of bare', met: ratio >= 0.9 });
      }
    } finally {
      for (const { process: server } of Object.values(servers)) {
        server.kill('SIGTERM');
        await new Promise((resolve) => server.once('exit', resolve));
      }
    }
  } finally {
    await database.drop();
  }
  return figures;
}

// ---------------------------------------------------------------- the run
const pad = (s: string | number | undefined, n: number) => String(s ?? '').padStart(n);
for (const dialect of DIALECTS) {
  const bySize: Record<number, Figure[]> = {};
  for (const mailboxes of SIZES) {
    const size = sizeOf(mailboxes);
    console.log(`\n${dialect}, ${mailboxes.toLocaleString('en')} mailboxes (${size.customers} customers, ${size.domains} domains, ${size.aliases} aliases, ${size.logRows} log rows)`);
    bySize[mailboxes] = await measure(dialect, size);
    console.log(`${'figure'.padEnd(58)} ${pad('Maildesk', 10)} ${pad('bare', 10)} ${pad('ratio', 6)}  goal`);
    for (const f of bySize[mailboxes]) {
      const extra =
        f.total !== undefined
          ? ` (total ${f.total}${f.total_is_estimate ? ', estimate' : ''})`
          : f.cpu_ratio !== undefined
            ? ` (CPU per request ${f.cpu_us_per_request} µs, bare ${f.bare_cpu_us_per_request} µs: ratio ${f.cpu_ratio})`
            : '';
      console.log(`${f.figure.padEnd(58)} ${pad(f.maildesk, 10)} ${pad(f.bare, 10)} ${pad(f.ratio, 6)}  ${f.goal.padEnd(22)} ${f.met ? 'met' : 'NOT MET'}${extra}`);
    }
  }
  // Growth from the smallest to the largest size: latencies should not follow the table size.
  const [small, large] = [Math.min(...SIZES), Math.max(...SIZES)];
  const growth =
    small === large
      ? []
      : bySize[large].map((f) => {
          const before = bySize[small].find((g) => g.figure === f.figure) ?? f;
          const latency = f.unit.startsWith('ms') ? f.maildesk : f.p50_ms;
          const latencyBefore = before.unit.startsWith('ms') ? before.maildesk : before.p50_ms;
          return { figure: f.figure, [`at_${small}`]: latencyBefore, [`at_${large}`]: latency, growth: latency && latencyBefore ? round2(latency / latencyBefore) : null };
        });
  if (growth.length) {
    console.log(`\nGrowth of each latency from ${small.toLocaleString('en')} to ${large.toLocaleString('en')} mailboxes (×${large / small} rows):`);
    for (const g of growth) console.log(`${g.figure.padEnd(58)} ×${g.growth}`);
  }
  // A run of some parts only (BENCH_PARTS) is written beside the full run's results, not over them.
  const parts = ['startup', 'throughput', 'lists', 'create'].filter((p) => PARTS.has(p));
  const out = path.resolve('bench/results', parts.length === 4 ? `api-${dialect}.json` : `api-${dialect}-${parts.join('-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    `${JSON.stringify(
      {
        database: dialect,
        note: 'Maildesk and the bare reference server (bench/bare.ts) each in a child process of its own, both warmed first, load from this one, alternated round by round; read the ratios',
        // bench/serve.ts: Maildesk logs as npm start does unless BENCH_LOG=off.
        log: process.env.BENCH_LOG === 'off' ? 'off' : 'info, as npm start (to /dev/null)',
        node: process.version,
        cpus: os.cpus().length,
        load_average: os.loadavg().map(round2),
        date: new Date().toISOString(),
        concurrency: CONCURRENCY,
        round_ms: ROUND_MS,
        rounds: ROUNDS,
        runs_per_list: RUNS,
        sizes: Object.fromEntries(SIZES.map((m) => [m, { ...sizeOf(m), figures: bySize[m] }])),
        growth,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Written to ${out}`);
}
agent.destroy();
