/**
 * A real server process killed with SIGKILL while payment notices are being handled and their
 * fulfilments are queued or running: after a restart (and Stripe's redelivery of what was not
 * acknowledged) every paid order is fulfilled exactly once. A notice is recorded together with
 * its fulfilment job in one transaction; the job queue runs what the crash left undone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { freshPostgresDatabase } from '../helpers/postgres.js';
import { startStripeStandin, type StripeStandin } from '../helpers/stripe-standin.js';

vi.setConfig({ testTimeout: 240_000 });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-crash-'));
let stripe: StripeStandin;
let pgDatabase: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
beforeAll(async () => {
  stripe = await startStripeStandin();
  if (process.env.DATABASE_URL) pgDatabase = await freshPostgresDatabase(process.env.DATABASE_URL);
});
afterAll(async () => {
  await stripe.close();
  await pgDatabase?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(): Promise<{ child: ChildProcess; address: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, ...stripe.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'root-password-1', DATABASE_URL: pgDatabase?.url ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed:\n${output}`)), 120_000);
    child.stdout!.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match && output.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { child, address };
}

it('When the server is killed with SIGKILL while payment notices arrive, then after restart and redelivery each order is fulfilled exactly once', async () => {
  let server = await startServer();
  const call = async (method: 'GET' | 'POST', url: string, body: unknown, token = '') => {
    const query = method === 'GET' ? `?${new URLSearchParams(body as Record<string, string>)}` : '';
    const response = await fetch(`${server.address}${url}${query}`, {
      method,
      headers: { authentication: token, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
    });
    return response.json();
  };
  const root = (await call('POST', '/api/manage/login/login', { username: 'admin', password: 'root-password-1' })).data.token;
  await call('POST', '/api/manage/user/create', { email: 'crash@example.com', password: 'customer-pass-1', is_verified: 1 }, root);
  const customer = (await call('POST', '/api/admin/login/login', { email: 'crash@example.com', password: 'customer-pass-1' })).data.token;
  const product = (await call('POST', '/api/manage/product/create', { kind: 'storage', name_zh: '存储', name_en: 'Storage', price: 100, storage_size: 1024 ** 3, period_months: 1 }, root)).data;
  const notices: { orderId: number; payload: string; signature: string }[] = [];
  for (let i = 0; i < 30; i++) {
    const order = (await call('POST', '/api/admin/order/create', { product_id: product.id, pay_with: 'card' }, customer)).data;
    const checkout = (await call('POST', '/api/admin/order/create_payment_checkouturl', { id: order.id }, customer)).data;
    const session = stripe.pay(checkout.session_id);
    notices.push({ orderId: order.id, ...stripe.notice('checkout.session.completed', session) });
  }
  const deliver = (address: string, n: (typeof notices)[number]) =>
    fetch(`${address}/api/payment/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': n.signature }, body: n.payload })
      .then((r) => r.status)
      .catch(() => 'no answer' as const);

  // All notices at once; the process dies as soon as the first one has been answered.
  const inFlight = notices.map((n) => deliver(server.address, n));
  await Promise.race(inFlight);
  server.child.kill('SIGKILL');
  const first = await Promise.all(inFlight);
  expect(first).toContain(200);
  expect(first).toContain('no answer');

  server = await startServer();
  // Stripe redelivers what was not acknowledged; here every notice comes again, twice.
  for (const n of notices) {
    expect(await deliver(server.address, n)).toBe(200);
    expect(await deliver(server.address, n)).toBe(200);
  }
  // The restarted worker runs the fulfilments the crash left queued.
  const deadline = Date.now() + 120_000;
  const statuses = async () => Promise.all(notices.map(async (n) => (await call('GET', '/api/manage/order/get', { id: String(n.orderId) }, root)).data.status as string));
  while ((await statuses()).some((s) => s !== 'fulfilled') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
  for (const n of notices) {
    const order = (await call('GET', '/api/manage/order/get', { id: String(n.orderId) }, root)).data;
    const history = (await call('GET', '/api/manage/order/history', { id: String(n.orderId) }, root)).data.history as { to_status: string }[];
    expect({ id: n.orderId, status: order.status, fulfilments: history.filter((h) => h.to_status === 'fulfilled').length }).toEqual({ id: n.orderId, status: 'fulfilled', fulfilments: 1 });
  }
  const blocks = (await call('POST', '/api/manage/storage/list', { page_size: 100 }, root)).data;
  expect(blocks.total).toBe(notices.length);
  expect(new Set(blocks.list.map((b: { order_id: number }) => b.order_id)).size).toBe(notices.length);
  // Its shutdown still writes (the database, queued mail): the data directory goes once it has exited.
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
});
