/**
 * Nothing is lost when the server process is killed with mail pending: messages are queued
 * while the SMTP server holds every connection without answering, the process is killed
 * with kill -9 in the middle of a send, the SMTP server comes up, the process starts again:
 * every message arrives, exactly once.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { smtpSink } from '../helpers/smtp-sink.js';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process.js';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-crash-'));
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An SMTP server that is "down" in the worst way: it accepts the connection and never answers. */
async function silentServer(port: number) {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
  return {
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        silent.close(() => resolve());
      }),
  };
}

it('When the process is killed with messages pending and started again once SMTP is up, then each message arrives exactly once', async () => {
  const smtp = await smtpSink();
  const silent = await silentServer(smtp.port);
  // SQLite, the default (DATABASE_URL unset): the embedded queue in the server process.
  const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, TRUST_PROXY: '1', JOB_POLL_MS: '200', DATABASE_URL: '' };
  server = await startServerProcess(env);

  const recipients = Array.from({ length: 6 }, (_, i) => `crash-${i}-${Date.now()}@example.com`);
  for (const [i, email] of recipients.entries()) {
    const reply = await server.call('POST', '/api/admin/login/register', { email, password: 'customer-pass-1' }, { 'x-forwarded-for': `10.9.0.${i + 1}` });
    expect(reply.code).toBe(0);
  }
  // The worker is in the middle of the first send: connected, waiting for a greeting.
  await waitFor('a connection to the SMTP server', () => silent.connections() > 0);
  expect(await server.kill()).toBe(null);
  server = undefined;

  await silent.close();
  await smtp.up();
  try {
    server = await startServerProcess(env);
    const to = (message: string) => /^To: (.*)$/m.exec(message)?.[1]?.trim();
    await waitFor('every message', () => recipients.every((r) => smtp.received.some((m) => to(m) === r)));
    // Give a second delivery every chance to happen before counting.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const recipient of recipients) expect(smtp.received.filter((m) => to(m) === recipient)).toHaveLength(1);

    const token = (await server.call('POST', '/api/manage/login/login', { username: 'root', password: 'root-password-1' })).data.token;
    const log = await server.call<{ list: { recipient: string; status: string }[] }>('GET', '/api/manage/email_send_log/list?page_size=100', undefined, { authentication: token });
    expect(log.data.list.filter((e) => recipients.includes(e.recipient)).map((e) => e.status)).toEqual(recipients.map(() => 'sent'));
  } finally {
    await smtp.close();
  }
});
