/**
 * A real server process killed with SIGKILL in the middle of a PostfixAdmin import (2,000
 * mailboxes with their aliases, made 5 to a transaction): started again, it finishes the run
 * from where the last committed batch left it, and every mailbox and alias exists once, with
 * the run's counts saying so. SQLite: the queue takes the job again at start; PostgreSQL: the
 * imports.resume schedule queues it again once its lease has run out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { freshPostgresDatabase } from '../helpers/postgres.js';
import { freshPostfixAdmin, postfixAdminHashes } from '../helpers/postfixadmin.js';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

const MAILBOXES = 2000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-import-crash-'));
let pgDatabase: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
let source: Awaited<ReturnType<typeof freshPostfixAdmin>>;
let child: ChildProcess | undefined;
const domain = `crash${Date.now().toString(36)}.example`;

beforeAll(async () => {
  if (process.env.DATABASE_URL) pgDatabase = await freshPostgresDatabase(process.env.DATABASE_URL);
  source = await freshPostfixAdmin('mariadb');
  // As PostfixAdmin's default leaves them: one md5crypt hash (one salt) shared by many mailboxes.
  const shared = postfixAdminHashes()[0];
  const users = Array.from({ length: MAILBOXES }, (_, i) => `user${i}@${domain}`);
  await source.fill({
    domains: [{ domain }],
    mailboxes: users.map((username) => ({ username, password: shared.stored, quota: 1024 * 1024 })),
    aliases: users.slice(0, 500).map((u, i) => ({ address: `alias${i}@${domain}`, goto: u })),
  });
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await source?.drop();
  await pgDatabase?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(): Promise<string> {
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'root-password-1', DATABASE_URL: pgDatabase?.url ?? '', IMPORT_BATCH_SIZE: '5', JOB_POLL_MS: '200' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed:\n${output}`)), 120_000);
    child!.stdout!.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match && output.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
}

it('When the server is killed with SIGKILL during an import, then after a restart the import finishes with nothing doubled', async () => {
  let address = await startServer();
  const call = async (method: 'GET' | 'POST', url: string, body: Record<string, unknown>, token = '') => {
    const query = method === 'GET' ? `?${new URLSearchParams(body as Record<string, string>)}` : '';
    const response = await fetch(`${address}${url}${query}`, {
      method,
      headers: { authentication: token, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
    });
    return response.json();
  };
  const root = (await call('POST', '/api/manage/login/login', { username: 'admin', password: 'root-password-1' })).data.token;
  const customer = (await call('POST', '/api/manage/user/create', { email: 'moving@example.com', password: 'customer-pass-1', is_verified: 1 }, root)).data;
  await call('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 4 * 1024 ** 3 }, root);
  const started = await call('POST', '/api/manage/imports/postfixadmin/start', { source: source.url, mapping: [{ domain, customer_id: customer.id }] }, root);
  expect(started.code).toBe(0);
  const id = String(started.data.id);

  // Killed as soon as some batches are in, well before the last.
  let progress = { done: 0, total: 0, state: 'queued' };
  while (progress.done === 0) progress = (await call('GET', '/api/manage/imports/get', { id }, root)).data;
  child!.kill('SIGKILL');
  await new Promise((resolve) => child!.once('exit', resolve));
  expect(progress.state).toBe('running');
  expect(progress.done).toBeLessThan(progress.total);

  address = await startServer();
  const again = (await call('POST', '/api/manage/login/login', { username: 'admin', password: 'root-password-1' })).data.token;
  const deadline = Date.now() + 180_000;
  let run = (await call('GET', '/api/manage/imports/get', { id }, again)).data;
  while (run.state !== 'done' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    run = (await call('GET', '/api/manage/imports/get', { id }, again)).data;
  }
  expect(run).toMatchObject({ state: 'done', done: run.total, created: { domain: 1, mailbox: MAILBOXES, alias: 500 } });
  const boxes = await call('POST', '/api/manage/email/list', { filter: { owner_id: customer.id }, page_size: 1 }, again);
  expect(boxes.data.total).toBe(MAILBOXES);
  const aliases = await call('GET', '/api/manage/alias/list', { page_size: '1' }, again);
  expect(aliases.data.total).toBe(500);
  const log = await call('POST', '/api/manage/log/list', { page_size: 100 }, again);
  expect(log.data.list.filter((e: { action: string; target_id: number }) => e.action === 'import' && e.target_id === Number(id))).toHaveLength(1);
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  child!.kill('SIGTERM');
  await exited;
  child = undefined;
});
