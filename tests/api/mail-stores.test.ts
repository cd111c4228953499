/**
 * Mail stores as records (issue 34, item 1): operators register the hosts that hold the mail; every
 * mailbox has its store, placed by a rule that says why; the operators' mailbox lists show and
 * filter by it, and customers never see it. On PostgreSQL too when DATABASE_URL is set.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { measureStores } from '../../server/mail/stores/store.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures, MiB } from '../helpers/mail-fixtures.js';
import { sample } from '../helpers/metrics.js';

const METRICS_TOKEN = 'mail-stores-metrics-token-51a2';
let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
let root: string;
beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN });
  mail = mailFixtures(t);
  root = await mail.operator();
});
afterAll(() => t.close());

const asRoot = () => ({ token: root });
let storeNumber = 0;
async function newStore(extra: Record<string, unknown> = {}) {
  storeNumber += 1;
  const reply = await t.post('/api/manage/mail_store/create', { name: `store-${storeNumber}`, address: `127.0.0.${10 + storeNumber}`, ...extra }, asRoot());
  expect(reply.code, JSON.stringify(reply)).toBe(0);
  return reply.data as { id: number; name: string; state: string; capacity: number | null };
}

/** Only these stores take new mailboxes: every other one is set down (as an operator would, through the API). */
async function onlyActive(...ids: number[]) {
  const all = (await t.post('/api/manage/mail_store/list', { page_size: 100 }, asRoot())).data.list as { id: number; state: string }[];
  for (const store of all) {
    const state = ids.includes(store.id) ? 'active' : 'down';
    if (store.state !== state) expect((await t.post('/api/manage/mail_store/update', { id: store.id, state }, asRoot())).code).toBe(0);
  }
}

/** Bytes Dovecot wrote back for a store: one mailbox on it holding `bytes`, then the five-minute measurement. */
async function storeHolds(storeId: number, bytes: number) {
  const { customer, domain } = await customerWithDomain();
  await t.post('/api/manage/domain/update', { id: domain.id, mail_store_id: storeId }, asRoot());
  const box = await mail.mailbox(customer.token, domain.id);
  await t.services.db.insertInto('mailbox_usage').values({ address: box.address, bytes, messages: 1 }).execute();
  await measureStores(t.services);
}

async function customerWithDomain(): Promise<{ customer: CustomerSession; domain: { id: number; name: string } }> {
  const customer = await signUpCustomer(t);
  await mail.grant(customer.id, 10 * GiB);
  return { customer, domain: await mail.activeDomain(customer) };
}

/** A new mailbox as operators read it: its store and why. */
async function placed(customer: CustomerSession, domainId: number) {
  const box = await mail.mailbox(customer.token, domainId);
  const read = await t.get('/api/manage/email/get', { id: box.id }, asRoot());
  return { id: box.id as number, store_id: read.data.store_id as number, placement: read.data.placement as string };
}

describe('one machine', () => {
  it('When Maildesk is installed, then there is one active store, main on this host, and a new mailbox is placed on it; customers see no store', async () => {
    const list = await t.post('/api/manage/mail_store/list', {}, asRoot());
    expect(list.data.list).toEqual([expect.objectContaining({ id: 1, name: 'main', address: 'localhost', state: 'active', capacity: null })]);
    const { customer, domain } = await customerWithDomain();
    const created = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'first', password: 'mailbox-pass-1', quota: MiB }, { token: customer.token });
    expect(created.code).toBe(0);
    for (const record of [created.data, (await t.get('/api/admin/email/get', { id: created.data.id }, { token: customer.token })).data, (await t.post('/api/admin/email/list', {}, { token: customer.token })).data.list[0]]) {
      expect(record).not.toHaveProperty('store_id');
      expect(record).not.toHaveProperty('placement');
    }
    expect((await t.get('/api/admin/domain/get', { id: domain.id }, { token: customer.token })).data).not.toHaveProperty('mail_store_id');
    expect((await t.get('/api/manage/email/get', { id: created.data.id }, asRoot())).data).toMatchObject({ store_id: 1, placement: 'least_used' });
  });

  it('When a customer filters its mailboxes by store or names a store for its domain, then the store is not a field it has', async () => {
    const { customer, domain } = await customerWithDomain();
    expect(await t.post('/api/admin/email/list', { filter: { store_id: 1 } }, { token: customer.token })).toMatchObject({ code: 40000 });
    await t.post('/api/admin/domain/update', { id: domain.id, mail_store_id: 1, note: 'mine' }, { token: customer.token });
    const row = await t.services.db.selectFrom('domain').select(['mail_store_id', 'note']).where('id', '=', domain.id).executeTakeFirstOrThrow();
    expect(row.mail_store_id).toBeNull();
  });
});

describe('the placement rule', () => {
  let a: { id: number };
  let b: { id: number };
  beforeEach(async () => {
    a = await newStore();
    b = await newStore();
    await onlyActive(a.id, b.id);
  });

  it('When stores are active, then a new mailbox goes to the one with the fewest bytes in use; draining or down ones take none', async () => {
    await storeHolds(a.id, 5 * GiB);
    await storeHolds(b.id, GiB);
    const { customer, domain } = await customerWithDomain();
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: b.id, placement: 'least_used' });
    await t.post('/api/manage/mail_store/update', { id: b.id, state: 'draining' }, asRoot());
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: a.id, placement: 'least_used' });
    await t.post('/api/manage/mail_store/update', { id: b.id, state: 'active' }, asRoot());
    await t.post('/api/manage/mail_store/update', { id: a.id, state: 'down' }, asRoot());
    await storeHolds(b.id, 10 * GiB); // b now holds more than a; a is down
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: b.id });
  });

  it('When bytes are equal, then the store with fewer mailboxes wins, and between equals the older store', async () => {
    const { customer, domain } = await customerWithDomain();
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: a.id });
    // The mailbox just made on a counts at the next measurement: then b has fewer.
    await measureStores(t.services);
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: b.id });
  });

  it('When a store has reached its capacity, then it takes no new mailbox; one byte below it, it does', async () => {
    await storeHolds(a.id, GiB);
    await storeHolds(b.id, 2 * GiB);
    const { customer, domain } = await customerWithDomain();
    await t.post('/api/manage/mail_store/update', { id: a.id, capacity: GiB }, asRoot());
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: b.id });
    await t.post('/api/manage/mail_store/update', { id: a.id, capacity: GiB + 1 }, asRoot());
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: a.id });
    await t.post('/api/manage/mail_store/update', { id: a.id, capacity: null }, asRoot());
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: a.id });
  });

  it('When no store takes new mailboxes, then the mailbox is refused with a reason in both languages, and nothing is made', async () => {
    const { customer, domain } = await customerWithDomain();
    await t.post('/api/manage/mail_store/update', { id: a.id, state: 'draining' }, asRoot());
    await t.post('/api/manage/mail_store/update', { id: b.id, state: 'down' }, asRoot());
    const before = await t.post('/api/admin/email/list', {}, { token: customer.token });
    const reply = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'nowhere', password: 'mailbox-pass-1', quota: MiB }, { token: customer.token });
    expect(reply).toMatchObject({ status: 409, code: 40900, message: 'error.no_mail_store' });
    expect(messageText('en', reply.message)).toMatch(/^No mail store takes new mailboxes now/);
    expect(messageText('zh', reply.message)).toMatch(/^现在没有可以接收新邮箱的邮件存储/);
    expect((await t.post('/api/admin/email/list', {}, { token: customer.token })).data.total).toBe(before.data.total);
  });

  it('When an operator chose a store for the domain or the customer, then the domain’s wins, then the customer’s; a chosen store that is draining gives way to the rule, a full one does not', async () => {
    const c = await newStore();
    await onlyActive(a.id, b.id, c.id);
    await storeHolds(a.id, 3 * GiB);
    await storeHolds(b.id, 2 * GiB);
    await storeHolds(c.id, GiB);
    const { customer, domain } = await customerWithDomain();
    const other = await mail.activeDomain(customer);
    expect((await t.post('/api/manage/user/update', { id: customer.id, mail_store_id: b.id }, asRoot())).code).toBe(0);
    expect((await t.post('/api/manage/domain/update', { id: domain.id, mail_store_id: a.id }, asRoot())).code).toBe(0);
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: a.id, placement: 'domain' });
    expect(await placed(customer, other.id)).toMatchObject({ store_id: b.id, placement: 'customer' });
    // Full: the operator chose it, so it is still used.
    await t.post('/api/manage/mail_store/update', { id: a.id, capacity: MiB }, asRoot());
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: a.id, placement: 'domain' });
    // Draining: the customer's store, then the rule's.
    await t.post('/api/manage/mail_store/update', { id: a.id, state: 'draining' }, asRoot());
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: b.id, placement: 'customer' });
    await t.post('/api/manage/mail_store/update', { id: b.id, state: 'down' }, asRoot());
    expect(await placed(customer, domain.id)).toMatchObject({ store_id: c.id, placement: 'least_used' });
    expect((await t.get('/api/manage/domain/get', { id: domain.id }, asRoot())).data.mail_store_id).toBe(a.id);
  });

  it('When an operator lists mailboxes by store, then exactly that store’s mailboxes are listed and counted', async () => {
    const { customer, domain } = await customerWithDomain();
    const onA = await placed(customer, domain.id);
    await measureStores(t.services);
    const onB = await placed(customer, domain.id);
    expect([onA.store_id, onB.store_id]).toEqual([a.id, b.id]);
    for (const [store, box] of [[a, onA], [b, onB]] as const) {
      const list = await t.post('/api/manage/email/list', { filter: { store_id: store.id }, page_size: 100 }, asRoot());
      expect(list.data.list.map((m: { id: number }) => m.id)).toEqual([box.id]);
      expect(list.data.total).toBe(1);
    }
  });
});

describe('what a store holds', () => {
  it('When the measurement runs, then each store has the bytes Dovecot wrote back for its mailboxes and their number (a mailbox with no usage yet counts, with 0 bytes), on its page and on /metrics by name and state', async () => {
    const store = await newStore();
    await onlyActive(store.id);
    const { customer, domain } = await customerWithDomain();
    const one = await mail.mailbox(customer.token, domain.id);
    await mail.mailbox(customer.token, domain.id);
    await t.services.db.insertInto('mailbox_usage').values({ address: one.address, bytes: 7 * MiB + 3, messages: 4 }).execute();
    await measureStores(t.services);
    const read = await t.get('/api/manage/mail_store/get', { id: store.id }, asRoot());
    expect(read.data).toMatchObject({ used_bytes: 7 * MiB + 3, mailboxes: 2 });
    expect(Date.parse(read.data.measured_at)).toBeGreaterThan(Date.now() - 60_000);

    // And to a monitor: each store by name and state.
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(sample(await scrape(), 'maildesk_mail_store_bytes', { store: read.data.name, state: 'active' })).toBe(7 * MiB + 3);
    expect(sample(await scrape(), 'maildesk_mail_store_mailboxes', { store: read.data.name, state: 'active' })).toBe(2);
    await t.post('/api/manage/mail_store/update', { id: store.id, state: 'draining' }, asRoot());
    expect(sample(await scrape(), 'maildesk_mail_store_mailboxes', { store: read.data.name, state: 'draining' })).toBe(2);
    expect(sample(await scrape(), 'maildesk_mail_store_mailboxes', { store: read.data.name, state: 'active' })).toBeUndefined();
  });
});

describe('registering stores', () => {
  it('When the name, address, capacity or state is wrong, then it is refused with the field named, and nothing is made', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'x1', address: 'not a host' }, 'address', 'validation.host_address'],
      [{ name: 'x2', address: 'store-.example' }, 'address', 'validation.host_address'],
      [{ name: 'main', address: 'store9.example' }, 'name', 'validation.taken'],
      [{ name: 'x3', address: 'store9.example', capacity: MiB - 1 }, 'capacity', 'validation.size_too_small'],
      [{ name: 'x4', address: 'store9.example', state: 'sleeping' }, 'state', 'validation.invalid_choice'],
      [{ address: 'store9.example' }, 'name', 'validation.required'],
    ];
    for (const [body, field, message] of cases) {
      const reply = await t.post('/api/manage/mail_store/create', body, asRoot());
      expect(reply, JSON.stringify(body)).toMatchObject({ code: 40000, errors: { [field]: { message } } });
    }
    const names = (await t.post('/api/manage/mail_store/list', { page_size: 100 }, asRoot())).data.list.map((s: { name: string }) => s.name);
    expect(names.filter((n: string) => /^x\d$/.test(n))).toEqual([]);
    // Host names, IPv4 and IPv6 addresses are all addresses; capacity at its lower bound is one.
    for (const address of ['Store9.Example.net', '10.0.0.9', '::1']) expect((await newStore({ address, capacity: MiB })).capacity).toBe(MiB);
  });

  it('When a support or billing operator or a customer tries to register or change a store, then only superadmins may; support and billing may read them', async () => {
    const support = await operatorWithRole(t, 'support');
    const billing = await operatorWithRole(t, 'billing');
    const customer = await signUpCustomer(t);
    for (const token of [support.token, billing.token]) {
      expect(await t.post('/api/manage/mail_store/create', { name: 'nope', address: 'nope.example' }, { token })).toMatchObject({ code: 40300 });
      expect(await t.post('/api/manage/mail_store/update', { id: 1, state: 'down' }, { token })).toMatchObject({ code: 40300 });
      expect((await t.post('/api/manage/mail_store/list', {}, { token })).code).toBe(0);
    }
    expect((await t.post('/api/manage/mail_store/list', {}, { token: customer.token })).code).not.toBe(0);
    expect(await t.post('/api/admin/mail_store/list', {}, { token: customer.token })).toMatchObject({ status: 404 });
  });

  it('When a store still holds mail (a mailbox, or a deleted one that can be restored), then it cannot be deleted; once empty it can, and the domains and customers that chose it go back to the rule', async () => {
    const store = await newStore();
    await onlyActive(store.id);
    const { customer, domain } = await customerWithDomain();
    await t.post('/api/manage/domain/update', { id: domain.id, mail_store_id: store.id }, asRoot());
    await t.post('/api/manage/user/update', { id: customer.id, mail_store_id: store.id }, asRoot());
    const box = await placed(customer, domain.id);
    const refused = { status: 409, code: 40900, message: 'error.mail_store_in_use' };
    expect(await t.post('/api/manage/mail_store/delete', { id: store.id }, asRoot())).toMatchObject(refused);
    expect((await t.post('/api/admin/email/delete', { id: box.id }, { token: customer.token })).code).toBe(0);
    expect(await t.post('/api/manage/mail_store/delete', { id: store.id }, asRoot())).toMatchObject(refused);

    // Restored, it is on its store again, placed as it was.
    const deleted = await t.post('/api/manage/deleted_email/list', { filter: { owner_id: customer.id } }, asRoot());
    expect((await t.post('/api/manage/deleted_email/restore', { id: deleted.data.list[0].id }, asRoot())).code).toBe(0);
    expect((await t.get('/api/manage/email/get', { id: box.id }, asRoot())).data).toMatchObject({ store_id: store.id, placement: 'domain' });

    // Gone for good (purged): the store is empty.
    await t.post('/api/admin/email/delete', { id: box.id }, { token: customer.token });
    await t.services.db.updateTable('deleted_mailbox').set({ state: 'purged' }).where('mailbox_id', '=', box.id).execute();
    expect((await t.post('/api/manage/mail_store/delete', { id: store.id }, asRoot())).code).toBe(0);
    expect((await t.get('/api/manage/domain/get', { id: domain.id }, asRoot())).data.mail_store_id).toBeNull();
    expect((await t.get('/api/manage/user/get', { id: customer.id }, asRoot())).data.mail_store_id).toBeNull();
  });
});
