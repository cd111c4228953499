/**
 * index/stat's business figures against values computed by hand on a seeded two-day data
 * set: card and points payments, a promotion, a refund to the card and one to points, a
 * cancelled order, top-ups, grants, capacity and a block due for renewal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../server/core/time.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures, MiB } from '../helpers/mail-fixtures.js';
import { shopFixtures, startAppWithCards } from '../helpers/shop-fixtures.js';

const DAY = 86_400_000;
// A fixed future noon (sessions compare with the real clock, so business time only moves ahead).
const TODAY = Date.UTC(2027, 5, 15, 12);
const YESTERDAY = TODAY - DAY;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let app: Awaited<ReturnType<typeof startAppWithCards>>;
let t: TestApp;
beforeAll(async () => {
  app = await startAppWithCards({ SESSION_IDLE_MINUTES: '10000000', SESSION_ABSOLUTE_HOURS: '1000000' });
  t = app.t;
});
afterAll(async () => {
  setClock();
  await app.close();
});

describe('index/stat business figures', () => {
  it('When two days of orders, refunds, promotions and points happened, then index/stat gives the hand-computed figures, from the summary and live alike', async () => {
    const shop = shopFixtures(t);
    const mail = mailFixtures(t);
    const root = await shop.operator();
    const payByCard = (customer: CustomerSession, productId: number) => shop.payByCard(customer.token, productId);

    // Yesterday: A and B register; A is granted 2,000 points and buys storage twice with
    // points at the promoted price (800); B buys storage and a 500-point top-up by card.
    setClock(new Date(YESTERDAY));
    const storage = await shop.storageProduct({ price: 1000, storage_size: GiB, period_months: 12, name_en: 'Storage 1 GiB' });
    const topup = await shop.pointsProduct({ price: 500, points_granted: 500, name_en: 'Points 500' });
    await shop.promotion([storage.id], { kind: 'percent', value: 20, starts_at: new Date(YESTERDAY - DAY).toISOString(), ends_at: new Date(TODAY + 10 * DAY).toISOString() });
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    await shop.grantPoints(a.id, 2000);
    const a1 = await shop.order(a.token, { product_id: storage.id, pay_with: 'points' });
    await shop.order(a.token, { product_id: storage.id, pay_with: 'points' });
    expect(a1).toMatchObject({ status: 'fulfilled', amount: 800 });
    const b1 = await payByCard(b, storage.id);
    await payByCard(b, topup.id);

    // Today: C registers, gets a 1 GiB block that expires in 10 days and a 100 MiB mailbox
    // holding 5 MiB, cancels an unpaid order and tops up by card; B's storage is refunded to
    // the card, A's first storage order to points.
    setClock(new Date(TODAY));
    const c = await signUpCustomer(t);
    await mail.grant(c.id, GiB, { expires_at: new Date(TODAY + 10 * DAY).toISOString() });
    const domain = await mail.activeDomain(c);
    const box = await mail.mailbox(c.token, domain.id, 'info', { quota: 100 * MiB });
    await t.services.db.insertInto('mailbox_usage').values({ address: box.address, bytes: 5 * MiB, messages: 3 }).execute(); // as Dovecot writes it
    const unpaid = await shop.order(c.token, { product_id: storage.id, pay_with: 'later' });
    expect((await t.post('/api/admin/order/cancel', { id: unpaid.id }, { token: c.token })).code).toBe(0);
    await payByCard(c, topup.id);
    expect((await t.post('/api/manage/order/refund', { id: b1.id, to: 'original', reason: 'Not needed' }, { token: root })).code).toBe(0);
    expect((await t.post('/api/manage/order/refund', { id: a1.id, to: 'points', reason: 'Duplicate' }, { token: root })).code).toBe(0);

    await t.services.jobs.runSchedule('stats.daily');
    const stat = await t.post('/api/manage/index/stat', { period: '30d' }, { token: root });
    expect(stat.code).toBe(0);
    const business = stat.data.business;
    expect(business.series).toHaveLength(30);
    const byDay = (ms: number) => business.series.find((p: { bucket: string }) => p.bucket === day(ms));
    expect(byDay(YESTERDAY)).toMatchObject({ paid: 1300, refunded: 0, revenue: 1300, customers_new: 2, customers_paying: 2, points_granted: 2000, points_spent: 1600 });
    expect(byDay(TODAY)).toMatchObject({ paid: 500, refunded: 800, revenue: -300, customers_new: 1, customers_paying: 1, points_granted: 0, points_spent: 0 });
    expect(business.totals).toMatchObject({ revenue: 1000, paid: 1800, refunded: 800, customers_new: 3 });
    expect(business.orders_by_status).toEqual({ pending_payment: 6, paid: 5, fulfilled: 5, refunded: 2, cancelled: 1 });
    expect(business.orders_pending_now).toBe(0);
    expect(business.top_products).toEqual([
      { product_id: topup.id, name_zh: '积分 500', name_en: 'Points 500', orders: 2, revenue: 1000 },
      { product_id: storage.id, name_zh: '存储 1 GB', name_en: 'Storage 1 GiB', orders: 3, revenue: 800 },
    ].sort((x, y) => y.orders - x.orders || y.revenue - x.revenue));
    expect(business.points).toEqual({ granted: 2000, bought: 1000, spent: 1600, refunded: 800, deducted: 0 });
    expect(business.capacity).toMatchObject({ sold: GiB, granted: GiB, allocated: 100 * MiB, used: 5 * MiB });
    expect(business.renewals_due_30d).toMatchObject({ blocks: 1, bytes: GiB, next: [{ owner_id: c.id, size: GiB }] });
    expect(business.currency).toBe('CNY');
    // Mail by the day it was queued, as the send log has it.
    const sentToday = await t.services.db.selectFrom('email_send_log').select('id').where('status', '=', 'sent').where('created_at', '>=', `${day(TODAY)}T00:00:00.000Z`).execute();
    expect(byDay(TODAY).mail_sent).toBe(sentToday.length);
    expect(business.totals.mail_failed).toBe(0);

    // The 12-month view adds the same days up by month.
    const year = (await t.post('/api/manage/index/stat', { period: '12m' }, { token: root })).data.business;
    expect(year.series).toHaveLength(12);
    expect(year.totals).toMatchObject({ revenue: 1000, paid: 1800, refunded: 800, customers_new: 3 });
    expect(year.series.at(-1)).toMatchObject({ bucket: day(TODAY).slice(0, 7), revenue: 1000 });

    // Tomorrow, yesterday's figures come from the summary alone, and they have not moved.
    setClock(new Date(TODAY + DAY));
    await t.services.jobs.runSchedule('stats.daily');
    await t.services.jobs.runSchedule('stats.daily');
    const later = (await t.post('/api/manage/index/stat', {}, { token: root })).data.business;
    expect(later.totals).toMatchObject({ revenue: 1000, paid: 1800, refunded: 800, customers_new: 3 });
    const stored = await t.services.db.selectFrom('stat_daily').select(['metric', 'dim', 'value']).where('day', '=', day(YESTERDAY)).where('metric', '=', 'revenue_paid').execute();
    expect(stored).toEqual([{ metric: 'revenue_paid', dim: '', value: 1300 }]);

    expect((await t.post('/api/manage/index/stat', { period: 'week' }, { token: root })).code).toBe(40000);
  });
});

describe('capacity on a fresh database', () => {
  it('When the dashboard is opened before the hourly summary ever ran, then it shows capacity figures of today; refresh takes them again at once', async () => {
    setClock();
    const fresh = await startTestApp();
    try {
      const mail = mailFixtures(fresh);
      const root = await mail.operator();
      const capacity = async (body: Record<string, unknown> = {}) => (await fresh.post('/api/manage/index/stat', body, { token: root })).data.business.capacity;
      const customer = await signUpCustomer(fresh);
      await mail.grant(customer.id, GiB);
      const domain = await mail.activeDomain(customer);
      await mail.mailbox(customer.token, domain.id, 'info', { quota: 10 * MiB });

      const first = await capacity();
      expect(first).toMatchObject({ sold: 0, granted: GiB, allocated: 10 * MiB, used: 0 });
      expect(first.as_of.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));

      // Within the hour the snapshot stands; refresh takes it again now.
      await mail.grant(customer.id, GiB);
      expect(await capacity()).toEqual(first);
      const refreshed = await capacity({ refresh: true });
      expect(refreshed).toMatchObject({ granted: 2 * GiB, allocated: 10 * MiB });
      expect(refreshed.as_of >= first.as_of).toBe(true);
      expect(await capacity()).toEqual(refreshed);
    } finally {
      await fresh.close();
    }
  });
});
