/** Starts the built app (node dist/server/main.js, as `npm start` does after building) for the browser tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import dgram from 'node:dgram';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
// Shop.
import { startStripeStandin } from '../helpers/stripe-standin';

/** One app of the suite's: each test worker drives its own (browser.ts: suiteApp()), its files one after another. */
export interface SuiteApp {
  baseUrl: string;
  dataDir: string;
  /** UDP port of the DNS server the app asks (DNS_SERVERS); a test binds its own zone there. */
  dnsPort: number;
  /** Shop: the local Stripe stand-in the app pays through (its checkout pages live there). */
  stripeUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    apps: SuiteApp[];
    operator: { username: string; password: string };
  }
}

const operator = { username: 'root', password: 'root-password-1' };
/** What the mail server presents to hand over reports (reports.e2e.ts posts them as the mail server would). */
export const MAIL_SERVER_TOKEN = 'e2e-mail-server-token-0123456789';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

export async function waitUntilUp(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${url}/api/openapi.json`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the app did not start:\n${log()}`);
}

/** The built app on a free port with a fresh data directory, its DNS port and its Stripe stand-in. */
async function startSuiteApp(): Promise<SuiteApp & { stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-e2e-'));
  const port = await freePort();
  // Nothing answers there until a test starts its zone: lookups fail at once (records "unchecked").
  const dnsPort = await freeUdpPort();
  // Shop: card payments go to a local Stripe stand-in, which notifies the app when "paid".
  const stripe = await startStripeStandin();
  let output = '';
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      ...stripe.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: operator.username,
      ADMIN_PASSWORD: operator.password,
      LOG_LEVEL: 'warn',
      // Behind a proxy as in production: a test client may say which address it calls from.
      TRUST_PROXY: '1',
      DNS_SERVERS: `127.0.0.1:${dnsPort}`,
      MAIL_HOSTNAME: 'mx.maildesk.test',
      // Bringing the mail is set up; no IMAP server runs here (the mail suite copies for real).
      MAIL_COPY_IMAP: 'imap://127.0.0.1:1',
      MAIL_COPY_MASTER_USER: 'maildesk-copy',
      MAIL_COPY_MASTER_PASSWORD: 'e2e-master-password',
      // The copies the browser starts name 127.0.0.1: the operator allows this machine.
      MAIL_COPY_ALLOW_NETWORKS: '127.0.0.1/32',
      SECRET_KEY: '1'.repeat(64),
      MAIL_SERVER_TOKEN,
      SMTP_URL: '',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilUp(baseUrl, child, () => output);
  stripe.setWebhook(`${baseUrl}/api/payment/stripe/webhook`);
  return {
    baseUrl,
    dataDir,
    dnsPort,
    stripeUrl: stripe.url,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      await stripe.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An app per test worker: a file waits on its pages part of the time (one file alone used a
 * core and a half), so three run side by side; each worker's files share an app one after another,
 * as the whole suite once shared one (their global settings, the operator's sessions, the DNS port).
 */
export default async function setup(project: TestProject) {
  if (!fs.existsSync('dist/server/main.js') || !fs.existsSync('dist/web/index.html')) {
    throw new Error('Build first: npm run build (npm run test:e2e does it)');
  }
  const count = Math.max(1, Number(project.config.maxWorkers) || 1);
  // One after another: each takes the free ports it found before the next looks.
  const apps: Awaited<ReturnType<typeof startSuiteApp>>[] = [];
  for (let i = 0; i < count; i++) apps.push(await startSuiteApp());
  project.provide('apps', apps.map(({ baseUrl, dataDir, dnsPort, stripeUrl }) => ({ baseUrl, dataDir, dnsPort, stripeUrl })));
  project.provide('operator', operator);
  return async () => {
    await Promise.all(apps.map((app) => app.stop()));
  };
}
