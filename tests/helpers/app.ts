/**
 * The real app, in-process, on a database of its own: a temporary SQLite file, or a fresh
 * PostgreSQL database when DATABASE_URL names a server (dropped again on close).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../server/config.js';
import { setPasswordCost } from '../../server/core/passwords.js';
import { moveClock, resetClock } from '../../server/core/time.js';
import { takeDkimKeysFrom, type DkimKeyPair } from '../../server/mail/dkim.js';
import { startMaildesk, type StartOptions } from '../../server/start.js';
import { readOutbox } from './outbox.js';
import { freshPostgresDatabase } from './postgres.js';
import { postgresTemplate, sqliteFromTemplate } from './template-database.js';

// Frozen: files share this module when they share a worker (vite.config.ts), so a file changing it would change it for the next.
export const ROOT: Readonly<{ username: string; password: string }> = Object.freeze({ username: 'root', password: 'root-password-1' });

// What costs CPU and proves nothing here: argon2id at its least cost (the same scheme and format,
// verified as any other hash), and DKIM keys made once instead of a 2048-bit RSA generation per
// domain. domains.test.ts and password-schemes.test.ts keep the real ones.
setPasswordCost({ memoryCost: 64, timeCost: 1 });
const dkimKeys: DkimKeyPair[] = JSON.parse(fs.readFileSync(path.resolve('tests/fixtures/dkim-keys.json'), 'utf8'));
let nextDkimKey = 0;
export const fixtureDkimKeys = async () => dkimKeys[nextDkimKey++ % dkimKeys.length];
takeDkimKeysFrom(fixtureDkimKeys);

export interface CallOptions {
  token?: string;
  ip?: string;
  locale?: 'en' | 'zh';
  /** More request headers (a script's Authorization: Bearer key, a browser's user agent). */
  headers?: Record<string, string>;
}

export interface Reply<T = any> {
  status: number;
  code: number;
  data: T;
  message: string;
  params?: Record<string, unknown>;
  errors?: Record<string, { message: string; params?: Record<string, unknown> }>;
  headers?: Record<string, unknown>;
}

/** `postgresServer`: run on a fresh database there (DATABASE_URL by default); SQLite without one. */
export async function startTestApp(env: Record<string, string> = {}, postgresServer = process.env.DATABASE_URL, options: StartOptions = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-test-'));
  // Up to date already (template-database.ts): the start's migrations find nothing to do, as on any later start.
  const pgDatabase = postgresServer ? await freshPostgresDatabase(postgresServer, undefined, await postgresTemplate(postgresServer)) : undefined;
  if (!pgDatabase) await sqliteFromTemplate(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ROOT.username,
    ADMIN_PASSWORD: ROOT.password,
    PUBLIC_URL: 'http://maildesk.test',
    WEB_ROOT: path.join(dataDir, 'no-web'),
    // Scheduled tasks run when a test says so (jobs.runSchedule), not when a minute turns; on
    // PostgreSQL, jobs run when a test drains them (outbox()), in the order they were queued.
    JOB_SCHEDULES: '0',
    JOB_POLL_MS: '600000',
    ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
    ...env,
  });
  const maildesk = await startMaildesk(config, options);
  const { app, services, calls } = maildesk;

  async function call<T = any>(method: 'GET' | 'POST', url: string, payload?: unknown, options: CallOptions = {}): Promise<Reply<T>> {
    const response = await app.inject({
      method,
      url,
      remoteAddress: options.ip ?? '127.0.0.1',
      headers: {
        authentication: options.token ?? '',
        'accept-language': options.locale ?? 'en',
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(method === 'GET' ? { query: payload as Record<string, string> } : { payload: JSON.stringify(payload ?? {}) }),
    });
    // A file (an attachment download) is no envelope: code 0 when it came, with its bytes and headers.
    if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) {
      return { status: response.statusCode, code: response.statusCode === 200 ? 0 : -1, data: response.rawPayload as T, message: '', headers: response.headers } as Reply<T>;
    }
    const body = response.json();
    return { status: response.statusCode, ...body };
  }

  return {
    app,
    services,
    /** Every call the app serves. */
    calls,
    config,
    dialect: services.dialect,
    post: <T = any>(url: string, body?: unknown, options?: CallOptions) => call<T>('POST', url, body, options),
    get: <T = any>(url: string, query?: Record<string, unknown>, options?: CallOptions) =>
      call<T>('GET', url, Object.fromEntries(Object.entries(query ?? {}).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])), options),
    /** Every message written to the outbox so far, oldest first (after the due jobs have run). */
    async outbox() {
      await services.jobs.drain();
      return readOutbox(path.join(dataDir, 'outbox'));
    },
    /**
     * Lets `ms` pass for the app: its clock (server/core/time.ts), and on PostgreSQL the
     * waiting jobs' start times in pg-boss, which counts time by the database's clock.
     */
    async moveClock(ms: number) {
      moveClock(ms);
      if (services.dialect === 'postgres') {
        await sql`update pgboss.job set start_after = start_after - ${ms / 1000} * interval '1 second' where state in ('created', 'retry')`.execute(services.db);
      }
    },
    resetClock,
    /** The 6-digit code in the newest message to an address. */
    async lastCode(to: string): Promise<string> {
      const messages = (await this.outbox()).filter((m) => m.to === to);
      const code = /\b(\d{6})\b/.exec(messages.at(-1)?.text ?? '')?.[1];
      if (!code) throw new Error(`no code was mailed to ${to}`);
      return code;
    },
    /** The token of the invitation link in the newest message to an address (team invitations). */
    async invitationToken(to: string): Promise<string> {
      const messages = (await this.outbox()).filter((m) => m.to === to);
      const token = /\/accept-invitation\?token=([\w-]+)/.exec(messages.at(-1)?.text ?? '')?.[1];
      if (!token) throw new Error(`no invitation link was mailed to ${to}`);
      return token;
    },
    async close() {
      await maildesk.close();
      await pgDatabase?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
