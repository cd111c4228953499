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
import pg from 'pg';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../..');
export const ROOT_OPERATOR = { username: 'root', password: 'root-password-1' };
export const MAIL_HOSTNAME = 'mx.maildesk.test';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
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

const portOpen = (port: number) =>
  new Promise<true | undefined>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
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

export async function startMailStack(backend: Backend, dnsServers: string) {
  if (process.getuid?.() !== 0) throw new Error('npm run test:mail starts Postfix and Dovecot: run it as root, after deploy/install-mail-packages.sh');
  // What has been started so far, undone in reverse order if a later step fails.
  const undo: (() => Promise<unknown> | unknown)[] = [];
  try {
    return await startSteps(backend, dnsServers, undo);
  } catch (error) {
    for (const step of undo.reverse()) await Promise.resolve().then(step).catch(() => undefined);
    throw error;
  }
}

async function startSteps(backend: Backend, dnsServers: string, undo: (() => Promise<unknown> | unknown)[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `maildesk-mail-${backend}-`));
  fs.chmodSync(dir, 0o755);
  undo.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const id = crypto.randomBytes(4).toString('hex');
  const ports = {
    panel: await freePort(),
    smtp: await freePort(),
    submission: await freePort(),
    saslAuth: await freePort(),
    imap: await freePort(),
    lmtp: await freePort(),
    quota: await freePort(),
  };
  const paths = {
    data: path.join(dir, 'data'),
    conf: path.join(dir, 'conf'),
    mail: path.join(dir, 'vmail'),
    logs: path.join(dir, 'log'),
    queue: path.join(dir, 'postfix-queue'),
    postfixData: path.join(dir, 'postfix-data'),
    dovecotRun: path.join(dir, 'dovecot-run'),
    dovecotState: path.join(dir, 'dovecot-state'),
  };
  for (const p of Object.values(paths)) fs.mkdirSync(p, { recursive: true });
  fs.chownSync(paths.postfixData, uid('postfix'), 0);
  fs.chownSync(paths.mail, uid('mail'), gid('mail'));
  // Test stand-in for the "maildesk" group of deploy/README.md: every daemon may use the SQLite directory.
  fs.chmodSync(paths.data, 0o777);

  const serverUrl = postgresServerUrl();
  const database = `maildesk_mail_${id}`;
  const roles = { postfix: `maildesk_pf_${id}`, dovecot: `maildesk_dv_${id}` };
  let databaseUrl: string | undefined;
  if (backend === 'postgres') {
    await pgQuery(serverUrl, `CREATE DATABASE ${database}`);
    undo.push(async () => {
      await pgQuery(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      for (const role of Object.values(roles)) await pgQuery(serverUrl, `DROP ROLE IF EXISTS ${role}`);
    });
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }

  const panelEnv = {
    ...process.env,
    DATA_DIR: paths.data,
    PORT: String(ports.panel),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${ports.panel}`,
    ADMIN_USERNAME: ROOT_OPERATOR.username,
    ADMIN_PASSWORD: ROOT_OPERATOR.password,
    DNS_SERVERS: dnsServers,
    MAIL_HOSTNAME,
    // The panel's own mail (send_verify_code) goes out through this very Postfix.
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    MAIL_FROM: `Maildesk <no-reply@${MAIL_HOSTNAME}>`,
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl ?? '',
  };
  let panel: ChildProcess | undefined = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: repo, env: panelEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let panelErrors = '';
  undo.push(() => panel?.kill('SIGTERM'));
  panel.stderr!.on('data', (chunk) => (panelErrors += String(chunk)));
  const baseUrl = `http://127.0.0.1:${ports.panel}`;
  await waitFor('the panel', async () => ((await fetch(`${baseUrl}/api/openapi.json`)).ok ? true : undefined), 90_000).catch((error) => {
    throw new Error(`${error.message}\n${panelErrors}`);
  });

  const sqlitePath = path.join(paths.data, 'maildesk.sqlite');
  const db = backend === 'sqlite' ? `sqlite:${sqlitePath}` : databaseUrl!;
  const generated = await run(
    'npm',
    [
      'run', '--silent', 'deploy:config', '--',
      '--db', db, '--out', paths.conf, '--mail-dir', paths.mail, '--mail-user', 'mail', '--hostname', MAIL_HOSTNAME,
      '--smtp', `127.0.0.1:${ports.smtp}`, '--submission', `127.0.0.1:${ports.submission}`, '--sasl-auth', `127.0.0.1:${ports.saslAuth}`, '--imap', `127.0.0.1:${ports.imap}`, '--lmtp', `127.0.0.1:${ports.lmtp}`, '--quota-status', `127.0.0.1:${ports.quota}`,
      '--postfix-queue', paths.queue, '--postfix-data', paths.postfixData, '--dovecot-run', paths.dovecotRun, '--dovecot-state', paths.dovecotState,
      '--log-dir', paths.logs, '--postfix-role', roles.postfix, '--dovecot-role', roles.dovecot, '--no-auth-delay',
    ],
    { cwd: repo },
  );
  void generated;
  if (backend === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(sqlitePath + suffix)) fs.chmodSync(sqlitePath + suffix, 0o666);
  } else {
    await pgQuery(databaseUrl!, fs.readFileSync(path.join(paths.conf, 'postgres-roles.sql'), 'utf8'));
  }

  const postfixConf = path.join(paths.conf, 'postfix');
  const dovecotConf = path.join(paths.conf, 'dovecot', 'dovecot.conf');
  spawn('dovecot', ['-c', dovecotConf], { stdio: 'ignore' }).unref();
  undo.push(() => run('doveadm', ['-c', dovecotConf, 'stop']));
  undo.push(() => run('postfix', ['-c', postfixConf, 'stop']));
  await run('postfix', ['-c', postfixConf, 'start']).catch((error) => {
    throw new Error(`postfix start failed: ${error}\n${readLog(paths.logs, 'postfix.log')}`);
  });
  await waitFor('Dovecot and Postfix', async () => ((await portOpen(ports.imap)) && (await portOpen(ports.lmtp)) && (await portOpen(ports.smtp)) && (await portOpen(ports.submission)) ? true : undefined));

  const mapFile = (name: string) => `${backend === 'sqlite' ? 'sqlite' : 'pgsql'}:${path.join(postfixConf, `maildesk-${name}.cf`)}`;

  return {
    backend,
    ports,
    paths,
    roles,
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
    logs: () => `${readLog(paths.logs, 'postfix.log')}\n${readLog(paths.logs, 'dovecot.log')}`,
    panelRunning: () => panel !== undefined,
    async stopPanel() {
      if (!panel) return;
      const exited = new Promise((resolve) => panel!.once('exit', resolve));
      panel.kill('SIGTERM');
      await exited;
      panel = undefined;
    },
    async close() {
      await this.stopPanel();
      await run('postfix', ['-c', postfixConf, 'stop']).catch(() => undefined);
      await run('doveadm', ['-c', dovecotConf, 'stop']).catch(() => undefined);
      await waitFor('the daemons to stop', async () => (!(await portOpen(ports.smtp)) && !(await portOpen(ports.imap)) ? true : undefined), 15_000).catch(() => undefined);
      if (backend === 'postgres') {
        await pgQuery(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        for (const role of Object.values(roles)) await pgQuery(serverUrl, `DROP ROLE IF EXISTS ${role}`);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

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
