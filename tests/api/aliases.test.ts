import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
let a: CustomerSession;
let b: CustomerSession;
let domainA: { id: number; name: string; name_unicode: string };
beforeAll(async () => {
  t = await startTestApp();
  mail = mailFixtures(t);
  [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
  await mail.grant(a.id, GiB);
  domainA = await mail.activeDomain(a);
});
afterAll(() => t.close());

const aliasCount = async () => Number((await t.services.db.selectFrom('alias').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('aliases', () => {
  it('When an alias gets destinations as a list or as text, then they are stored once each, in punycode, comma-separated', async () => {
    const reply = await t.post(
      '/api/admin/alias/create',
      { domain_id: domainA.id, local_part: 'Sales', goto: 'Boss@Example.org, team@bücher.example\nboss@example.org' },
      { token: a.token },
    );
    expect(reply.data).toMatchObject({ address: `sales@${domainA.name}`, goto: 'boss@example.org,team@xn--bcher-kva.example', active: 1 });
    const listed = await t.post('/api/admin/alias/update', { id: reply.data.id, goto: ['one@example.org', 'two@example.org'] }, { token: a.token });
    expect(listed.data.goto).toBe('one@example.org,two@example.org');
  });

  it('When "*" or an empty local part is given, then it is the domain catch-all, once', async () => {
    const catchAll = await t.post('/api/admin/alias/create', { domain_id: domainA.id, local_part: '*', goto: 'all@example.org' }, { token: a.token });
    expect(catchAll.data).toMatchObject({ address: `@${domainA.name}`, local_part: '' });
    expect(await t.post('/api/admin/alias/create', { domain_id: domainA.id, local_part: '', goto: 'other@example.org' }, { token: a.token })).toMatchObject({ errors: { address: { message: 'validation.taken' } } });
  });

  it('When the input is bad, then each error is named and nothing is made', async () => {
    const before = await aliasCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ goto: 'not an address' }, 'goto', 'validation.invalid_destination'],
      [{ goto: [] }, 'goto', 'validation.required'],
      [{ goto: '' }, 'goto', 'validation.required'],
      [{ local_part: '.dot' }, 'local_part', 'validation.local_part'],
      [{ goto: Array.from({ length: 101 }, (_, i) => `u${i}@example.org`) }, 'goto', 'validation.too_many'],
    ];
    for (const [change, field, message] of cases) {
      const reply = await t.post('/api/admin/alias/create', { domain_id: domainA.id, local_part: 'fine', goto: 'x@example.org', ...change }, { token: a.token });
      expect(reply.errors?.[field]?.message, JSON.stringify(change).slice(0, 80)).toBe(message);
    }
    const box = await mail.mailbox(a.token, domainA.id, 'realbox');
    expect(await t.post('/api/admin/alias/create', { domain_id: domainA.id, local_part: 'realbox', goto: 'x@example.org' }, { token: a.token })).toMatchObject({ errors: { local_part: { message: 'validation.taken' } } });
    expect(await aliasCount()).toBe(before);
    void box;
  });

  it('When aliases are listed, then the query string carries page, sort, filter and search', async () => {
    await mail.alias(a.token, domainA.id, 'x@example.org', 'zz-last');
    const reply = await t.get('/api/admin/alias/list', { page: 1, page_size: 2, sort: 'address', order: 'desc', filter: { domain_id: domainA.id, active: 1 }, q: 'zz-' }, { token: a.token });
    expect(reply.data).toMatchObject({ total: 1, page: 1, page_size: 2, list: [{ address: `zz-last@${domainA.name}` }] });
    const own = (await t.get('/api/admin/alias/list', { page_size: 100 }, { token: a.token })).data;
    expect(own.total).toBeGreaterThan(1);
    expect((await t.get('/api/manage/alias/list', { filter: { owner_id: a.id } }, { token: await mail.operator() })).data.total).toBe(own.total);
  });

  it("When customer B tries customer A's aliases, then B sees and changes nothing", async () => {
    const alias = await mail.alias(a.token, domainA.id, 'keep@example.org');
    expect((await t.get('/api/admin/alias/list', { page_size: 100 }, { token: b.token })).data.list).toEqual([]);
    expect((await t.get('/api/admin/alias/get', { id: alias.id }, { token: b.token })).code).toBe(40400);
    expect((await t.post('/api/admin/alias/update', { id: alias.id, goto: 'thief@example.org' }, { token: b.token })).code).toBe(40400);
    expect((await t.post('/api/admin/alias/delete', { id: alias.id }, { token: b.token })).code).toBe(40400);
    expect((await t.post('/api/admin/alias/create', { domain_id: domainA.id, local_part: 'thief', goto: 'thief@example.org' }, { token: b.token })).code).toBe(40400);
    expect((await t.get('/api/admin/alias/get', { id: alias.id }, { token: a.token })).data.goto).toBe('keep@example.org');
  });
});

describe('alias domains', () => {
  it('When a domain is mapped onto another of the same customer, then both names are shown', async () => {
    const alias = await mail.pendingDomain(a);
    const reply = await t.post('/api/admin/alias_domain/create', { alias_domain_id: alias.id, target_domain_id: domainA.id }, { token: a.token });
    expect(reply.data).toMatchObject({ alias_domain_name: alias.name, target_domain_name: domainA.name, target_domain_unicode: domainA.name_unicode, active: 1, owner_id: a.id });
    const listed = await t.get('/api/admin/alias_domain/list', { filter: { target_domain_id: domainA.id } }, { token: a.token });
    expect(listed.data.list.map((r: { id: number }) => r.id)).toContain(reply.data.id);
    expect((await t.post('/api/admin/alias_domain/update', { id: reply.data.id, active: 0 }, { token: a.token })).data.active).toBe(0);
  });

  it('When the mapping is to itself, a chain, twice, or to another customer, then it is refused and nothing is made', async () => {
    const count = async () => Number((await t.services.db.selectFrom('alias_domain').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const one = await mail.pendingDomain(a);
    const two = await mail.pendingDomain(a);
    expect(await t.post('/api/admin/alias_domain/create', { alias_domain_id: one.id, target_domain_id: one.id }, { token: a.token })).toMatchObject({ errors: { target_domain_id: { message: 'validation.same_domain' } } });
    await t.post('/api/admin/alias_domain/create', { alias_domain_id: one.id, target_domain_id: domainA.id }, { token: a.token });
    expect(await t.post('/api/admin/alias_domain/create', { alias_domain_id: two.id, target_domain_id: one.id }, { token: a.token })).toMatchObject({ errors: { target_domain_id: { message: 'validation.alias_domain_chain' } } });
    expect(await t.post('/api/admin/alias_domain/create', { alias_domain_id: one.id, target_domain_id: two.id }, { token: a.token })).toMatchObject({ errors: { alias_domain_id: { message: 'validation.taken' } } });
    const domainB = await mail.pendingDomain(b);
    expect((await t.post('/api/admin/alias_domain/create', { alias_domain_id: two.id, target_domain_id: domainB.id }, { token: a.token })).code).toBe(40400);
    const operator = await mail.operator();
    expect(await t.post('/api/manage/alias_domain/create', { alias_domain_id: two.id, target_domain_id: domainB.id }, { token: operator })).toMatchObject({ errors: { target_domain_id: { message: 'validation.other_owner' } } });
    expect(await count()).toBe(before + 1);
  });

  it("When customer B tries customer A's alias domains, then B sees and changes nothing", async () => {
    const alias = await mail.pendingDomain(a);
    const made = (await t.post('/api/admin/alias_domain/create', { alias_domain_id: alias.id, target_domain_id: domainA.id }, { token: a.token })).data;
    expect((await t.get('/api/admin/alias_domain/list', {}, { token: b.token })).data.total).toBe(0);
    expect((await t.get('/api/admin/alias_domain/get', { id: made.id }, { token: b.token })).code).toBe(40400);
    expect((await t.post('/api/admin/alias_domain/update', { id: made.id, active: 0 }, { token: b.token })).code).toBe(40400);
    expect((await t.post('/api/admin/alias_domain/delete', { id: made.id }, { token: b.token })).code).toBe(40400);
    expect((await t.get('/api/admin/alias_domain/get', { id: made.id }, { token: a.token })).data.active).toBe(1);
  });
});
