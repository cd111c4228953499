/** `npm start`'s server process: first start creates and prints the operator; SIGTERM stops it cleanly, its log written out. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, expect, it, vi } from 'vitest';

// Starting a process that compiles TypeScript as it loads is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 120_000 });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-start-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Starts the server, waits for its address line, and returns what it printed and how to stop it. */
async function startServer(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_PASSWORD: '', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed:\n${output}`)), 80_000);
    child.stdout.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(output);
      // The last line of the start-up text.
      if (match && output.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.on('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return { address, output: () => output, stop };
}

it('When started on an empty data directory, then it prints a generated operator password that signs in, and SIGTERM exits 0', async () => {
  const server = await startServer();
  const password = /with password: (\S+)/.exec(server.output())?.[1];
  expect(password).toMatch(/^[\w-]{12,}$/);
  expect(server.output()).toContain('shown only once');
  expect(server.output()).toContain(`Operator area: ${server.address}/login-manage`);
  const login = await fetch(`${server.address}/api/manage/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  }).then((r) => r.json());
  expect(login).toMatchObject({ code: 0, data: { username: 'admin', role: 'superadmin' } });
  expect(await server.stop()).toBe(0);
  expect(server.output()).toContain('SIGTERM: shutting down');
  expect(fs.existsSync(path.join(dataDir, 'maildesk.sqlite'))).toBe(true);
});

/** SQLite's schema cookie: it moves with every change of the schema, which makes other processes' prepared statements fail once. */
function schemaVersion(): number {
  const db = new SQLite(path.join(dataDir, 'maildesk.sqlite'), { readonly: true });
  try {
    return db.pragma('schema_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

it('When started again with nothing to migrate, then the database schema is untouched, so that Postfix and Dovecot keep their prepared lookups', async () => {
  const before = schemaVersion();
  const server = await startServer();
  let running: number;
  try {
    running = schemaVersion();
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(running).toBe(before);
  expect(schemaVersion()).toBe(before);
});

it('When started again on the same data, then no operator is created and the old password still works', async () => {
  const server = await startServer();
  expect(server.output()).toContain('Operators already exist');
  expect(server.output()).not.toContain('with password:');
  expect(await server.stop()).toBe(0);
});

it('When it logs as npm start does and is stopped right after answering, then each request has exactly one line on standard output', async () => {
  const server = await startServer({ LOG_LEVEL: 'info' });
  const ids = await Promise.all(Array.from({ length: 100 }, () => fetch(`${server.address}/health`).then((r) => r.headers.get('x-request-id'))));
  expect(await server.stop()).toBe(0);
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  for (const id of ids) expect(lines.filter((e) => e.reqId === id)).toMatchObject([{ msg: 'request', method: 'GET', url: '/health', statusCode: 200 }]);
});
