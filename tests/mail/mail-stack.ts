/**
 * A whole Maildesk mail server on loopback, configured only by `npm run deploy:config`: the
 * panel as its own process, Postfix and Dovecot from Debian's packages, on SQLite or on a
 * fresh PostgreSQL database with the generated least-privilege roles. Started and removed by the suite.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { seedStatements } from './lookups.js';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../..');
export const ROOT_OPERATOR = { username: 'root', password: 'root-password-1' };
export const MAIL_HOSTNAME = 'mx.maildesk.test';
/** Messages per minute one client may submit (--submission-rate). */
export const SUBMISSION_RATE = 20;

/**
 * A port for a daemon to listen on, below the range the kernel hands out for outgoing connections
 * and listen(0) (ip_local_port_range, 32768–60999 here): a port found free there stays free until the
 * daemon binds it, whatever else runs beside. (One found by listen(0) was taken meanwhile as the local
 * port of some other process's connection, and rspamd could not start: CI.) Each test worker draws
 * from its own band, so two stacks starting at once do not pick the same one.
 */
const lowestEphemeral = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
const band = (Math.max(1, Number(process.env.VITEST_POOL_ID ?? 1)) - 1) % 4;
const bandSize = Math.floor((lowestEphemeral - 10_000) / 4);
const handedOut = new Set<number>();
async function freePort(): Promise<number> {
  for (;;) {
    const port = 10_000 + band * bandSize + crypto.randomInt(bandSize);
    if (handedOut.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (!free) continue;
    handedOut.add(port);
    return port;
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

const portOpen = (port: number, host = '127.0.0.1') =>
  new Promise<true | undefined>((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(undefined));
  });

export const postgresServerUrl = () => process.env.MAIL_TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function pgQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

export type Backend = 'sqlite' | 'postgres';

/**
 * What the outside world is: `relayhost` ("[127.0.0.1]:port"), where Postfix sends mail for other domains (an SMTP sink).
 * `stores`: several hosts (issue 34): this machine's Postfix and Dovecot are a front (deploy:config --role front), and
 * that many mail stores (--role store), each its own Dovecot and mail directory on a loopback address of its own.
 */
export interface StackOptions {
  relayhost?: string;
  stores?: number;
}

/** `panelEnv`: more of the panel's settings (e.g. MAILBOX_DELETE_MODE). */
export async function startMailStack(backend: Backend, dnsServers: string, panelEnv: Record<string, string> = {}, options: StackOptions = {}) {
  if (process.getuid?.() !== 0) throw new Error('npm run test:mail starts Postfix and Dovecot: run it as root, after deploy/install-mail-packages.sh');
  // What has been started so far, undone in reverse order if a later step fails.
  const undo: (() => Promise<unknown> | unknown)[] = [];
  try {
    return await startSteps(backend, dnsServers, undo, panelEnv, options);
  } catch (error) {
    for (const step of undo.reverse()) await Promise.resolve().then(step).catch(() => undefined);
    throw error;
  }
}

async function startSteps(backend: Backend, dnsServers: string, undo: (() => Promise<unknown> | unknown)[], extraEnv: Record<string, string>, options: StackOptions) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `maildesk-mail-${backend}-`));
  fs.chmodSync(dir, 0o755);
  undo.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const id = crypto.randomBytes(4).toString('hex');
  const ports = {
    panel: await freePort(),
    smtp: await freePort(),
    submission: await freePort(),
    dkim: await freePort(),
    imap: await freePort(),
    pop3: await freePort(),
    lmtp: await freePort(),
    reinject: await freePort(),
    srsForward: await freePort(),
    srsReverse: await freePort(),
    quota: await freePort(),
    rspamdMilter: await freePort(),
    rspamdController: await freePort(),
    clamd: await freePort(),
  };
  const paths = {
    data: path.join(dir, 'data'),
    conf: path.join(dir, 'conf'),
    mail: path.join(dir, 'vmail'),
    logs: path.join(dir, 'log'),
    /** Node's diagnostic reports of the panel (stopPanel). */
    reports: path.join(dir, 'reports'),
    queue: path.join(dir, 'postfix-queue'),
    postfixData: path.join(dir, 'postfix-data'),
    dovecotRun: path.join(dir, 'dovecot-run'),
    dovecotState: path.join(dir, 'dovecot-state'),
    rspamdRun: path.join(dir, 'rspamd-run'),
    clamdb: path.join(dir, 'clamdb'),
  };
  // The queue directory is made by deploy:config (deploy/README.md), the others by the provider.
  for (const [name, p] of Object.entries(paths)) if (name !== 'queue') fs.mkdirSync(p, { recursive: true });
  fs.chownSync(paths.postfixData, uid('postfix'), 0);
  fs.chownSync(paths.mail, uid('mail'), gid('mail'));
  // As deploy/README.md says: the SQLite directory belongs to the postfix group (Postfix's daemons
  // keep only their primary group), setgid, and the panel runs with umask 007.
  fs.chownSync(paths.data, 0, gid('postfix'));
  fs.chmodSync(paths.data, 0o2770);
  // A self-signed certificate: logins only over TLS.
  const tls = { cert: path.join(dir, 'mail.pem'), key: path.join(dir, 'mail.key') };
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${MAIL_HOSTNAME}`, '-keyout', tls.key, '-out', tls.cert]);

  // postsrsd's secret (Debian's package makes /etc/postsrsd.secret).
  const srsSecret = path.join(dir, 'postsrsd.secret');
  fs.writeFileSync(srsSecret, `${crypto.randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });

  const serverUrl = postgresServerUrl();
  const database = `maildesk_mail_${id}`;
  const roles = { postfix: `maildesk_pf_${id}`, dovecot: `maildesk_dv_${id}`, opendkim: `maildesk_dk_${id}` };
  // The database belongs to a login role that is no superuser: it runs the migrations (the
  // panel) and postgres-roles.sql, as deploy/README.md says.
  const owner = `maildesk_owner_${id}`;
  let databaseUrl: string | undefined;
  if (backend === 'postgres') {
    await pgQuery(serverUrl, `CREATE ROLE ${owner} LOGIN NOSUPERUSER CREATEROLE`);
    await pgQuery(serverUrl, `CREATE DATABASE ${database} OWNER ${owner}`);
    undo.push(async () => {
      await pgQuery(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      for (const role of [...Object.values(roles), owner]) await pgQuery(serverUrl, `DROP ROLE IF EXISTS ${role}`);
    });
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    url.username = owner;
    databaseUrl = url.toString();
  }

  // What rspamd presents to the panel to read the spam maps and report (deploy:config --panel-token).
  const mailServerToken = crypto.randomBytes(18).toString('base64url');
  // Each backend its own Redis database (rspamd's Bayes), emptied first.
  const redisDb = backend === 'sqlite' ? 14 : 15;
  await run('redis-cli', ['-h', '127.0.0.1', '-p', '6379', '-n', String(redisDb), 'FLUSHDB']);
  // Bringing the mail: the master user the panel's mail copies log in with (deploy:config --copy-master).
  const copyMaster = { user: 'maildesk-copy', password: crypto.randomBytes(18).toString('base64url') };
  const panelEnv = {
    ...process.env,
    MAIL_COPY_IMAP: `imap://127.0.0.1:${ports.imap}?verify=0`,
    MAIL_COPY_MASTER_USER: copyMaster.user,
    MAIL_COPY_MASTER_PASSWORD: copyMaster.password,
    // The old IMAP server of the suite runs on this machine, which a copy reaches only when the operator allows it.
    MAIL_COPY_ALLOW_NETWORKS: '127.0.0.1/32',
    SECRET_KEY: crypto.randomBytes(32).toString('base64'),
    MAIL_SERVER_TOKEN: mailServerToken,
    DATA_DIR: paths.data,
    PORT: String(ports.panel),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${ports.panel}`,
    ADMIN_USERNAME: ROOT_OPERATOR.username,
    ADMIN_PASSWORD: ROOT_OPERATOR.password,
    DNS_SERVERS: dnsServers,
    MAIL_HOSTNAME,
    // The panel's own mail (send_verify_code) goes out through this very Postfix.
    // Postfix offers STARTTLS with the suite's self-signed certificate.
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}/?tls.rejectUnauthorized=false`,
    MAIL_FROM: `Maildesk <no-reply@${MAIL_HOSTNAME}>`,
    // Errors only (a 50000's cause), kept with what the panel writes to stderr.
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl ?? '',
    // The same mail store as deploy:config's --mail-dir: deleted mailboxes' mail is removed there.
    MAIL_DIR: paths.mail,
    ...extraEnv,
  };
  const baseUrl = `http://127.0.0.1:${ports.panel}`;
  let panel: ChildProcess | undefined;
  let panelErrors = '';
  /** The panel's process, as npm start runs it; answers once it serves. */
  async function startPanel() {
    // umask 007: the database files the panel makes are shared with its group (deploy/README.md).
    // --report-on-signal: a panel that does not stop is asked (SIGUSR2) where it waits; see stopPanel.
    const report = `--report-on-signal --report-directory=${paths.reports}`;
    const child = spawn('sh', ['-c', `umask 007 && exec "${process.execPath}" ${report} --import tsx server/main.ts`], { cwd: repo, env: panelEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    panel = child;
    child.stdout!.on('data', (chunk) => (panelErrors += String(chunk)));
    child.stderr!.on('data', (chunk) => (panelErrors += String(chunk)));
    await waitFor('the panel', async () => ((await fetch(`${baseUrl}/api/openapi.json`)).ok ? true : undefined), 90_000).catch((error) => {
      throw new Error(`${error.message}\n${panelErrors}`);
    });
  }
  undo.push(() => panel?.kill('SIGTERM'));
  await startPanel();

  const sqlitePath = path.join(paths.data, 'maildesk.sqlite');
  const clamav = clamavInstalled();
  const db = backend === 'sqlite' ? `sqlite:${sqlitePath}` : databaseUrl!;
  const stores = options.stores ?? 0;
  // The daemons' database passwords, the same in the front's and the stores' configurations.
  const rolePassword = crypto.randomBytes(12).toString('hex');
  const generated = await run(
    'npm',
    [
      'run', '--silent', 'deploy:config', '--',
      '--db', db, '--out', paths.conf, '--mail-dir', paths.mail, '--mail-user', 'mail', '--hostname', MAIL_HOSTNAME,
      '--smtp', `127.0.0.1:${ports.smtp}`, '--submission', `127.0.0.1:${ports.submission}`, '--imap', `127.0.0.1:${ports.imap}`, '--lmtp', `127.0.0.1:${ports.lmtp}`, '--quota-status', `127.0.0.1:${ports.quota}`,
      '--dkim-milter', `127.0.0.1:${ports.dkim}`, '--submission-rate', String(SUBMISSION_RATE), '--mynetworks', '127.0.0.1/32',
      '--tls-cert', tls.cert, '--tls-key', tls.key,
      '--pop3', `127.0.0.1:${ports.pop3}`, '--reinject', `127.0.0.1:${ports.reinject}`,
      '--srs-forward', `127.0.0.1:${ports.srsForward}`, '--srs-reverse', `127.0.0.1:${ports.srsReverse}`, '--srs-secret', srsSecret,
      ...(options.relayhost ? ['--relayhost', options.relayhost] : []),
      '--postfix-queue', paths.queue, '--postfix-data', paths.postfixData, '--dovecot-run', paths.dovecotRun, '--dovecot-state', paths.dovecotState,
      '--rspamd-milter', `127.0.0.1:${ports.rspamdMilter}`, '--rspamd-controller', `127.0.0.1:${ports.rspamdController}`, '--redis', '127.0.0.1:6379', '--redis-db', String(redisDb),
      '--panel-url', baseUrl, '--panel-token', mailServerToken, '--rspamd-map-seconds', String(RSPAMD_MAP_SECONDS), '--rspamd-db-dir', RSPAMD_DB_DIR,
      ...(clamav ? ['--clamav', `127.0.0.1:${ports.clamd}`] : []),
      ...(stores ? ['--role', 'front', '--peer-networks', '127.0.0.0/8'] : ['--copy-master', copyMaster.user, '--copy-master-password', copyMaster.password]),
      '--log-dir', paths.logs, '--postfix-role', roles.postfix, '--dovecot-role', roles.dovecot, '--opendkim-role', roles.opendkim, '--no-auth-delay',
      '--postfix-password', rolePassword, '--dovecot-password', rolePassword, '--opendkim-password', rolePassword,
    ],
    { cwd: repo },
  );
  void generated;
  // deploy/README.md: after the panel's first start, its database is writable by the group too.
  if (backend === 'sqlite') for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(sqlitePath + suffix)) fs.chmodSync(sqlitePath + suffix, 0o660);
  if (backend === 'postgres') await run('psql', [databaseUrl!, '-v', 'ON_ERROR_STOP=1', '-q', '-f', path.join(paths.conf, 'postgres-roles.sql')]);

  const postfixConf = path.join(paths.conf, 'postfix');
  const dovecotConf = path.join(paths.conf, 'dovecot', 'dovecot.conf');
  const opendkimConf = path.join(paths.conf, 'opendkim', 'opendkim.conf');
  // postsrsd as the generated /etc/default/postsrsd says (Debian's unit passes these), in the foreground.
  const srs = Object.fromEntries(
    fs.readFileSync(path.join(paths.conf, 'postsrsd', 'postsrsd'), 'utf8').split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const postsrsdArgs = ['-s', srs.SRS_SECRET, '-d', srs.SRS_DOMAIN, '-a', srs.SRS_SEPARATOR, '-f', srs.SRS_FORWARD_PORT, '-r', srs.SRS_REVERSE_PORT, '-l', srs.SRS_LISTEN_ADDR, '-4'];
  let postsrsd: ChildProcess | undefined = spawn('postsrsd', postsrsdArgs, { stdio: 'ignore' });
  undo.push(() => postsrsd?.kill('SIGTERM'));
  // Postfix first: it makes private/, where Dovecot puts the SMTP AUTH socket.
  undo.push(() => run('postfix', ['-c', postfixConf, 'stop']));
  await run('postfix', ['-c', postfixConf, 'start']).catch((error) => {
    throw new Error(`postfix start failed: ${error}\n${readLog(paths.logs, 'postfix.log')}`);
  });
  spawn('dovecot', ['-c', dovecotConf], { stdio: 'ignore' }).unref();
  undo.push(() => run('doveadm', ['-c', dovecotConf, 'stop']));
  // As the generated systemd unit runs it: in the foreground, in the SQLite database's directory.
  let opendkim: ChildProcess | undefined = spawn('opendkim', ['-f', '-x', opendkimConf], { cwd: backend === 'sqlite' ? paths.data : '/', stdio: ['ignore', 'ignore', 'pipe'] });
  let opendkimErrors = '';
  opendkim.stderr!.on('data', (chunk) => (opendkimErrors += String(chunk)));
  undo.push(() => opendkim?.kill('SIGTERM'));
  // rspamd on the generated local directory (Debian's /etc/rspamd/rspamd.conf on top), in the
  // foreground; its state (the hyperscan cache) kept between runs, its statistics in Redis.
  fs.mkdirSync(paths.rspamdRun, { recursive: true });
  fs.mkdirSync(RSPAMD_DB_DIR, { recursive: true });
  for (const p of [paths.rspamdRun, RSPAMD_DB_DIR]) fs.chownSync(p, uid('_rspamd'), gid('_rspamd'));
  let clamd: ChildProcess | undefined;
  if (clamav) {
    // ClamAV with the suite's own one-signature database (EICAR): signatures cannot be downloaded here.
    fs.mkdirSync(paths.clamdb, { recursive: true });
    fs.writeFileSync(path.join(paths.clamdb, 'eicar.ndb'), `Maildesk-Test-EICAR:0:*:${Buffer.from(EICAR).toString('hex')}\n`);
    const clamdConf = path.join(dir, 'clamd.conf');
    fs.writeFileSync(clamdConf, `Foreground yes\nTCPSocket ${ports.clamd}\nTCPAddr 127.0.0.1\nDatabaseDirectory ${paths.clamdb}\nUser root\nLogFile ${path.join(paths.logs, 'clamd.log')}\nPidFile ${path.join(dir, 'clamd.pid')}\n`);
    clamd = spawn('clamd', ['-c', clamdConf], { stdio: 'ignore' });
    undo.push(() => clamd?.kill('SIGTERM'));
  }
  // As Debian's unit runs it: as _rspamd from the start (User=_rspamd), so its log is opened as
  // that user, in the directory deploy:config made for it under --log-dir.
  const rspamdArgs = ['-f', '-c', '/etc/rspamd/rspamd.conf', `--var=LOCAL_CONFDIR=${path.join(paths.conf, 'rspamd')}`, `--var=DBDIR=${RSPAMD_DB_DIR}`, `--var=RUNDIR=${paths.rspamdRun}`];
  let rspamd: ChildProcess | undefined = spawn('rspamd', rspamdArgs, { uid: uid('_rspamd'), gid: gid('_rspamd'), stdio: ['ignore', 'ignore', 'pipe'] });
  let rspamdErrors = '';
  rspamd.stderr!.on('data', (chunk) => (rspamdErrors += String(chunk)));
  undo.push(() => rspamd?.kill('SIGTERM'));
  await waitFor('Dovecot, Postfix and OpenDKIM', async () => ((await portOpen(ports.imap)) && (await portOpen(ports.pop3)) && (stores || (await portOpen(ports.lmtp))) && (await portOpen(ports.reinject)) && (await portOpen(ports.srsForward)) && (await portOpen(ports.smtp)) && (await portOpen(ports.submission)) && (await portOpen(ports.dkim)) ? true : undefined)).catch((error) => {
    throw new Error(`${error.message}\n${opendkimErrors}`);
  });
  await waitFor('rspamd', async () => ((await portOpen(ports.rspamdMilter)) && (await portOpen(ports.rspamdController)) && (!clamav || (await portOpen(ports.clamd))) ? true : undefined), 90_000).catch((error) => {
    throw new Error(`${error.message}\n${rspamdErrors}\n${readLog(paths.logs, RSPAMD_LOG)}`);
  });

  const mailStores = await startStores(stores, { backend, db, dir, ports, tls, rolePassword, roles, undo });

  let seeded = false;
  const mapFile = (name: string) => `${backend === 'sqlite' ? 'sqlite' : 'pgsql'}:${path.join(postfixConf, `maildesk-${name}.cf`)}`;

  return {
    backend,
    ports,
    /** The mail stores behind the front (options.stores), each its own Dovecot. */
    stores: mailStores,
    owner,
    postfixConf,
    /** The daemons' process ids (Postfix's master and its children, Dovecot's, OpenDKIM's). */
    async pids(name: string): Promise<number[]> {
      const { stdout } = await run('pgrep', ['-x', name]).catch(() => ({ stdout: '' }));
      return stdout.split('\n').filter(Boolean).map(Number);
    },
    paths,
    roles,
    clamav,
    mailServerToken,
    /** rspamd's controller: statistics (GET /stat) as JSON. */
    async rspamdStat(): Promise<{ statfiles: { symbol: string; revision: number; users: number }[]; learned: number }> {
      const response = await fetch(`http://127.0.0.1:${ports.rspamdController}/stat`);
      return (await response.json()) as any;
    },
    databaseUrl,
    baseUrl,
    /** `postmap -q key map`: the map's answer, or undefined when the key is not found. */
    async postmap(name: string, key: string): Promise<string | undefined> {
      try {
        const { stdout } = await run('postmap', ['-c', postfixConf, '-q', key, mapFile(name)]);
        return stdout.trim();
      } catch (error) {
        if ((error as { code?: number }).code === 1) return undefined;
        throw error;
      }
    },
    /** `doveadm auth test`: whether Dovecot accepts the login. */
    async doveadmAuth(user: string, password: string): Promise<boolean> {
      try {
        const { stdout } = await run('doveadm', ['-c', dovecotConf, 'auth', 'test', user, password]);
        return /auth succeeded/.test(stdout);
      } catch {
        return false;
      }
    },
    waitFor,
    /** Lets time pass for the panel's queued jobs named `name`: they are due now, and its worker runs them within a second or so. */
    async makeJobsDue(name: string) {
      if (backend === 'postgres') {
        await pgQuery(databaseUrl!, `UPDATE pgboss.job SET start_after = now() WHERE name = '${name}' AND state IN ('created', 'retry')`);
        return;
      }
      const db = new Database(sqlitePath);
      try {
        db.pragma('busy_timeout = 5000');
        db.prepare(`UPDATE job SET run_at = ? WHERE name = ? AND state = 'queued'`).run(new Date(Date.now() - 1000).toISOString(), name);
      } finally {
        db.close();
      }
    },
    /**
     * Each query's plan and time. PostgreSQL: 100k more customers, domains, mailboxes and
     * aliases and 50k alias domains first (seeded once, analysed), so that the planner's choice
     * is the one it makes at scale. SQLite: EXPLAIN QUERY PLAN (its plans do not depend on size).
     */
    async explainLookups(queries: { name: string; sql: string }[]) {
      const out: { name: string; plan: string; ms: number }[] = [];
      if (backend === 'postgres') {
        const url = new URL(serverUrl);
        url.pathname = `/${database}`;
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        try {
          if (!seeded) {
            for (const statement of seedStatements('postgres', SEED_ROWS)) await client.query(statement);
            await client.query('ANALYZE');
            seeded = true;
          }
          for (const q of queries) {
            const { rows } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${q.sql}`);
            const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
            out.push({ name: q.name, plan, ms: Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1] ?? NaN) });
          }
        } finally {
          await client.end();
        }
      } else {
        // Read-write: Dovecot's record of an app password's use is an UPDATE.
        const db = new Database(sqlitePath);
        try {
          db.pragma('busy_timeout = 5000');
          for (const q of queries) {
            const plan = db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all().map((r: any) => r.detail).join('\n');
            const start = process.hrtime.bigint();
            db.prepare(q.sql).all();
            out.push({ name: q.name, plan, ms: Number(process.hrtime.bigint() - start) / 1e6 });
          }
        } finally {
          db.close();
        }
      }
      return out;
    },
    logs: () => `${readLog(paths.logs, 'postfix.log')}\n${readLog(paths.logs, 'dovecot.log')}\n${readLog(paths.logs, RSPAMD_LOG)}`,
    panelRunning: () => panel !== undefined,
    /** What the panel logged as errors, and wrote to stderr, since the stack started. */
    panelErrors: () => panelErrors,
    async stopPanel() {
      if (!panel) return;
      const child = panel;
      panel = undefined;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the panel had already exited (${child.exitCode ?? child.signalCode}):\n${panelErrors}`);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const started = Date.now();
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 15_000))]);
      // What the stop waited for, if it was slow (server/start.ts says so after 5 s).
      console.log(`${backend}: the panel stopped ${((Date.now() - started) / 1000).toFixed(1)} s after SIGTERM${panelErrors.includes('Stopping:') ? `\n${panelErrors.split('\n').filter((line) => line.startsWith('Stopping:')).join('\n')}` : ''}`);
      if (!stopped) {
        const where = `${await waitingReport(child, paths.reports)}\nIts connections (ss):\n${await connectionsOf(ports.panel)}`;
        child.kill('SIGKILL');
        throw new Error(`the panel did not stop within 15 s of SIGTERM:\n${panelErrors}\n${where}`);
      }
    },
    /** kill -9 of the panel's process: no chance to finish anything it was doing. */
    async killPanel() {
      if (!panel) return;
      const child = panel;
      panel = undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The shell exec'd node: the child's pid is the panel's.
      child.kill('SIGKILL');
      await exited;
    },
    /** Starts the panel again on the same database (after stopPanel). */
    async startPanel() {
      if (panel) throw new Error('the panel is running');
      await startPanel();
    },
    async close() {
      // A panel slow to stop is reported, after the daemons are stopped too (else they outlive the suite).
      const panelStopped = await this.stopPanel().then(() => undefined, (error: unknown) => error);
      opendkim?.kill('SIGTERM');
      opendkim = undefined;
      rspamd?.kill('SIGTERM');
      rspamd = undefined;
      clamd?.kill('SIGTERM');
      clamd = undefined;
      postsrsd?.kill('SIGTERM');
      postsrsd = undefined;
      await run('postfix', ['-c', postfixConf, 'stop']).catch(() => undefined);
      await run('doveadm', ['-c', dovecotConf, 'stop']).catch(() => undefined);
      for (const store of mailStores) await store.stop();
      await waitFor('the daemons to stop', async () => (!(await portOpen(ports.smtp)) && !(await portOpen(ports.imap)) ? true : undefined), 15_000).catch(() => undefined);
      if (backend === 'postgres') {
        await pgQuery(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        for (const role of [...Object.values(roles), owner]) await pgQuery(serverUrl, `DROP ROLE IF EXISTS ${role}`);
      }
      if (!process.env.MAIL_TEST_KEEP) fs.rmSync(dir, { recursive: true, force: true });
      if (panelStopped) throw panelStopped;
    },
  };
}

/** A loopback address per store, in the test worker's own band, so that two stacks at once never share one. */
const storeAddress = (index: number) => `127.0.${20 + band}.${10 + index}`;

/**
 * The stores behind a front: each generated by deploy:config --role store (listening on its own
 * address with the front's IMAP, POP3 and LMTP ports, handing Sieve's mail to the front's reinject
 * listener) and started as its own Dovecot. `stop` and `start` take one down and bring it back.
 */
async function startStores(
  count: number,
  c: { backend: Backend; db: string; dir: string; ports: Record<string, number>; tls: { cert: string; key: string }; rolePassword: string; roles: Record<string, string>; undo: (() => unknown)[] },
) {
  const stores = [];
  for (let index = 0; index < count; index++) {
    const address = storeAddress(index);
    const root = path.join(c.dir, `store-${index}`);
    const p = { conf: path.join(root, 'conf'), mail: path.join(root, 'vmail'), run: path.join(root, 'run'), state: path.join(root, 'state'), logs: path.join(root, 'log') };
    for (const dir of Object.values(p)) fs.mkdirSync(dir, { recursive: true });
    fs.chownSync(p.mail, uid('mail'), gid('mail'));
    await run(
      'npm',
      [
        'run', '--silent', 'deploy:config', '--', '--role', 'store', '--peer-networks', '127.0.0.0/8',
        '--db', c.db, '--out', p.conf, '--mail-dir', p.mail, '--mail-user', 'mail', '--hostname', MAIL_HOSTNAME, '--tls-cert', c.tls.cert, '--tls-key', c.tls.key,
        '--imap', `${address}:${c.ports.imap}`, '--pop3', `${address}:${c.ports.pop3}`, '--lmtp', `${address}:${c.ports.lmtp}`, '--reinject', `127.0.0.1:${c.ports.reinject}`,
        '--rspamd-controller', `127.0.0.1:${c.ports.rspamdController}`, '--dovecot-run', p.run, '--dovecot-state', p.state, '--log-dir', p.logs, '--no-auth-delay',
        '--dovecot-role', c.roles.dovecot, '--dovecot-password', c.rolePassword,
      ],
      { cwd: repo },
    );
    const conf = path.join(p.conf, 'dovecot', 'dovecot.conf');
    const listening = async (up: boolean) => {
      const open = async () => Boolean((await portOpen(c.ports.imap, address)) && (await portOpen(c.ports.lmtp, address)));
      await waitFor(`store ${address} ${up ? 'up' : 'down'}`, async () => ((await open()) === up ? true : undefined), 15_000).catch((error) => {
        throw new Error(`${error.message}\n${readLog(p.logs, 'dovecot.log')}`);
      });
    };
    const store = {
      address,
      mailDir: p.mail,
      logs: () => readLog(p.logs, 'dovecot.log'),
      async start() {
        spawn('dovecot', ['-c', conf], { stdio: 'ignore' }).unref();
        await listening(true);
      },
      async stop() {
        await run('doveadm', ['-c', conf, 'stop']).catch(() => undefined);
        await listening(false).catch(() => undefined);
      },
    };
    c.undo.push(() => store.stop());
    await store.start();
    stores.push(store);
  }
  return stores;
}

/** rspamd's log under --log-dir: a directory of its own user's (deploy/templates/rspamd.ts). */
export const RSPAMD_LOG = path.join('rspamd', 'rspamd.log');
/** How often rspamd reads the panel's spam maps (deploy:config --rspamd-map-seconds): a change applies within twice this. */
export const RSPAMD_MAP_SECONDS = 10;
/** rspamd's state between runs (its hyperscan cache: the first start compiles for about 20 s). */
const RSPAMD_DB_DIR = '/var/tmp/maildesk-test-rspamd';
/** The EICAR test file: what every antivirus recognises as a virus. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
/** Whether ClamAV's daemon is installed (the antivirus part is optional). */
const clamavInstalled = () => fs.existsSync('/usr/sbin/clamd');

/** Customers (each with a domain, a mailbox and an alias; half the domains alias the others) for the plans. */
const SEED_ROWS = 100_000;

export type MailStack = Awaited<ReturnType<typeof startMailStack>>;

function readLog(dir: string, name: string) {
  const file = path.join(dir, name);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-40).join('\n') : '';
}

function idOf(file: string, name: string, field: 2 | 3) {
  const line = fs.readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no ${name} in ${file}: install the mail packages (deploy/install-mail-packages.sh)`);
  return Number(line.split(':')[field]);
}
const uid = (name: string) => idOf('/etc/passwd', name, 2);
const gid = (name: string) => idOf('/etc/group', name, 2);

/**
 * What a panel that does not stop is doing: Node's diagnostic report (asked for with SIGUSR2)
 * names the JavaScript running, if any, and the handles that keep the process alive.
 */
async function waitingReport(child: ChildProcess, dir: string): Promise<string> {
  child.kill('SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const file = fs.readdirSync(dir).find((name) => name.endsWith('.json'));
    if (!file) continue;
    try {
      const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      const handles = (report.libuv as { type: string; is_active: boolean; is_referenced?: boolean; details?: string; localEndpoint?: unknown; remoteEndpoint?: unknown }[])
        .filter((h) => h.is_active)
        .map((h) => `  ${h.type}${h.is_referenced === false ? ' (unref)' : ''} ${JSON.stringify({ local: h.localEndpoint, remote: h.remoteEndpoint, details: h.details })}`);
      return `Node's report of the panel (${file}):\nJavaScript: ${JSON.stringify(report.javascriptStack)}\nactive handles:\n${handles.join('\n')}\nworkers: ${(report.workers ?? []).length}`;
    } catch {
      // Still being written.
    }
  }
  return 'Node wrote no report within 5 s of SIGUSR2 (its event loop is blocked).';
}

/** Both ends of every TCP connection to a port, with the processes holding them and what waits unread. */
async function connectionsOf(port: number): Promise<string> {
  const { stdout } = await run('ss', ['-tnpi', `( sport = :${port} or dport = :${port} )`]).catch((error) => ({ stdout: String(error) }));
  return stdout;
}
