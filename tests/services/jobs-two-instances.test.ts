/**
 * Two server processes (`node dist/server/main.js`) on one PostgreSQL database share the
 * jobs: 200 messages queued in pg-boss are each sent exactly once, by one process or the
 * other, and the housekeeping schedule (every minute here) runs once per minute in all.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { freshPostgresDatabase } from '../helpers/postgres.js';
import { smtpSink } from '../helpers/smtp-sink.js';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process.js';

vi.setConfig({ testTimeout: 400_000, hookTimeout: 300_000 });

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let smtp: Awaited<ReturnType<typeof smtpSink>>;
const servers: ServerProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  database = await freshPostgresDatabase(serverUrl, 'maildesk_two');
  smtp = await smtpSink();
  await smtp.up();
  for (const name of ['a', 'b']) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `maildesk-two-${name}-`));
    dirs.push(dataDir);
    servers.push(
      await startServerProcess({
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        // Who sent a message shows in its From header.
        MAIL_FROM: `Maildesk ${name} <${name}@maildesk.test>`,
        JOB_POLL_MS: '500',
        HOUSEKEEPING_CRON: '* * * * *',
      }),
    );
  }
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await smtp?.close();
  await database?.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

it('When 200 messages are queued and two processes work the queue, then each arrives exactly once, and the schedule runs once per minute', async () => {
  const started = Date.now();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  // Another application enqueues through pg-boss itself (no workers, no schedules of its own).
  const boss = new PgBoss({ connectionString: database.url, supervise: false, schedule: false, migrate: false });
  await boss.start();
  const recipients = Array.from({ length: 200 }, (_, i) => `two-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`);
  try {
    for (const to of recipients) {
      const { rows } = await client.query(
        `insert into email_send_log (template_key, locale, recipient, subject, status, transport, created_at) values ('account_exists', 'en', $1, 'Notice', 'pending', 'smtp', $2) returning id`,
        [to, new Date().toISOString()],
      );
      await boss.send('mail.send', { sendLogId: Number(rows[0].id), key: 'account_exists', locale: 'en', to, params: {}, messageId: `<${crypto.randomUUID()}@maildesk.test>` }, { retryLimit: 5, retryDelay: 30, retryBackoff: true });
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }

  const to = (message: string) => /^To: (.*)$/m.exec(message)?.[1]?.trim();
  const from = (message: string) => /^From: .*<(\w)@maildesk\.test>/m.exec(message)?.[1];
  await waitFor('200 messages', () => new Set(smtp.received.map(to)).size >= 200, 120_000);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const ours = smtp.received.filter((m) => recipients.includes(to(m)!));
  expect(ours).toHaveLength(200);
  expect(new Set(ours.map(to)).size).toBe(200);
  const bySender = { a: ours.filter((m) => from(m) === 'a').length, b: ours.filter((m) => from(m) === 'b').length };
  console.log(`messages sent by process a: ${bySender.a}, by process b: ${bySender.b}`);
  expect(bySender.a + bySender.b).toBe(200);
  expect(bySender.a).toBeGreaterThan(0);
  expect(bySender.b).toBeGreaterThan(0);
  const log = await client.query(`select status, count(*)::int as n, max(attempts) as attempts from email_send_log group by status`);
  expect(log.rows).toEqual([{ status: 'sent', n: 200, attempts: 1 }]);

  // The schedule: at least two minutes pass with both processes up; each minute, one run.
  await waitFor(
    'two minutes of housekeeping',
    async () => (await client.query(`select count(distinct date_trunc('minute', created_on))::int as n from pgboss.job where name = 'housekeeping' and state = 'completed'`)).rows[0].n >= 2,
    Math.max(60_000, 200_000 - (Date.now() - started)),
  );
  // pg-boss's cron may deliver a minute twice (server/jobs/pg-boss-queue.ts): the repeat is completed without running.
  const runs = await client.query(
    `select date_trunc('minute', created_on) as minute, count(*)::int as n from pgboss.job where name = 'housekeeping' and not coalesce(output ? 'repeat', false) group by 1 order by 1`,
  );
  expect(runs.rows.length).toBeGreaterThanOrEqual(2);
  for (const row of runs.rows) expect(row.n).toBe(1);
  await client.end();
});
