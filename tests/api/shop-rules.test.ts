/**
 * The shop's business rules at their edges: fulfilment happens once even when its job runs
 * again, a refund takes back the bonus it gave, a promotion applies only inside its window and
 * up to its limits exactly, and an order past its time gets no checkout page.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orderFulfilJob } from '../../server/shop/jobs.js';
import type { TestApp } from '../helpers/app.js';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { expectLedgerMatchesBalances, GiB, shopFixtures, startAppWithCards } from '../helpers/shop-fixtures.js';
import type { StripeStandin } from '../helpers/stripe-standin.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let app: Awaited<ReturnType<typeof startAppWithCards>>;
let t: TestApp;
let stripe: StripeStandin;
let shop: ReturnType<typeof shopFixtures>;
beforeAll(async () => {
  app = await startAppWithCards();
  ({ t, stripe } = app);
  shop = shopFixtures(t);
});
afterEach(async () => {
  t.resetClock();
  await expectLedgerMatchesBalances(t);
});
afterAll(() => app.close());

const orderRow = (id: number) => t.services.db.selectFrom('shop_order').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const usesOf = async (promotionId: number) => (await t.get('/api/manage/activity/get', { id: promotionId }, { token: await shop.operator() })).data.used_count;
/** Today's offer for a product, as the customer (or, without a token, a visitor) sees it in the shop. */
const offerOf = async (productId: number, customer?: CustomerSession) =>
  (await t.post(customer ? '/api/admin/product/list' : '/api/product/list', { page_size: 100 }, { token: customer?.token ?? '' })).data.list.find((p: { id: number }) => p.id === productId).offer;
const fullPrice = (price: number) => ({ price, discount: 0, amount: price, bonus_points: 0, activity_id: null });

describe('fulfilment happens once', () => {
  it('When the fulfilment job of a fulfilled card order runs again (a run cut short by a crash, or queued twice), then no second block, bonus or paid mail is given', async () => {
    const product = await shop.storageProduct({ price: 1200, storage_size: GiB });
    await shop.promotion([product.id], { kind: 'bonus_points', value: 70 });
    const customer = await signUpCustomer(t);
    const order = await shop.payByCard(customer.token, product.id);
    expect(await orderRow(order.id)).toMatchObject({ status: 'fulfilled', bonus_points: 70 });

    // The queue runs a job again when its run was cut short; and the job may be queued once more.
    for (let attempt = 2; attempt <= 3; attempt++) await orderFulfilJob.handler({ orderId: order.id }, { services: t.services, attempt, finalAttempt: false });
    await t.services.jobs.enqueue(t.services.db, orderFulfilJob, { orderId: order.id });
    await t.services.jobs.drain();

    const blocks = await t.services.db.selectFrom('storage').select(['size', 'order_id']).where('owner_id', '=', customer.id).execute();
    expect(blocks).toEqual([{ size: GiB, order_id: order.id }]);
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data).toMatchObject({ capacity: GiB, active_blocks: 1 });
    expect(await shop.ledgerOf(customer.token)).toEqual([['bonus', 70, 70]]);
    const history = await t.get('/api/admin/order/history', { id: order.id }, { token: customer.token });
    expect(history.data.history.map((h: { to_status: string }) => h.to_status)).toEqual(['pending_payment', 'paid', 'fulfilled']);
    const paidMails = (await t.outbox()).filter((m) => m.to === customer.email && m.subject.includes(order.number));
    expect(paidMails).toHaveLength(1);
  });
});

describe('a refund takes back what the order gave', () => {
  it('When a storage order that earned bonus points is refunded to points, then the bonus is taken back with the block and the price comes back', async () => {
    const product = await shop.storageProduct({ price: 300 });
    const promotion = await shop.promotion([product.id], { kind: 'bonus_points', value: 50 });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 1000);
    const order = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    expect(order).toMatchObject({ status: 'fulfilled', amount: 300, bonus_points: 50, activity_id: promotion.id });
    expect(await shop.balanceOf(customer.id)).toBe(750);

    const refunded = await t.post('/api/manage/order/refund', { id: order.id, to: 'points', reason: 'Changed their mind' }, { token: await shop.operator() });
    expect(refunded).toMatchObject({ code: 0, data: { status: 'refunded' } });
    expect((await t.post('/api/admin/points/balance', {}, { token: customer.token })).data).toEqual({ balance: 1000, currency: 'CNY' });
    expect(await shop.ledgerOf(customer.token)).toEqual([
      ['grant', 1000, 1000],
      ['order_payment', -300, 700],
      ['bonus', 50, 750],
      ['deduction', -50, 700],
      ['refund', 300, 1000],
    ]);
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.capacity).toBe(0);
  });

  it('When a card-paid storage order that earned bonus points is refunded to the card, then the bonus is taken back and the balance is what it was', async () => {
    const product = await shop.storageProduct({ price: 900 });
    await shop.promotion([product.id], { kind: 'bonus_points', value: 40 });
    const customer = await signUpCustomer(t);
    const order = await shop.payByCard(customer.token, product.id);
    expect(await shop.balanceOf(customer.id)).toBe(40);
    const refunded = await t.post('/api/manage/order/refund', { id: order.id, to: 'original' }, { token: await shop.operator() });
    expect(refunded).toMatchObject({ code: 0, data: { status: 'refunded' } });
    expect(await shop.ledgerOf(customer.token)).toEqual([
      ['bonus', 40, 40],
      ['deduction', -40, 0],
    ]);
    expect(await shop.balanceOf(customer.id)).toBe(0);
  });
});

describe('a promotion applies only inside its window', () => {
  it('When a promotion starts in an hour, then neither the shop nor an order has it until then; from its start both do', async () => {
    const product = await shop.storageProduct({ price: 1000 });
    const startsAt = Date.now() + HOUR;
    const promotion = await shop.promotion([product.id], { kind: 'percent', value: 30, starts_at: new Date(startsAt).toISOString(), ends_at: new Date(startsAt + 24 * HOUR).toISOString() });
    const customer = await signUpCustomer(t);

    expect(await offerOf(product.id)).toEqual(fullPrice(1000));
    expect(await offerOf(product.id, customer)).toEqual(fullPrice(1000));
    const early = await shop.order(customer.token, { product_id: product.id });
    expect(early).toMatchObject({ price: 1000, discount: 0, amount: 1000, bonus_points: 0, activity_id: null });
    expect(await usesOf(promotion.id)).toBe(0);

    await t.moveClock(HOUR + MINUTE);
    const started = { price: 1000, discount: 300, amount: 700, bonus_points: 0, activity_id: promotion.id };
    expect(await offerOf(product.id, customer)).toEqual(started);
    expect(await shop.order(customer.token, { product_id: product.id })).toMatchObject(started);
    expect(await usesOf(promotion.id)).toBe(1);
  });
});

describe('a promotion’s limits, to the use', () => {
  it('When a promotion may be used 3 times in all, then exactly 3 orders get it and the 4th pays the full price; a cancelled one gives its use to the next', async () => {
    const product = await shop.storageProduct({ price: 1000 });
    const promotion = await shop.promotion([product.id], { kind: 'amount', value: 100, total_limit: 3 });
    const [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
    const promoted = { price: 1000, discount: 100, amount: 900, activity_id: promotion.id };

    const orders = [];
    for (const customer of [a, b, a]) orders.push(await shop.order(customer.token, { product_id: product.id }));
    for (const order of orders) expect(order).toMatchObject(promoted);
    expect(await usesOf(promotion.id)).toBe(3);

    expect(await offerOf(product.id, b)).toEqual(fullPrice(1000));
    expect(await offerOf(product.id)).toEqual(fullPrice(1000));
    const fourth = await t.post('/api/admin/order/create', { product_id: product.id }, { token: b.token });
    expect(fourth).toMatchObject({ code: 0, data: { ...fullPrice(1000), status: 'pending_payment' } });
    expect(await usesOf(promotion.id)).toBe(3);

    expect((await t.post('/api/admin/order/cancel', { id: orders[1].id }, { token: b.token })).code).toBe(0);
    expect(await usesOf(promotion.id)).toBe(2);
    expect(await shop.order(b.token, { product_id: product.id })).toMatchObject(promoted);
    expect(await shop.order(a.token, { product_id: product.id })).toMatchObject(fullPrice(1000));
    expect(await usesOf(promotion.id)).toBe(3);
  });

  it('When a promotion may be used twice per customer, then a customer’s third order pays the full price while another customer still gets it', async () => {
    const product = await shop.storageProduct({ price: 1000 });
    const promotion = await shop.promotion([product.id], { kind: 'percent', value: 10, per_customer_limit: 2 });
    const [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
    const promoted = { price: 1000, discount: 100, amount: 900, activity_id: promotion.id };

    expect(await shop.order(a.token, { product_id: product.id })).toMatchObject(promoted);
    expect(await shop.order(a.token, { product_id: product.id })).toMatchObject(promoted);
    expect(await offerOf(product.id, a)).toEqual(fullPrice(1000));
    expect(await shop.order(a.token, { product_id: product.id })).toMatchObject(fullPrice(1000));
    expect(await offerOf(product.id, b)).toEqual({ ...promoted, bonus_points: 0 });
    expect(await shop.order(b.token, { product_id: product.id })).toMatchObject(promoted);
    expect(await usesOf(promotion.id)).toBe(3);
  });
});

describe('an order past its time', () => {
  it('When an unpaid card order is past its pay-before time but not yet expired by the schedule, then it gets no checkout page, neither a new one nor the one still open', async () => {
    const product = await shop.storageProduct({ price: 1200 });
    const customer = await signUpCustomer(t);
    const withPage = await shop.order(customer.token, { product_id: product.id, pay_with: 'card' });
    const withoutPage = await shop.order(customer.token, { product_id: product.id, pay_with: 'card' });
    const checkout = (id: number) => t.post('/api/admin/order/create_payment_checkouturl', { id }, { token: customer.token });
    expect(await checkout(withPage.id)).toMatchObject({ code: 0, data: { available: true } });
    const sessionsBefore = stripe.sessions.size;

    await t.moveClock(HOUR + MINUTE);
    for (const order of [withPage, withoutPage]) {
      expect(await checkout(order.id)).toMatchObject({ status: 409, code: 40900, message: 'shop.order_overdue' });
      expect(await orderRow(order.id)).toMatchObject({ status: 'pending_payment' });
    }
    expect(stripe.sessions.size).toBe(sessionsBefore);
    const payments = await t.services.db.selectFrom('payment').select('order_id').where('order_id', 'in', [withPage.id, withoutPage.id]).execute();
    expect(payments).toEqual([{ order_id: withPage.id }]);
  });
});
