/** Shop data made through the API, and the ledger invariant every points-changing test checks. */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from './app.js';
import { operatorLogin } from './fixtures.js';
import { startStripeStandin } from './stripe-standin.js';

export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;

export function shopFixtures(t: TestApp) {
  let rootToken: Promise<string> | undefined;
  const operator = () => (rootToken ??= operatorLogin(t));
  const ok = async <T = any>(reply: Promise<{ code: number; data: T; message: string; errors?: unknown }>, what: string): Promise<T> => {
    const r = await reply;
    if (r.code !== 0) throw new Error(`${what} failed: ${r.code} ${r.message} ${JSON.stringify(r.errors ?? {})}`);
    return r.data;
  };
  return {
    operator,
    ok,
    /** A visible storage product (1 GiB for 12 months at 1,000 minor units unless told otherwise). */
    async storageProduct(extra: Record<string, unknown> = {}) {
      return ok<any>(
        t.post(
          '/api/manage/product/create',
          { kind: 'storage', name_zh: '存储 1 GB', name_en: 'Storage 1 GB', price: 1000, storage_size: GiB, period_months: 12, ...extra },
          { token: await operator() },
        ),
        'storage product',
      );
    },
    async pointsProduct(extra: Record<string, unknown> = {}) {
      return ok<any>(
        t.post('/api/manage/product/create', { kind: 'points', name_zh: '积分 500', name_en: '500 points', price: 500, points_granted: 500, ...extra }, { token: await operator() }),
        'points product',
      );
    },
    /** A promotion running now (from an hour ago, for a day). */
    async promotion(productIds: number[], extra: Record<string, unknown> = {}) {
      const hour = 3600_000;
      return ok<any>(
        t.post(
          '/api/manage/activity/create',
          {
            name_zh: '促销',
            name_en: 'Promotion',
            kind: 'percent',
            value: 20,
            product_ids: productIds,
            starts_at: new Date(Date.now() - hour).toISOString(),
            ends_at: new Date(Date.now() + 24 * hour).toISOString(),
            ...extra,
          },
          { token: await operator() },
        ),
        'promotion',
      );
    },
    async grantPoints(userId: number, points: number, note = 'test grant') {
      return ok<any>(t.post('/api/manage/user/add_points', { user_id: userId, points, note, key: crypto.randomUUID() }, { token: await operator() }), 'grant points');
    },
    async order(token: string, body: Record<string, unknown>) {
      return ok<any>(t.post('/api/admin/order/create', body, { token }), 'order');
    },
    /**
     * A card order paid on the checkout page (the app must take cards: startAppWithCards), its
     * fulfilment job run as the worker would.
     */
    async payByCard(token: string, productId: number) {
      const order = await ok<any>(t.post('/api/admin/order/create', { product_id: productId, pay_with: 'card' }, { token }), 'card order');
      const checkout = await ok<any>(t.post('/api/admin/order/create_payment_checkouturl', { id: order.id }, { token }), 'checkout page');
      const paid = await fetch(checkout.url, { method: 'POST', redirect: 'manual' });
      if (paid.status !== 303) throw new Error(`paying on the checkout page failed: ${paid.status}`);
      await t.services.jobs.drain();
      return order;
    },
    /** The customer's points ledger as they read it, oldest first: [reason, delta, balance after]. */
    async ledgerOf(token: string): Promise<[string, number, number][]> {
      const reply = await ok<any>(t.post('/api/admin/points/list', { sort: 'id', order: 'asc', page_size: 100 }, { token }), 'points list');
      return reply.list.map((e: { reason: string; delta: number; balance_after: number }) => [e.reason, e.delta, e.balance_after]);
    },
    async balanceOf(userId: number): Promise<number> {
      const row = await t.services.db.selectFrom('user').select('points').where('id', '=', userId).executeTakeFirstOrThrow();
      return Number(row.points);
    },
  };
}

/**
 * The app taking cards through the local Stripe stand-in, whose notices reach the app's webhook
 * in-process, signed as Stripe signs them.
 */
export async function startAppWithCards(env: Record<string, string> = {}) {
  const stripe = await startStripeStandin();
  const t = await startTestApp({ ...stripe.env, ...env });
  /** Posts a notice exactly as Stripe does: raw JSON body, Stripe-Signature header. */
  const webhook = async (payload: string, signature: string) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/payment/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
    return { status: response.statusCode, ...response.json() };
  };
  stripe.setWebhook(webhook);
  return {
    t,
    stripe,
    webhook,
    async close() {
      await t.close();
      await stripe.close();
    },
  };
}

/**
 * The points invariant: for every customer, the ledger's deltas sum to the cached balance,
 * the newest row's balance_after is that balance, and no balance is negative.
 */
export async function expectLedgerMatchesBalances(t: TestApp) {
  const { db } = t.services;
  const users = await db.selectFrom('user').select(['id', 'points']).execute();
  const sums = await db
    .selectFrom('points_ledger')
    .select(['user_id', (eb) => eb.fn.sum<number>('delta').as('total'), (eb) => eb.fn.max<number>('id').as('last')])
    .groupBy('user_id')
    .execute();
  const byUser = new Map(sums.map((s) => [Number(s.user_id), s]));
  for (const user of users) {
    const sum = byUser.get(Number(user.id));
    expect({ user: user.id, balance: Number(user.points) }).toEqual({ user: user.id, balance: Number(sum?.total ?? 0) });
    expect(Number(user.points)).toBeGreaterThanOrEqual(0);
    if (sum) {
      const last = await db.selectFrom('points_ledger').select('balance_after').where('id', '=', Number(sum.last)).executeTakeFirstOrThrow();
      expect(Number(last.balance_after)).toBe(Number(user.points));
    }
  }
}
