/**
 * Card payments through Stripe Checkout, offline: the official SDK talks to a local stand-in
 * speaking Stripe's API, and notices are signed with the SDK's own test helper.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { expectLedgerMatchesBalances, GiB, shopFixtures, startAppWithCards } from '../helpers/shop-fixtures.js';
import type { StandinSession, StripeStandin } from '../helpers/stripe-standin.js';
import { expireOverdueOrders } from '../../server/shop/expiry.js';

let app: Awaited<ReturnType<typeof startAppWithCards>>;
let t: TestApp;
let stripe: StripeStandin;
let shop: ReturnType<typeof shopFixtures>;

/** Runs the queued work (fulfilments, give-backs, mails) as the worker would. */
const settle = () => t.services.jobs.drain();

/** Posts a notice to the app exactly as Stripe does: raw JSON body, Stripe-Signature header. */
const post = (payload: string, signature: string) => app.webhook(payload, signature);

beforeAll(async () => {
  app = await startAppWithCards();
  ({ t, stripe } = app);
  shop = shopFixtures(t);
});
afterEach(() => expectLedgerMatchesBalances(t));
afterAll(() => app.close());

/** A customer's pending storage order with an open checkout session at the stand-in. */
async function cardOrder(customer?: CustomerSession, product?: { id: number }) {
  customer ??= await signUpCustomer(t);
  const productId = (product ?? (await shop.storageProduct({ price: 1200, storage_size: GiB }))).id;
  const order = await shop.order(customer.token, { product_id: productId, pay_with: 'card' });
  const checkout = await t.post('/api/admin/order/create_payment_checkouturl', { id: order.id }, { token: customer.token });
  expect(checkout.code).toBe(0);
  const session = stripe.sessions.get(checkout.data.session_id)!;
  return { customer, order, checkout: checkout.data, session };
}

/** The order-paid mail's subject, in either language. */
// The paid mail names the order by its number.
const paidMail = (number: string) => new RegExp(`(order|订单) ${number} `);
const orderOf = async (id: number) => t.services.db.selectFrom('shop_order').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const blocksOf = async (orderId: number) => t.services.db.selectFrom('storage').select('id').where('order_id', '=', orderId).execute();
const fulfilments = async (orderId: number) =>
  t.services.db.selectFrom('order_history').select('id').where('order_id', '=', orderId).where('to_status', '=', 'fulfilled').execute();

describe('Stripe Checkout', () => {
  it('When a customer pays on the checkout page, then the signed notice fulfils the order and the capacity grows', async () => {
    const { customer, order, checkout, session } = await cardOrder();
    expect(checkout).toMatchObject({ available: true, url: `${stripe.url}/pay/${session.id}` });
    expect(session).toMatchObject({ amount_total: 1200, currency: 'cny', metadata: { order_id: String(order.id) }, mode: 'payment' });
    expect(session.expires_at * 1000).toBeGreaterThan(Date.now() + 29 * 60_000);
    const created = stripe.requests.find((r) => r.path === '/v1/checkout/sessions' && r.body.metadata?.order_id === String(order.id))!;
    expect(created.idempotencyKey).toBe(`maildesk-order-${order.id}-checkout-1`);
    // Asking again while the session is open answers the same page.
    expect((await t.post('/api/admin/order/create_payment_checkouturl', { id: order.id }, { token: customer.token })).data.session_id).toBe(session.id);

    const page = await fetch(checkout.url);
    expect(await page.text()).toContain('Pay');
    const paid = await fetch(checkout.url, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://maildesk.test/admin/order/view?id=${order.id}&paid=1`);
    // Recorded as paid at once; fulfilled by the queued job.
    expect(await orderOf(order.id)).toMatchObject({ status: 'paid', payment_method: 'stripe' });
    await settle();
    expect(await orderOf(order.id)).toMatchObject({ status: 'fulfilled', payment_method: 'stripe' });
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.capacity).toBe(GiB);
    const history = await t.get('/api/admin/order/history', { id: order.id }, { token: customer.token });
    expect(history.data.history.map((h: { to_status: string; actor_type: string }) => `${h.to_status}/${h.actor_type}`)).toEqual(['pending_payment/customer', 'paid/provider', 'fulfilled/system']);
    expect(history.data.payments).toMatchObject([{ provider: 'stripe', status: 'paid', amount: 1200, currency: 'CNY' }]);
    expect((await t.outbox()).filter((m) => m.to === customer.email && paidMail(order.number).test(m.subject))).toHaveLength(1);
  });

  it('When the same paid notice arrives 5 times in a row and 20 times at once, then the order is fulfilled once', async () => {
    for (const [times, concurrent] of [
      [5, false],
      [20, true],
    ] as const) {
      const { customer, order, session } = await cardOrder();
      stripe.pay(session.id);
      const { payload, signature } = stripe.notice('checkout.session.completed', session);
      const replies = concurrent
        ? await Promise.all(Array.from({ length: times }, () => post(payload, signature)))
        : await (async () => {
            const all = [];
            for (let i = 0; i < times; i++) all.push(await post(payload, signature));
            return all;
          })();
      expect(replies.map((r) => r.code)).toEqual(Array(times).fill(0));
      expect(replies.filter((r) => r.data.handled === 'paid')).toHaveLength(1);
      await settle();
      expect(await blocksOf(order.id)).toHaveLength(1);
      expect(await fulfilments(order.id)).toHaveLength(1);
      expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.capacity).toBe(GiB);
      expect((await t.outbox()).filter((m) => m.to === customer.email && paidMail(order.number).test(m.subject))).toHaveLength(1);
    }
  });

  it('When a notice has a bad signature, a wrong amount, currency or order, then it is refused and nothing changes', async () => {
    const { order, session } = await cardOrder();
    stripe.pay(session.id);
    const good = stripe.notice('checkout.session.completed', session);
    const tries: [string, string][] = [
      [good.payload, stripe.notice('checkout.session.completed', session, 'whsec_someone_else').signature],
      [good.payload, ''],
      [good.payload.replace('"amount_total":1200', '"amount_total":1201'), good.signature],
      [stripe.notice('checkout.session.completed', { ...session, amount_total: 1 }).payload, stripe.notice('checkout.session.completed', { ...session, amount_total: 1 }).signature],
      ...[{ amount_total: 1 }, { currency: 'usd' }, { metadata: { order_id: String(order.id + 1000) } }].map((change) => {
        const n = stripe.notice('checkout.session.completed', { ...session, ...change } as StandinSession);
        return [n.payload, n.signature] as [string, string];
      }),
    ];
    for (const [payload, signature] of tries) {
      const reply = await post(payload, signature);
      expect(reply.status).toBe(400);
      expect(['shop.bad_signature', 'shop.payment_mismatch']).toContain(reply.message);
    }
    expect(await orderOf(order.id)).toMatchObject({ status: 'pending_payment', paid_at: null });
    expect(await blocksOf(order.id)).toHaveLength(0);
    expect((await t.services.db.selectFrom('payment').select('status').where('session_id', '=', session.id).executeTakeFirstOrThrow()).status).toBe('open');
    // The genuine notice still works afterwards.
    expect((await post(good.payload, good.signature)).data.handled).toBe('paid');
    await settle();
    expect((await orderOf(order.id)).status).toBe('fulfilled');
  });

  it('When a payment is delayed (bank debit), then only async success fulfils; a failure leaves the order payable', async () => {
    const { order, session } = await cardOrder();
    const completedUnpaid = stripe.notice('checkout.session.completed', session);
    expect((await post(completedUnpaid.payload, completedUnpaid.signature)).data.handled).toBe('awaiting_async_payment');
    const failed = stripe.notice('checkout.session.async_payment_failed', session);
    expect((await post(failed.payload, failed.signature)).data.handled).toBe('failed');
    expect((await orderOf(order.id)).status).toBe('pending_payment');
    stripe.pay(session.id);
    const succeeded = stripe.notice('checkout.session.async_payment_succeeded', session);
    expect((await post(succeeded.payload, succeeded.signature)).data.handled).toBe('paid');
    await settle();
    expect((await orderOf(order.id)).status).toBe('fulfilled');
  });

  it('When an order expires and its payment arrives at the same moment, then it is either fulfilled or expired with the money given back, never neither', { timeout: 180_000 }, async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const { order, session } = await cardOrder();
      await t.services.db.updateTable('shop_order').set({ pay_before: new Date(Date.now() - 1000).toISOString() }).where('id', '=', order.id).execute();
      stripe.pay(session.id);
      const { payload, signature } = stripe.notice('checkout.session.completed', session);
      const racers = [() => expireOverdueOrders(t.services), () => post(payload, signature)];
      if (round % 2) racers.reverse();
      await Promise.all(racers.map((run) => run()));
      await settle();
      const final = await orderOf(order.id);
      const payment = await t.services.db.selectFrom('payment').select('status').where('session_id', '=', session.id).executeTakeFirstOrThrow();
      const refunds = stripe.refunds.filter((r) => r.payment_intent === session.payment_intent);
      if (final.status === 'fulfilled') {
        expect({ payment: payment.status, refunds: refunds.length, blocks: (await blocksOf(order.id)).length }).toEqual({ payment: 'paid', refunds: 0, blocks: 1 });
      } else {
        expect({ status: final.status, payment: payment.status, refunds: refunds.length, blocks: (await blocksOf(order.id)).length }).toEqual({ status: 'expired', payment: 'refunded', refunds: 1, blocks: 0 });
      }
      outcomes.add(final.status);
    }
    expect(outcomes.size).toBeGreaterThanOrEqual(1);
  });

  it('When a late notice arrives for an expired order, then the payment goes back to the card once, however often it is repeated', async () => {
    const { order, session } = await cardOrder();
    await t.services.db.updateTable('shop_order').set({ pay_before: new Date(Date.now() - 1000).toISOString() }).where('id', '=', order.id).execute();
    await expireOverdueOrders(t.services);
    // Expiry closed the session at the provider; a payment that slipped through still arrives.
    expect(session.status).toBe('expired');
    session.status = 'open';
    stripe.pay(session.id);
    const { payload, signature } = stripe.notice('checkout.session.completed', session);
    for (let i = 0; i < 3; i++) expect((await post(payload, signature)).code).toBe(0);
    await settle();
    expect((await orderOf(order.id)).status).toBe('expired');
    expect(stripe.refunds.filter((r) => r.payment_intent === session.payment_intent)).toHaveLength(1);
  });

  it('When an operator refunds a card order to the card, then Stripe refunds it once (idempotency key) and the capacity goes', async () => {
    const { customer, order, session } = await cardOrder();
    stripe.pay(session.id);
    const { payload, signature } = stripe.notice('checkout.session.completed', session);
    await post(payload, signature);
    await settle();
    const operator = await shop.operator();
    const refunded = await t.post('/api/manage/order/refund', { id: order.id, to: 'original', reason: 'Not needed' }, { token: operator });
    expect(refunded.data.status).toBe('refunded');
    const refunds = stripe.refunds.filter((r) => r.payment_intent === session.payment_intent);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].idempotencyKey).toBe(`maildesk-refund-order-${order.id}`);
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.capacity).toBe(0);
    expect(await shop.balanceOf(customer.id)).toBe(0);
  });

  it('When a points top-up is paid by card, then the points are credited once; refunded to points, they are not credited twice', async () => {
    const customer = await signUpCustomer(t);
    const topup = await shop.pointsProduct({ price: 800, points_granted: 1000 });
    const { order, session } = await cardOrder(customer, topup);
    stripe.pay(session.id);
    const { payload, signature } = stripe.notice('checkout.session.completed', session);
    await Promise.all([post(payload, signature), post(payload, signature)]);
    await settle();
    expect(await shop.balanceOf(customer.id)).toBe(1000);
    const operator = await shop.operator();
    expect((await t.post('/api/manage/order/refund', { id: order.id, to: 'points' }, { token: operator })).data.status).toBe('refunded');
    // The 1000 top-up points are taken back and the 800 paid come back as points.
    expect(await shop.balanceOf(customer.id)).toBe(800);
  });
});
