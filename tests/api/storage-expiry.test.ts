/**
 * Storage over time, with business time moved (no sleeping): reminders before a block
 * expires, the expiry notice, quotas above capacity after expiry, and operators ending or
 * extending a block by hand.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../server/core/time.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer } from '../helpers/fixtures.js';
import { GiB, mailFixtures, MiB } from '../helpers/mail-fixtures.js';
import { shopFixtures } from '../helpers/shop-fixtures.js';

const DAY = 86_400_000;
const MINUTE = 60_000;

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
beforeAll(async () => {
  // Sessions would end while the clock jumps weeks ahead; these tests are about storage.
  t = await startTestApp({ STORAGE_REMINDER_DAYS: '30,7,1', SESSION_IDLE_MINUTES: '1000000', SESSION_ABSOLUTE_HOURS: '100000' });
  mail = mailFixtures(t);
});
afterEach(() => setClock());
afterAll(() => t.close());

/** What the notices schedule does when it runs. */
const runNotices = () => t.services.jobs.runSchedule('storage.notices');
const at = (start: number, offset: number) => setClock(new Date(start + offset));
const mailTo = async (email: string) => (await t.outbox()).filter((m) => m.to === email);

describe('reminders before a block expires', () => {
  it('When a block nears its expiry, then its owner is reminded once at 30, 7 and 1 days, and told once when it has expired', async () => {
    const start = Date.now();
    const customer = await signUpCustomer(t);
    const block = await mail.grant(customer.id, GiB, { label: 'Main', expires_at: new Date(start + 40 * DAY).toISOString() });
    const before = (await mailTo(customer.email)).length;
    const subjects = async () => (await mailTo(customer.email)).slice(before).map((m) => m.subject);

    at(start, 9 * DAY); // 31 days left
    await runNotices();
    expect(await subjects()).toEqual([]);

    at(start, 10 * DAY + MINUTE); // just under 30 days left
    await runNotices();
    await runNotices();
    expect(await subjects()).toEqual(['Your Maildesk storage of 1 GiB expires in 30 days']);
    expect((await mailTo(customer.email)).at(-1)!.text).toContain('"Main" expires on');

    at(start, 32 * DAY); // 8 days left
    await runNotices();
    expect(await subjects()).toHaveLength(1);

    at(start, 33 * DAY + MINUTE);
    await Promise.all([runNotices(), runNotices()]); // two runs at once: one notice
    at(start, 39 * DAY + MINUTE);
    await runNotices();
    at(start, 40 * DAY + MINUTE);
    await runNotices();
    at(start, 60 * DAY);
    await runNotices();
    expect(await subjects()).toEqual([
      'Your Maildesk storage of 1 GiB expires in 30 days',
      'Your Maildesk storage of 1 GiB expires in 7 days',
      'Your Maildesk storage of 1 GiB expires in 1 days',
      'Your Maildesk storage of 1 GiB has expired',
    ]);
    const notices = await t.services.db.selectFrom('storage_notice').select(['kind', 'days']).where('storage_id', '=', block.id).orderBy('id').execute();
    expect(notices).toEqual([
      { kind: 'reminder', days: 30 },
      { kind: 'reminder', days: 7 },
      { kind: 'reminder', days: 1 },
      { kind: 'expired', days: 0 },
    ]);
  });

  it('When the process was down across the expiry, then it catches up with one expiry notice and no missed reminders', async () => {
    const start = Date.now();
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, GiB, { expires_at: new Date(start + 10 * DAY).toISOString() });
    const before = (await mailTo(customer.email)).length;
    at(start, 3 * DAY + MINUTE);
    await runNotices();
    // Down from here until two days after the expiry: the 1-day reminder was never sent.
    at(start, 12 * DAY);
    await runNotices();
    await runNotices();
    expect((await mailTo(customer.email)).slice(before).map((m) => m.subject)).toEqual([
      'Your Maildesk storage of 1 GiB expires in 7 days',
      'Your Maildesk storage of 1 GiB has expired',
    ]);
  });

  it('When a block is made already expired or without an expiry, then nobody is told anything', async () => {
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, GiB);
    await mail.grant(customer.id, GiB, { expires_at: new Date(Date.now() - DAY).toISOString() });
    const before = (await mailTo(customer.email)).length;
    await runNotices();
    expect(await mailTo(customer.email)).toHaveLength(before);
  });
});

describe('expiry never destroys mail', () => {
  it('When a block expires and the quotas exceed what is left, then mailboxes keep working, new quota is refused with how much to buy, and the owner is told', async () => {
    const start = Date.now();
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, GiB);
    await mail.grant(customer.id, GiB, { expires_at: new Date(start + 5 * DAY).toISOString() });
    await t.post('/api/admin/me/update_storage_max', { storage_max: 2 * GiB }, { token: customer.token });
    const domain = await mail.activeDomain(customer);
    const big = await mail.mailbox(customer.token, domain.id, 'big', { quota: GiB + 512 * MiB });
    await mail.mailbox(customer.token, domain.id, 'small', { quota: MiB });

    at(start, 5 * DAY + MINUTE);
    const summary = await t.post('/api/admin/storage/summary', {}, { token: customer.token });
    expect(summary.data).toMatchObject({ capacity: GiB, allocated: GiB + 513 * MiB, available: 0, shortfall: 513 * MiB, active_blocks: 1 });

    // Still served to Postfix and Dovecot: receiving and signing in go on.
    const served = await t.services.db.selectFrom('mail_mailbox' as any).select(['address', 'quota']).where('domain', '=', domain.name).orderBy('address').execute();
    expect(served).toEqual([
      { address: `big@${domain.name}`, quota: GiB + 512 * MiB },
      { address: `small@${domain.name}`, quota: MiB },
    ]);

    const refused = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'new', password: 'mailbox-pass-1', quota: 10 * MiB }, { token: customer.token });
    expect(refused).toMatchObject({ code: 40900, message: 'error.capacity_exceeded', params: { shortfall: 523 * MiB, shortfall_text: '523 MiB' } });
    const larger = await t.post('/api/admin/email/update', { id: big.id, quota: 2 * GiB }, { token: customer.token });
    expect(larger).toMatchObject({ code: 40900, params: { shortfall: GiB + MiB } });
    // Lowering is always allowed, and once the quotas fit, new quota is given again.
    expect((await t.post('/api/admin/email/update', { id: big.id, quota: 900 * MiB }, { token: customer.token })).code).toBe(0);
    expect((await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'new', password: 'mailbox-pass-1', quota: 100 * MiB }, { token: customer.token })).code).toBe(0);

    const before = (await mailTo(customer.email)).length;
    await t.post('/api/admin/email/update', { id: big.id, quota: GiB + 512 * MiB }, { token: customer.token }); // refused: still 1 GiB
    await t.services.db.updateTable('mailbox').set({ quota: GiB + 512 * MiB }).where('id', '=', big.id).execute(); // as it was at expiry
    await runNotices();
    const told = (await mailTo(customer.email)).slice(before);
    expect(told.map((m) => m.subject)).toEqual(['Your Maildesk storage of 1 GiB has expired: your quotas exceed your capacity by 613 MiB']);
    expect(told[0]!.text).toContain('buy at least 613 MiB');
  });
});

describe('operators extend or end a block by hand', () => {
  it('When billing ends a block with a reason, then it expires now even over the quotas, the owner is told, and the log keeps the reason', async () => {
    const customer = await signUpCustomer(t);
    const billing = await operatorWithRole(t, 'billing');
    const block = await mail.grant(customer.id, GiB, { expires_at: new Date(Date.now() + 100 * DAY).toISOString() });
    const domain = await mail.activeDomain(customer);
    await mail.mailbox(customer.token, domain.id, 'box', { quota: 100 * MiB });
    const before = (await mailTo(customer.email)).length;

    expect(await t.post('/api/manage/storage/end', { id: block.id }, { token: billing.token })).toMatchObject({ code: 40000, errors: { reason: { message: 'validation.required' } } });
    const ended = await t.post('/api/manage/storage/end', { id: block.id, reason: 'Chargeback on the card' }, { token: billing.token });
    expect(ended.code).toBe(0);
    expect(Date.parse(ended.data.expires_at)).toBeLessThanOrEqual(Date.now());
    expect(await t.post('/api/manage/storage/end', { id: block.id, reason: 'Again' }, { token: billing.token })).toMatchObject({ code: 40900, message: 'error.storage_already_ended' });
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data).toMatchObject({ capacity: 0, allocated: 100 * MiB, shortfall: 100 * MiB });
    expect((await mailTo(customer.email)).slice(before).map((m) => m.subject)).toEqual(['Your Maildesk storage of 1 GiB has expired: your quotas exceed your capacity by 100 MiB']);

    const log = await t.services.db.selectFrom('log').selectAll().where('target_type', '=', 'storage').where('target_id', '=', block.id).where('action', '=', 'storage_end').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ actor_name: billing.username, user_id: customer.id });
    expect(JSON.parse(log.after!)).toMatchObject({ reason: 'Chargeback on the card' });
  });

  it('When an operator extends a block, then the expiry moves later, reminders start again for it, and earlier dates are refused', async () => {
    const start = Date.now();
    const customer = await signUpCustomer(t);
    const operator = await mail.operator();
    const block = await mail.grant(customer.id, GiB, { expires_at: new Date(start + 5 * DAY).toISOString() });
    const never = await mail.grant(customer.id, GiB);
    const later = new Date(start + 65 * DAY).toISOString();

    const refused = await t.post('/api/manage/storage/extend', { id: block.id, expires_at: new Date(start + DAY).toISOString(), reason: 'Goodwill' }, { token: operator });
    expect(refused).toMatchObject({ code: 40000, errors: { expires_at: { message: 'validation.expiry_not_later' } } });
    expect(await t.post('/api/manage/storage/extend', { id: never.id, expires_at: later, reason: 'Goodwill' }, { token: operator })).toMatchObject({ code: 40900, message: 'error.storage_no_expiry' });
    expect(await t.post('/api/manage/storage/extend', { id: 99999999, expires_at: later, reason: 'Goodwill' }, { token: operator })).toMatchObject({ code: 40400 });
    const extended = await t.post('/api/manage/storage/extend', { id: block.id, expires_at: later, reason: 'Outage compensation' }, { token: operator });
    expect(extended.data).toMatchObject({ id: block.id, expires_at: later });

    const before = (await mailTo(customer.email)).length;
    at(start, 6 * DAY);
    await runNotices();
    expect(await mailTo(customer.email)).toHaveLength(before);
    at(start, 35 * DAY + MINUTE);
    await runNotices();
    expect((await mailTo(customer.email)).slice(before).map((m) => m.subject)).toEqual(['Your Maildesk storage of 1 GiB expires in 30 days']);
    const log = await t.services.db.selectFrom('log').select(['before', 'after']).where('action', '=', 'storage_extend').where('target_id', '=', block.id).executeTakeFirstOrThrow();
    expect(JSON.parse(log.after!)).toEqual({ expires_at: later, reason: 'Outage compensation' });
  });
});

describe('renewal from /admin/storage', () => {
  it('When a customer renews a bought block near its expiry, then the same block is extended by the period at today\'s price and promotion, and reminders restart for the new expiry', async () => {
    const shop = shopFixtures(t);
    const start = Date.now();
    const customer = await signUpCustomer(t);
    const product = await shop.storageProduct({ price: 1000, period_months: 12 });
    await shop.grantPoints(customer.id, 5000);
    const bought = await shop.order(customer.token, { product_id: product.id, pay_with: 'points' });
    const block = (await t.post('/api/admin/storage/list', {}, { token: customer.token })).data.list[0];
    expect(block).toMatchObject({ id: bought.storage_id, order_id: bought.id, source: 'order', size: GiB });
    const firstExpiry = block.expires_at as string;

    // The shop's fulfilment asked for scheduling: the first run plans the reminders without mailing.
    const before = (await mailTo(customer.email)).length;
    await runNotices();
    expect(await mailTo(customer.email)).toHaveLength(before);

    // Eleven months later: the price went up and a promotion runs.
    at(Date.parse(firstExpiry), -20 * DAY);
    await t.post('/api/manage/product/update', { id: product.id, price: 1200 }, { token: await shop.operator() });
    await shop.promotion([product.id], { kind: 'percent', value: 25, starts_at: new Date(Date.parse(firstExpiry) - 21 * DAY).toISOString(), ends_at: new Date(Date.parse(firstExpiry)).toISOString() });
    await runNotices(); // the 30-day reminder went out
    const renewal = await t.post('/api/admin/storage/renewal', { id: block.id }, { token: customer.token });
    expect(renewal.data).toMatchObject({ storage_id: block.id, renewable: true, options: [{ product_id: product.id, offer: { price: 1200, discount: 300, amount: 900 } }] });
    const renewed = await shop.order(customer.token, { product_id: product.id, renew_storage_id: block.id, pay_with: 'points' });
    expect(renewed).toMatchObject({ status: 'fulfilled', amount: 900, storage_id: block.id, storage_previous_expires_at: firstExpiry });

    const after = (await t.post('/api/admin/storage/list', {}, { token: customer.token })).data;
    expect(after.total).toBe(1);
    expect(after.list[0]).toMatchObject({ id: block.id, expires_at: renewal.data.options[0].expires_at_after, order_id: renewed.id });
    expect(new Date(after.list[0].expires_at).getUTCFullYear() - new Date(firstExpiry).getUTCFullYear()).toBe(1);
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data).toMatchObject({ capacity: GiB, active_blocks: 1 });

    // The old expiry passes unnoticed; the new one is reminded 30 days before.
    const reminded = (await mailTo(customer.email)).length;
    at(Date.parse(firstExpiry), DAY);
    await runNotices();
    expect(await mailTo(customer.email)).toHaveLength(reminded);
    at(Date.parse(after.list[0].expires_at), -30 * DAY + MINUTE);
    await runNotices();
    expect((await mailTo(customer.email)).slice(reminded).map((m) => m.subject)).toEqual(['Your Maildesk storage of 1 GiB expires in 30 days']);

    // Another customer's block cannot be renewed, nor asked about.
    const other = await signUpCustomer(t);
    expect((await t.post('/api/admin/storage/renewal', { id: block.id }, { token: other.token })).code).toBe(40400);
    expect(await t.post('/api/admin/order/create', { product_id: product.id, renew_storage_id: block.id, pay_with: 'later' }, { token: other.token })).toMatchObject({ code: 40000 });
  });
});
