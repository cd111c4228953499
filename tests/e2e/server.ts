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

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    operator: { username: string; password: string };
    /** UDP port of the DNS server the app asks (DNS_SERVERS); a test binds its own zone there. */
    dnsPort: number;
    /** Shop: the local Stripe stand-in the app pays through (its checkout pages live there). */
    stripeUrl: string;
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

export default async function setup(project: TestProject) {
  if (!fs.existsSync('dist/server/main.js') || !fs.existsSync('dist/web/index.html')) {
    throw new Error('Build first: npm run build (npm run test:e2e does it)');
  }
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
  project.provide('stripeUrl', stripe.url);
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('operator', operator);
  project.provide('dnsPort', dnsPort);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    await stripe.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
