/** The shop without a card provider: products, promotions, orders paid with points, refunds, the points ledger. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer } from '../helpers/fixtures.js';
import { mailFixtures } from '../helpers/mail-fixtures.js';
import { expectLedgerMatchesBalances, GiB, MiB, shopFixtures } from '../helpers/shop-fixtures.js';
import { expireOverdueOrders } from '../../server/shop/expiry.js';

let t: TestApp;
let shop: ReturnType<typeof shopFixtures>;
beforeAll(async () => {
  t = await startTestApp();
  shop = shopFixtures(t);
});
afterEach(() => expectLedgerMatchesBalances(t));
afterAll(() => t.close());

const count = async (table: 'shop_order' | 'points_ledger' | 'product' | 'activity' | 'storage') =>
  Number((await t.services.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('products', () => {
  it('When an operator makes products, then visitors and customers see the visible ones in order with today\'s price, hidden ones nowhere', async () => {
    const a = await shop.storageProduct({ sort_order: 2, name_en: 'Second' });
    const b = await shop.pointsProduct({ sort_order: 1, name_en: 'First' });
    const hidden = await shop.storageProduct({ visible: 0 });
    const pub = await t.post('/api/product/list', {}, { token: '' });
    expect(pub.code).toBe(0);
    const ids = pub.data.list.map((p: { id: number }) => p.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(ids).not.toContain(hidden.id);
    expect(pub.data).toMatchObject({ currency: 'CNY', card_available: false });
    expect(pub.data.list.find((p: { id: number }) => p.id === a.id)).toMatchObject({ price: 1000, offer: { price: 1000, discount: 0, amount: 1000 } });
    const customer = await signUpCustomer(t);
    expect((await t.get('/api/admin/product/get', { id: hidden.id }, { token: customer.token })).code).toBe(40400);
    expect((await t.get('/api/admin/product/get', { id: a.id }, { token: customer.token })).data).toMatchObject({ id: a.id, storage_size: GiB, period_months: 12 });
    // Retired by hiding; deleted only while no order refers to it (product-editing.test.ts has one that orders do).
    const operator = await shop.operator();
    expect((await t.post('/api/manage/product/update', { id: a.id, visible: 0 }, { token: operator })).data.visible).toBe(0);
    expect((await t.post('/api/product/list', {}, { token: '' })).data.list.map((p: { id: number }) => p.id)).not.toContain(a.id);
    expect((await t.post('/api/manage/product/delete', { id: a.id }, { token: operator })).code).toBe(0);
    expect((await t.get('/api/manage/product/get', { id: a.id }, { token: operator })).code).toBe(40400);
  });

  it('When a product has bad values, then it is refused with the field named and nothing is made', async () => {
    const operator = await shop.operator();
    const base = { kind: 'storage', name_zh: '存储', name_en: 'Storage', price: 100, storage_size: GiB };
    const before = await count('product');
    const bad: [Record<string, unknown>, string][] = [
      [{ price: -1 }, 'price'],
      [{ price: 0 }, 'price'],
      [{ price: 1.5 }, 'price'],
      [{ price: 1e13 }, 'price'],
      [{ price: '100' }, 'price'],
      [{ storage_size: 0 }, 'storage_size'],
      [{ storage_size: undefined }, 'storage_size'],
      [{ storage_size: 2 ** 51 }, 'storage_size'],
      [{ period_months: 0 }, 'period_months'],
      [{ period_months: 1.5 }, 'period_months'],
      [{ period_months: 121 }, 'period_months'],
      [{ points_granted: 10 }, 'points_granted'],
      [{ kind: 'gift' }, 'kind'],
      [{ name_zh: '' }, 'name_zh'],
      [{ name_en: 'x'.repeat(121) }, 'name_en'],
      [{ sort_order: 0.5 }, 'sort_order'],
      [{ kind: 'points', storage_size: undefined, points_granted: -5 }, 'points_granted'],
      [{ kind: 'points', storage_size: undefined, points_granted: 0 }, 'points_granted'],
      [{ kind: 'points', storage_size: undefined }, 'points_granted'],
      [{ kind: 'points', points_granted: 5 }, 'storage_size'],
    ];
    for (const [change, field] of bad) {
      const reply = await t.post('/api/manage/product/create', { ...base, ...change }, { token: operator });
      expect({ change, code: reply.code, fields: Object.keys(reply.errors ?? {}) }).toEqual({ change, code: 40000, fields: [field] });
    }
    expect(await count('product')).toBe(before);
    const product = await shop.storageProduct();
    expect((await t.post('/api/manage/product/update', { id: product.id, kind: 'points' }, { token: operator })).data.kind).toBe('storage');
    expect((await t.post('/api/manage/product/update', { id: product.id, points_granted: 5 }, { token: operator })).code).toBe(40000);
  });

  it('When a product is priced above what card payment takes in the shop currency, then saving it is refused naming the limit, and nothing changes', async () => {
    const operator = await shop.operator();
    const before = await count('product');
    // Stripe charges at most eight digits in the minor unit: CNY 999,999.99.
    for (const body of [
      { kind: 'storage', name_zh: '大', name_en: 'Huge', price: 100_000_000, storage_size: GiB },
      { kind: 'points', name_zh: '积分', name_en: 'Points', price: 100_000_000, points_granted: 100 },
    ]) {
      for (const locale of ['en', 'zh'] as const) {
        const reply = await t.post('/api/manage/product/create', body, { token: operator, locale });
        expect(reply).toMatchObject({ status: 400, code: 40000, errors: { price: { message: 'shop.price_above_card_limit', params: { max: 99_999_999, currency: 'CNY' } } } });
        expect(reply.errors!.price.params!.max_text).toContain('999,999.99');
      }
    }
    expect(await count('product')).toBe(before);
    const top = await shop.storageProduct({ price: 99_999_999 });
    expect(top.price).toBe(99_999_999);
    const raised = await t.post('/api/manage/product/update', { id: top.id, price: 100_000_000 }, { token: operator });
    expect(raised).toMatchObject({ code: 40000, errors: { price: { message: 'shop.price_above_card_limit' } } });
    expect((await t.get('/api/manage/product/get', { id: top.id }, { token: operator })).data.price).toBe(99_999_999);
  });

  it('When a product saved before the card limit is priced above it, then it can still be hidden or renamed, but not given another price above the limit', async () => {
    const operator = await shop.operator();
    const old = await shop.storageProduct();
    await t.services.db.updateTable('product').set({ price: 500_000_000 }).where('id', '=', old.id).execute();
    expect(await t.post('/api/manage/product/update', { id: old.id, visible: 0, name_en: 'Retired' }, { token: operator })).toMatchObject({ code: 0, data: { visible: 0, price: 500_000_000 } });
    expect((await t.post('/api/manage/product/update', { id: old.id, price: 400_000_000 }, { token: operator })).code).toBe(40000);
    expect(await t.post('/api/manage/product/update', { id: old.id, price: 90_000_000 }, { token: operator })).toMatchObject({ code: 0, data: { price: 90_000_000 } });
  });
});

describe('promotions', () => {
  it('When a promotion runs, then lists show the promoted price; a code applies only when typed; ending it early restores the price', async () => {
    const product = await shop.storageProduct({ price: 1000 });
    const auto = await shop.promotion([product.id], { kind: 'percent', value: 20 });
    const coded = await shop.promotion([product.id], { kind: 'amount', value: 500, code: 'half-off' });
    expect(coded.code).toBe('HALF-OFF');
    expect(auto.product_ids).toEqual([product.id]);
    const offer = async (extra: Record<string, unknown> = {}, token?: string) =>
      (await t.post(token ? '/api/admin/product/list' : '/api/product/list', { page_size: 100, ...extra }, { token: token ?? '' })).data.list.find((p: { id: number }) => p.id === product.id).offer;
    expect(await offer()).toEqual({ price: 1000, discount: 200, amount: 800, bonus_points: 0, activity_id: auto.id });
    const customer = await signUpCustomer(t);
    expect(await offer({ code: 'half-off' }, customer.token)).toMatchObject({ discount: 500, amount: 500, activity_id: coded.id });
    const wrong = await t.post('/api/admin/product/list', { code: 'NOPE' }, { token: customer.token });
    expect(wrong).toMatchObject({ code: 40000, errors: { code: { message: 'shop.unknown_code' } } });
    const operator = await shop.operator();
    expect((await t.post('/api/manage/activity/end', { id: auto.id }, { token: operator })).data.ended_early_at).toBeTruthy();
    expect((await t.post('/api/manage/activity/end', { id: auto.id }, { token: operator })).message).toBe('shop.promotion_over');
    expect(await offer()).toMatchObject({ discount: 0, amount: 1000, activity_id: null });
  });

  it('When a promotion gives bonus points, is for first orders only, or has a per-customer limit, then orders get exactly that', async () => {
    const product = await shop.storageProduct({ price: 300 });
    const bonus = await shop.promotion([product.id], { kind: 'bonus_points', value: 50, per_customer_limit: 1 });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 1000);
    const first = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    expect(first).toMatchObject({ status: 'fulfilled', price: 300, discount: 0, amount: 300, bonus_points: 50, activity_id: bonus.id });
    expect(await shop.balanceOf(customer.id)).toBe(1000 - 300 + 50);
    const second = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    expect(second).toMatchObject({ bonus_points: 0, activity_id: null });

    const other = await shop.storageProduct({ price: 300 });
    await shop.promotion([other.id], { kind: 'amount', value: 100, first_order_only: 1 });
    expect((await shop.order(customer.token, { product_id: other.id })).discount).toBe(0);
    const newcomer = await signUpCustomer(t);
    expect((await shop.order(newcomer.token, { product_id: other.id })).discount).toBe(100);
  });

  it('When a promotion has bad values, then it is refused with the field named and nothing is made', async () => {
    const operator = await shop.operator();
    const product = await shop.storageProduct();
    const base = { name_zh: '活动', name_en: 'Sale', kind: 'percent', value: 10, product_ids: [product.id], starts_at: '2030-01-01T00:00:00Z', ends_at: '2030-02-01T00:00:00Z' };
    const before = await count('activity');
    const bad: [Record<string, unknown>, string][] = [
      [{ ends_at: '2029-12-31T00:00:00Z' }, 'ends_at'],
      [{ ends_at: '2030-01-01T00:00:00Z' }, 'ends_at'],
      [{ starts_at: 'tomorrow' }, 'starts_at'],
      [{ value: 101 }, 'value'],
      [{ value: 0 }, 'value'],
      [{ value: -10 }, 'value'],
      [{ value: 2.5 }, 'value'],
      [{ kind: 'amount', value: 1e12 }, 'value'],
      [{ product_ids: [] }, 'product_ids'],
      [{ product_ids: [999999] }, 'product_ids'],
      [{ total_limit: -1 }, 'total_limit'],
      [{ per_customer_limit: 1.5 }, 'per_customer_limit'],
      [{ code: 'a b' }, 'code'],
      [{ kind: 'gift' }, 'kind'],
    ];
    for (const [change, field] of bad) {
      const reply = await t.post('/api/manage/activity/create', { ...base, ...change }, { token: operator });
      expect({ change, code: reply.code, fields: Object.keys(reply.errors ?? {}) }).toEqual({ change, code: 40000, fields: [field] });
    }
    expect(await count('activity')).toBe(before);
    await shop.promotion([product.id], { code: 'ONCE' });
    expect((await t.post('/api/manage/activity/create', { ...base, code: 'once' }, { token: operator })).errors).toMatchObject({ code: { message: 'validation.taken' } });
  });

  it('When a typed code gives nothing (used up, over, not started, used as often as allowed, first orders only, another product, no such code), then the product list and the order both say which, and nothing is ordered', async () => {
    const product = await shop.storageProduct({ price: 1000 });
    const another = await shop.storageProduct({ price: 1000 });
    const operator = await shop.operator();
    const tag = Math.random().toString(36).slice(2, 8).toUpperCase();
    const code = (name: string) => `${name}-${tag}`;
    const hour = 3600_000;
    const [user, veteran] = [await signUpCustomer(t), await signUpCustomer(t)];
    await shop.grantPoints(veteran.id, 10_000);

    await shop.promotion([product.id], { kind: 'amount', value: 100, code: code('USEDUP'), total_limit: 1 });
    await shop.order((await signUpCustomer(t)).token, { product_id: product.id, code: code('USEDUP') });
    const ended = await shop.promotion([product.id], { kind: 'amount', value: 100, code: code('ENDED') });
    await t.post('/api/manage/activity/end', { id: ended.id }, { token: operator });
    const startsAt = new Date(Date.now() + 24 * hour).toISOString();
    await shop.promotion([product.id], { kind: 'amount', value: 100, code: code('SOON'), starts_at: startsAt, ends_at: new Date(Date.now() + 48 * hour).toISOString() });
    await shop.promotion([product.id], { kind: 'amount', value: 100, code: code('ONCE'), per_customer_limit: 1 });
    await shop.order(veteran.token, { product_id: product.id, code: code('ONCE'), pay_with: 'points' });
    await shop.promotion([product.id], { kind: 'amount', value: 100, code: code('FIRST'), first_order_only: 1 });
    await shop.promotion([another.id], { kind: 'amount', value: 100, code: code('OTHER') });

    const cases: [string, string, string, Record<string, unknown>?][] = [
      [user.token, code('USEDUP'), 'shop.code_used_up'],
      [user.token, code('ENDED'), 'shop.code_ended', { ended_text: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/) }],
      [user.token, code('SOON'), 'shop.code_not_started', { starts: startsAt, starts_text: `${startsAt.slice(0, 16).replace('T', ' ')} UTC` }],
      [veteran.token, code('ONCE'), 'shop.code_used_up_by_you', { limit: 1 }],
      [veteran.token, code('FIRST'), 'shop.code_first_order_only'],
      [user.token, `NOPE-${tag}`, 'shop.unknown_code'],
    ];
    const orders = await count('shop_order');
    for (const [token, typed, message, params] of cases) {
      const expected = { status: 400, code: 40000, errors: { code: { message, ...(params ? { params } : {}) } } };
      expect({ typed, reply: await t.post('/api/admin/product/list', { code: typed.toLowerCase() }, { token }) }).toMatchObject({ typed, reply: expected });
      expect({ typed, reply: await t.post('/api/admin/order/create', { product_id: product.id, code: typed }, { token }) }).toMatchObject({ typed, reply: expected });
    }
    // A code for another product: the order says so; the list, which shows that product too, applies it there.
    expect(await t.post('/api/admin/order/create', { product_id: product.id, code: code('OTHER') }, { token: user.token })).toMatchObject({ code: 40000, errors: { code: { message: 'shop.code_not_for_product' } } });
    expect((await t.post('/api/admin/product/list', { code: code('OTHER'), page_size: 100 }, { token: user.token })).data.list.find((p: { id: number }) => p.id === another.id).offer).toMatchObject({ discount: 100 });
    expect(await count('shop_order')).toBe(orders);
    // The same code still works for whoever may use it.
    expect((await shop.order(user.token, { product_id: product.id, code: code('FIRST') })).discount).toBe(100);
  });

  it('When 50 orders race for a promotion with 10 uses, then exactly 10 get it; cancelled and expired orders give their use back', async () => {
    const product = await shop.storageProduct({ price: 1000 });
    const promo = await shop.promotion([product.id], { kind: 'amount', value: 100, total_limit: 10 });
    const customers = await Promise.all(Array.from({ length: 5 }, () => signUpCustomer(t)));
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => t.post('/api/admin/order/create', { product_id: product.id }, { token: customers[i % 5].token })),
    );
    const promoted = replies.filter((r) => r.code === 0 && r.data.activity_id === promo.id);
    expect(promoted).toHaveLength(10);
    for (const r of replies) if (r.code !== 0) expect(r.message).toBe('shop.promotion_used_up');
    const operator = await shop.operator();
    expect((await t.get('/api/manage/activity/get', { id: promo.id }, { token: operator })).data.used_count).toBe(10);
    const uses = await t.services.db.selectFrom('activity_use').select('id').where('activity_id', '=', promo.id).where('released_at', 'is', null).execute();
    expect(uses).toHaveLength(10);

    // One cancelled by its customer, one expired: two uses come back.
    const [cancel, expire] = promoted.map((r) => r.data);
    const owner = customers.find((c) => c.id === cancel.owner_id)!;
    expect((await t.post('/api/admin/order/cancel', { id: cancel.id }, { token: owner.token })).data.status).toBe('cancelled');
    expect((await t.post('/api/admin/order/cancel', { id: cancel.id }, { token: owner.token })).message).toBe('shop.order_not_pending');
    await t.services.db.updateTable('shop_order').set({ pay_before: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expire.id).execute();
    expect(await expireOverdueOrders(t.services)).toBe(1);
    expect((await t.get('/api/manage/order/get', { id: expire.id }, { token: operator })).data.status).toBe('expired');
    expect((await t.get('/api/manage/activity/get', { id: promo.id }, { token: operator })).data.used_count).toBe(8);
    expect((await t.post('/api/admin/order/create', { product_id: product.id }, { token: customers[0].token })).data.activity_id).toBe(promo.id);
  });
});

describe('orders paid with points', () => {
  it('When a customer buys storage with points at the promoted price, then the price is copied, points are taken, capacity grows, history and mail tell it', async () => {
    const product = await shop.storageProduct({ price: 1000, storage_size: 2 * GiB, period_months: 1 });
    const promo = await shop.promotion([product.id], { kind: 'percent', value: 25 });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 2000);
    const order = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    expect(order).toMatchObject({ status: 'fulfilled', price: 1000, discount: 250, amount: 750, payment_method: 'points', activity_id: promo.id, currency: 'CNY', product_name_en: 'Storage 1 GB' });
    expect(await shop.balanceOf(customer.id)).toBe(1250);
    // The snapshot stays when the product changes.
    await t.post('/api/manage/product/update', { id: product.id, price: 5000, name_en: 'Renamed' }, { token: await shop.operator() });
    expect((await t.get('/api/admin/order/get', { id: order.id }, { token: customer.token })).data).toMatchObject({ price: 1000, amount: 750, product_name_en: 'Storage 1 GB' });
    const summary = await t.post('/api/admin/storage/summary', {}, { token: customer.token });
    expect(summary.data.capacity).toBe(2 * GiB);
    const block = await t.services.db.selectFrom('storage').selectAll().where('id', '=', order.storage_id).executeTakeFirstOrThrow();
    expect(block).toMatchObject({ owner_id: customer.id, size: 2 * GiB, source: 'order', order_id: order.id });
    const months = (Date.parse(block.expires_at!) - Date.now()) / (24 * 3600_000);
    expect(months).toBeGreaterThan(27);
    expect(months).toBeLessThan(32);
    const history = await t.get('/api/admin/order/history', { id: order.id }, { token: customer.token });
    expect(history.data.history.map((h: { to_status: string }) => h.to_status)).toEqual(['pending_payment', 'paid', 'fulfilled']);
    expect(history.data.history[0]).toMatchObject({ actor_type: 'customer', actor_name: customer.email });
    const ledger = await t.post('/api/admin/points/list', { sort: 'id', order: 'asc' }, { token: customer.token });
    expect(ledger.data.list.map((e: { reason: string; delta: number; balance_after: number }) => [e.reason, e.delta, e.balance_after])).toEqual([
      ['grant', 2000, 2000],
      ['order_payment', -750, 1250],
    ]);
    const mails = (await t.outbox()).filter((m) => m.to === customer.email && /order/i.test(m.subject));
    expect(mails).toHaveLength(1);
    // People read the order's number; the id only makes the link.
    expect(mails[0].subject).toContain(order.number);
    expect(mails[0].text).toContain(`order ${order.number} (`);
    expect(mails[0].text).toContain(`/admin/order/view?id=${order.id}`);
  });

  it('When orders are made, then each has its own number for people, which finds it in either area’s list', async () => {
    const product = await shop.storageProduct();
    const customer = await signUpCustomer(t);
    const [a, b] = [await shop.order(customer.token, { product_id: product.id }), await shop.order(customer.token, { product_id: product.id })];
    for (const order of [a, b]) expect(order.number).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    expect(a.number).not.toBe(b.number);
    const found = await t.post('/api/admin/order/list', { filter: { number: b.number } }, { token: customer.token });
    expect(found.data.list.map((o: { id: number }) => o.id)).toEqual([b.id]);
    const byOperator = await t.post('/api/manage/order/list', { filter: { number: a.number } }, { token: await shop.operator() });
    expect(byOperator.data.list.map((o: { id: number; number: string }) => [o.id, o.number])).toEqual([[a.id, a.number]]);
    // Another customer's number finds nothing in one's own list.
    const stranger = await signUpCustomer(t);
    expect((await t.post('/api/admin/order/list', { filter: { number: a.number } }, { token: stranger.token })).data.total).toBe(0);
  });

  it('When a renewal order names a block, then that block is extended from its expiry instead of a new one being made', async () => {
    const product = await shop.storageProduct({ price: 10, storage_size: GiB, period_months: 1 });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 100);
    const first = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    const before = await t.services.db.selectFrom('storage').select('expires_at').where('id', '=', first.storage_id).executeTakeFirstOrThrow();
    const renewal = await shop.order(customer.token, { product_id: product.id, pay_with: 'points', renew_storage_id: first.storage_id });
    expect(renewal.storage_id).toBe(first.storage_id);
    const after = await t.services.db.selectFrom('storage').select('expires_at').where('id', '=', first.storage_id).executeTakeFirstOrThrow();
    expect(Date.parse(after.expires_at!) - Date.parse(before.expires_at!)).toBeGreaterThan(27 * 24 * 3600_000);
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.capacity).toBe(GiB);
    const other = await signUpCustomer(t);
    const foreign = await t.post('/api/admin/order/create', { product_id: product.id, renew_storage_id: first.storage_id }, { token: other.token });
    expect(foreign).toMatchObject({ code: 40000, errors: { renew_storage_id: { message: 'shop.not_renewable' } } });
  });

  it('When points do not suffice or the input is bad, then nothing is ordered, taken or granted', async () => {
    const product = await shop.storageProduct({ price: 1000 });
    const topup = await shop.pointsProduct();
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 999);
    const orders = await count('shop_order');
    const poor = await t.post('/api/admin/order/create', { product_id: product.id, pay_with: 'points' }, { token: customer.token });
    expect(poor).toMatchObject({ code: 40900, message: 'shop.points_insufficient', params: { balance: 999, needed: 1000 } });
    const bad: [Record<string, unknown>, string][] = [
      [{ product_id: 999999 }, 'product_id'],
      [{ product_id: -1 }, 'product_id'],
      [{ product_id: 1.5 }, 'product_id'],
      [{ product_id: product.id, pay_with: 'cash' }, 'pay_with'],
      [{ product_id: topup.id, pay_with: 'points' }, 'pay_with'],
      [{ product_id: product.id, code: 'NO-SUCH' }, 'code'],
    ];
    for (const [body, field] of bad) {
      const reply = await t.post('/api/admin/order/create', body, { token: customer.token });
      expect({ body, code: reply.code, fields: Object.keys(reply.errors ?? {}) }).toEqual({ body, code: 40000, fields: [field] });
    }
    expect(await t.post('/api/admin/order/create', { product_id: product.id, pay_with: 'card' }, { token: customer.token })).toMatchObject({ code: 40900, message: 'shop.card_unavailable' });
    expect(await count('shop_order')).toBe(orders);
    expect(await shop.balanceOf(customer.id)).toBe(999);
  });

  it('When a pending order is paid with points later, then it is fulfilled once; a second payment is refused', async () => {
    const product = await shop.storageProduct({ price: 100 });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 500);
    const order = await shop.order(customer.token, { product_id: product.id });
    expect(order.status).toBe('pending_payment');
    const checkout = await t.post('/api/admin/order/create_payment_checkouturl', { id: order.id }, { token: customer.token });
    expect(checkout).toMatchObject({ code: 0, data: { available: false, url: null, message: 'shop.card_unavailable' } });
    const [one, two] = await Promise.all([
      t.post('/api/admin/order/pay_points', { id: order.id }, { token: customer.token }),
      t.post('/api/admin/order/pay_points', { id: order.id }, { token: customer.token }),
    ]);
    expect([one.code, two.code].sort()).toEqual([0, 40900]);
    expect(await shop.balanceOf(customer.id)).toBe(400);
    expect(await t.services.db.selectFrom('storage').select('id').where('order_id', '=', order.id).execute()).toHaveLength(1);
  });

  it('When an unpaid order is past its time, then it can no longer be paid, and the expiry schedule expires it', async () => {
    const product = await shop.storageProduct({ price: 100 });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 500);
    const order = await shop.order(customer.token, { product_id: product.id });
    expect(Date.parse(order.pay_before) - Date.now()).toBeGreaterThan(59 * 60_000);
    await t.services.db.updateTable('shop_order').set({ pay_before: new Date(Date.now() - 1000).toISOString() }).where('id', '=', order.id).execute();
    expect(await t.post('/api/admin/order/pay_points', { id: order.id }, { token: customer.token })).toMatchObject({ code: 40900, message: 'shop.order_overdue' });
    await t.services.jobs.runSchedule('order.expire');
    const expired = await t.get('/api/admin/order/get', { id: order.id }, { token: customer.token });
    expect(expired.data).toMatchObject({ status: 'expired' });
    expect(expired.data.closed_at).toBeTruthy();
    expect(await shop.balanceOf(customer.id)).toBe(500);
  });
});

describe('points top-ups and operator grants', () => {
  it('When an operator grants or deducts points, then the ledger records it once per key, never below zero, and bad input changes nothing', async () => {
    const customer = await signUpCustomer(t);
    const billing = await operatorWithRole(t, 'billing');
    const grant = (body: Record<string, unknown>) => t.post('/api/manage/user/add_points', { user_id: customer.id, note: 'Goodwill', ...body }, { token: billing.token });
    expect((await grant({ points: 300, key: 'ticket-17' })).data).toEqual({ user_id: customer.id, balance: 300 });
    expect(await grant({ points: 300, key: 'ticket-17' })).toMatchObject({ code: 40900, message: 'shop.points_duplicate' });
    const same = await Promise.all(Array.from({ length: 10 }, () => grant({ points: 5, key: 'burst' })));
    expect(same.filter((r) => r.code === 0)).toHaveLength(1);
    expect((await grant({ points: -100 })).data.balance).toBe(205);
    expect(await grant({ points: -1000 })).toMatchObject({ code: 40900, message: 'shop.points_insufficient' });
    const entries = await count('points_ledger');
    for (const body of [{ points: 0 }, { points: 1.5 }, { points: '10' }, { points: 1e11 }, { points: 10, note: '' }, { points: 10, user_id: 999999 }, { points: 10, user_id: 'x' }]) {
      const reply = await grant(body);
      expect([40000, 40400]).toContain(reply.code);
    }
    expect(await count('points_ledger')).toBe(entries);
    const seen = await t.post('/api/admin/points/balance', {}, { token: customer.token });
    expect(seen.data).toEqual({ balance: 205, currency: 'CNY' });
    const operatorView = await t.post('/api/manage/points/list', { filter: { user_id: customer.id } }, { token: billing.token });
    expect(operatorView.data.total).toBe(3);
    const other = await signUpCustomer(t);
    expect((await t.post('/api/admin/points/list', {}, { token: other.token })).data.total).toBe(0);
    expect((await t.get('/api/admin/points/get', { id: operatorView.data.list[0].id }, { token: other.token })).code).toBe(40400);
  });
});

describe('cancel and refund', () => {
  it('When an operator refunds a points-paid storage order whose capacity is free, then the block goes, the points come back, once', async () => {
    const product = await shop.storageProduct({ price: 400, storage_size: GiB });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 400);
    const order = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    const support = await operatorWithRole(t, 'support');
    expect((await t.post('/api/manage/order/refund', { id: order.id, to: 'points' }, { token: support.token })).code).toBe(40300);
    const billing = await operatorWithRole(t, 'billing');
    const refunded = await t.post('/api/manage/order/refund', { id: order.id, to: 'points', reason: 'Changed their mind' }, { token: billing.token });
    expect(refunded.data).toMatchObject({ status: 'refunded' });
    expect(await shop.balanceOf(customer.id)).toBe(400);
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.capacity).toBe(0);
    expect(await t.post('/api/manage/order/refund', { id: order.id, to: 'points' }, { token: billing.token })).toMatchObject({ code: 40900, message: 'shop.order_not_refundable' });
    const history = await t.get('/api/manage/order/history', { id: order.id }, { token: billing.token });
    expect(history.data.history.at(-1)).toMatchObject({ to_status: 'refunded', actor_type: 'operator', actor_name: billing.username, reason: 'Changed their mind' });
  });

  it('When the bought capacity is handed out to mailboxes, then the refund is refused saying how much quota to lower, and nothing changes', async () => {
    const mail = mailFixtures(t);
    const product = await shop.storageProduct({ price: 100, storage_size: 100 * MiB });
    const customer = await signUpCustomer(t);
    await shop.grantPoints(customer.id, 100);
    const order = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    const domain = await mail.activeDomain(customer);
    await mail.mailbox(customer.token, domain.id, 'big', { quota: 60 * MiB });
    const operator = await shop.operator();
    const refused = await t.post('/api/manage/order/refund', { id: order.id, to: 'points' }, { token: operator });
    expect(refused).toMatchObject({ code: 40900, message: 'shop.refund_capacity_in_use', params: { allocated: 60 * MiB, capacity: 0, lower_by: 60 * MiB } });
    expect((await t.get('/api/manage/order/get', { id: order.id }, { token: operator })).data.status).toBe('fulfilled');
    expect(await shop.balanceOf(customer.id)).toBe(0);
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.capacity).toBe(100 * MiB);
  });

  it('When a customer or operator cancels, only pending orders of their own (customer) are cancelled', async () => {
    const product = await shop.storageProduct();
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    const order = await shop.order(a.token, { product_id: product.id });
    expect((await t.post('/api/admin/order/cancel', { id: order.id }, { token: b.token })).code).toBe(40400);
    expect((await t.get('/api/admin/order/get', { id: order.id }, { token: b.token })).code).toBe(40400);
    expect((await t.get('/api/admin/order/history', { id: order.id }, { token: b.token })).code).toBe(40400);
    expect((await t.post('/api/admin/order/list', {}, { token: b.token })).data.list.map((o: { id: number }) => o.id)).not.toContain(order.id);
    const operator = await shop.operator();
    const cancelled = await t.post('/api/manage/order/cancel', { id: order.id, reason: 'Duplicate' }, { token: operator });
    expect(cancelled.data.status).toBe('cancelled');
    expect((await t.post('/api/manage/order/refund', { id: order.id, to: 'points' }, { token: operator })).message).toBe('shop.order_not_refundable');
  });

  it('When a top-up is bought and refunded, then the points come and go; spent top-up points cannot be taken back', async () => {
    const topup = await shop.pointsProduct({ price: 500, points_granted: 600 });
    const storage = await shop.storageProduct({ price: 550 });
    const customer = await signUpCustomer(t);
    // A top-up is paid by card; here an operator's 100 % promotion makes it free.
    await shop.promotion([topup.id], { kind: 'percent', value: 100 });
    const order = await shop.order(customer.token, { product_id: topup.id });
    expect(order).toMatchObject({ status: 'fulfilled', amount: 0 });
    expect(await shop.balanceOf(customer.id)).toBe(600);
    await shop.order(customer.token, { product_id: storage.id, pay_with: 'points' });
    const operator = await shop.operator();
    expect(await t.post('/api/manage/order/refund', { id: order.id, to: 'points' }, { token: operator })).toMatchObject({ code: 40900, message: 'shop.refund_points_spent' });
    expect(await shop.balanceOf(customer.id)).toBe(50);
  });
});
