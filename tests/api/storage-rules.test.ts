/**
 * Storage blocks' business rules at their edges: a block that never expires is not renewable,
 * and a reminder threshold already past when a block was bought is never reminded.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../server/core/time.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer } from '../helpers/fixtures.js';
import { GiB, mailFixtures } from '../helpers/mail-fixtures.js';
import { shopFixtures } from '../helpers/shop-fixtures.js';

const DAY = 86_400_000;
const MINUTE = 60_000;

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
let shop: ReturnType<typeof shopFixtures>;
beforeAll(async () => {
  // Sessions would end while the clock jumps weeks ahead; these tests are about storage.
  t = await startTestApp({ STORAGE_REMINDER_DAYS: '30,7,1', SESSION_IDLE_MINUTES: '1000000', SESSION_ABSOLUTE_HOURS: '100000' });
  mail = mailFixtures(t);
  shop = shopFixtures(t);
});
afterEach(() => setClock());
afterAll(() => t.close());

const renewal = (token: string, id: number) => t.post('/api/admin/storage/renewal', { id }, { token });

describe('renewal', () => {
  it('When a block never expires (granted, or bought without a period), then it is not renewable, nothing is offered, and a renewal order for it is refused', async () => {
    const yearly = await shop.storageProduct({ price: 1000, storage_size: GiB, period_months: 12 });
    const forever = await shop.storageProduct({ price: 5000, storage_size: GiB, period_months: null });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 10_000);
    const granted = await mail.grant(customer.id, GiB);
    const bought = await shop.order(customer.token, { product_id: forever.id, pay_with: 'points' });
    const expiring = await shop.order(customer.token, { product_id: yearly.id, pay_with: 'points' });

    for (const blockId of [granted.id, bought.storage_id]) {
      expect(await renewal(customer.token, blockId)).toMatchObject({ code: 0, data: { storage_id: blockId, expires_at: null, renewable: false, options: [] } });
    }
    // The same size with an expiry is renewable with that product: the refusals above are the expiry's.
    const renewable = await renewal(customer.token, expiring.storage_id);
    expect(renewable.data).toMatchObject({ renewable: true, options: [{ product_id: yearly.id }] });
    expect(renewable.data.options).toHaveLength(1);

    const orders = (await t.post('/api/admin/order/list', {}, { token: customer.token })).data.total;
    for (const blockId of [granted.id, bought.storage_id]) {
      const refused = await t.post('/api/admin/order/create', { product_id: yearly.id, renew_storage_id: blockId, pay_with: 'points' }, { token: customer.token });
      expect(refused).toMatchObject({ code: 40000, errors: { renew_storage_id: { message: 'shop.not_renewable' } } });
    }
    expect((await t.post('/api/admin/order/list', {}, { token: customer.token })).data.total).toBe(orders);
    expect(await shop.balanceOf(customer.id)).toBe(10_000 - 5000 - 1000);
  });
});

describe('reminders', () => {
  it('When a block is bought with less time left than the first reminder (a 1-month block bought on 1 February: 28 days), then that reminder never comes; the later ones and the expiry notice do, once each', async () => {
    // A future 1 February, noon UTC: one month is 28 days.
    const bought = Date.UTC(new Date().getUTCFullYear() + 1, 1, 1, 12);
    setClock(new Date(bought));
    const customer = await signUpCustomer(t);
    const product = await shop.storageProduct({ price: 100, storage_size: GiB, period_months: 1 });
    await shop.grantPoints(customer.id, 100);
    const order = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    const block = await t.services.db.selectFrom('storage').select(['id', 'expires_at']).where('id', '=', order.storage_id).executeTakeFirstOrThrow();
    const expiry = Date.parse(block.expires_at!);
    expect(Math.round((expiry - bought) / DAY)).toBe(28);
    const before = (await t.outbox()).filter((m) => m.to === customer.email).length;
    const subjects = async () => (await t.outbox()).filter((m) => m.to === customer.email).slice(before).map((m) => m.subject);

    const runNoticesAt = async (at: number) => {
      setClock(new Date(at));
      await t.services.jobs.runSchedule('storage.notices');
    };
    await runNoticesAt(bought + MINUTE);
    await runNoticesAt(bought + DAY);
    expect(await subjects()).toEqual([]);
    await runNoticesAt(expiry - 7 * DAY + MINUTE);
    await runNoticesAt(expiry - 1 * DAY + MINUTE);
    await runNoticesAt(expiry + MINUTE);
    await runNoticesAt(expiry + DAY);
    // Each e-mail once (the outbox may hand two over in either order; the notices below keep their order).
    expect((await subjects()).sort()).toEqual([
      'Your Maildesk storage of 1 GiB expires in 1 days',
      'Your Maildesk storage of 1 GiB expires in 7 days',
      'Your Maildesk storage of 1 GiB has expired',
    ]);
    const notices = await t.services.db.selectFrom('storage_notice').select(['kind', 'days']).where('storage_id', '=', block.id).orderBy('id').execute();
    expect(notices.map((n) => `${n.kind} ${n.days}`)).toEqual(['reminder 7', 'reminder 1', 'expired 0']);
  });
});
