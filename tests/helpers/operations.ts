/**
 * What the tests of `maildesk` (server/operations) share: a work folder for backups and restores,
 * the environment the command reads for a running test app, and the neighbours doctor asks (a DNS
 * server that knows the mail host's MX, an SMTP server that answers).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestApp } from './app.js';
import { startDnsServer } from './dns-server.js';
import { smtpSink } from './smtp-sink.js';

/** The environment `maildesk` is run with for the test app (what its npm start would read). */
export const appEnv = (t: TestApp) => ({ DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl ?? '' });

/** A work folder (removed by `remove`): paths that do not exist yet, empty folders, and the app's environment with attachments in an empty one. */
export function workFolder(name: string) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `maildesk-${name}-`));
  let n = 0;
  const emptyDir = () => fs.mkdtempSync(path.join(work, 'empty-'));
  return {
    work,
    fresh: (file = 'file') => path.join(work, `${file}-${++n}`),
    emptyDir,
    envOfApp: (t: TestApp) => ({ ...appEnv(t), ATTACHMENT_DIR: emptyDir() }),
    remove: () => fs.rmSync(work, { recursive: true, force: true }),
  };
}

/** The DNS server and SMTP server doctor checks, up; `env` names them (with the mail host mx.doctor.test) for a test app. */
export async function doctorNeighbours() {
  const dns = await startDnsServer();
  dns.mx('mx.doctor.test', 'mail.doctor.test');
  const smtp = await smtpSink();
  await smtp.up();
  return {
    dns,
    smtp,
    env: (t: TestApp, more: Record<string, string> = {}) => ({ ...appEnv(t), DNS_SERVERS: dns.address, SMTP_URL: smtp.url, MAIL_HOSTNAME: 'mx.doctor.test', ...more }),
    async close() {
      await smtp.close();
      await dns.close();
    },
  };
}
