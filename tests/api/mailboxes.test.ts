import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures, MiB } from '../helpers/mail-fixtures.js';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
beforeAll(async () => {
  t = await startTestApp();
  mail = mailFixtures(t);
});
afterAll(() => t.close());

const mailboxCount = async (ownerId: number) =>
  Number((await t.services.db.selectFrom('mailbox').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow()).n);

/** A customer with capacity and an active domain. */
async function customerWithDomain(capacity = 10 * GiB) {
  const customer = await signUpCustomer(t);
  await mail.grant(customer.id, capacity);
  const domain = await mail.activeDomain(customer);
  return { customer, domain };
}

describe('creating a mailbox', () => {
  it('When no quota is given, then it is the customer storage_max, and the password is a Dovecot {ARGON2ID} hash', async () => {
    const { customer, domain } = await customerWithDomain();
    const reply = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'Info', password: 'mailbox-pass-1', name: 'Front desk' }, { token: customer.token });
    expect(reply).toMatchObject({
      code: 0,
      data: { address: `info@${domain.name}`, address_unicode: `info@${domain.name_unicode}`, quota: GiB, active: 1, used_bytes: 0, used_messages: 0, owner_id: customer.id, name: 'Front desk' },
    });
    expect(reply.data).not.toHaveProperty('password');
    expect(reply.data).not.toHaveProperty('password_hash');
    const row = await t.services.db.selectFrom('mailbox').select('password_hash').where('id', '=', reply.data.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\{ARGON2ID\}\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
  });

  it('When a mailbox is created, then its answer is the record exactly as get reads it, with the usage Dovecot had already written for its address', async () => {
    const { customer, domain } = await customerWithDomain();
    await t.services.db.insertInto('mailbox_usage').values({ address: `early@${domain.name}`, bytes: 4096, messages: 2 }).execute();
    for (const [local, used] of [['early', { used_bytes: 4096, used_messages: 2 }], ['fresh', { used_bytes: 0, used_messages: 0 }]] as const) {
      const created = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: local, password: 'mailbox-pass-1', quota: MiB }, { token: customer.token });
      expect(created.data).toMatchObject(used);
      const read = await t.get('/api/admin/email/get', { id: created.data.id }, { token: customer.token });
      expect(created.data).toEqual(read.data);
      // In the same order as a read through the view.
      expect(Object.keys(created.data)).toEqual(Object.keys(read.data));
    }
  });

  it('When the quota is above storage_max, then it is refused; raising storage_max allows it', async () => {
    const { customer, domain } = await customerWithDomain();
    const body = { domain_id: domain.id, local_part: 'big', password: 'mailbox-pass-1', quota: 2 * GiB };
    expect(await t.post('/api/admin/email/create', body, { token: customer.token })).toMatchObject({ code: 40000, errors: { quota: { message: 'validation.quota_above_storage_max', params: { max: GiB } } } });
    await t.post('/api/admin/me/update_storage_max', { storage_max: 2 * GiB }, { token: customer.token });
    expect((await t.post('/api/admin/email/create', body, { token: customer.token })).code).toBe(0);
  });

  it('When the quotas would exceed the capacity of the unexpired blocks, then a clear error says how much is free and nothing is made', async () => {
    const customer = await signUpCustomer(t);
    const domain = await mail.activeDomain(customer);
    await mail.grant(customer.id, 100 * MiB);
    await mail.grant(customer.id, 500 * MiB, { expires_at: new Date(Date.now() - 60_000).toISOString() });
    await mail.mailbox(customer.token, domain.id, 'first', { quota: 60 * MiB });
    const before = await mailboxCount(customer.id);
    const refused = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'second', password: 'mailbox-pass-1', quota: 50 * MiB }, { token: customer.token });
    expect(refused).toMatchObject({
      status: 409,
      code: 40900,
      message: 'error.capacity_exceeded',
      params: { capacity: 100 * MiB, allocated: 60 * MiB, available: 40 * MiB, requested: 50 * MiB },
      errors: { quota: { message: 'validation.capacity_exceeded' } },
    });
    expect(await mailboxCount(customer.id)).toBe(before);
    expect((await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'second', password: 'mailbox-pass-1', quota: 40 * MiB }, { token: customer.token })).code).toBe(0);
  });

  it('When several mailboxes are created at once, then together they still fit the capacity', async () => {
    const customer = await signUpCustomer(t);
    const domain = await mail.activeDomain(customer);
    await mail.grant(customer.id, 10 * MiB);
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.post('/api/admin/email/create', { domain_id: domain.id, local_part: `racer${i}`, password: 'mailbox-pass-1', quota: 3 * MiB }, { token: customer.token }),
      ),
    );
    expect(replies.filter((r) => r.code === 0)).toHaveLength(3);
    expect(replies.filter((r) => r.message === 'error.capacity_exceeded')).toHaveLength(2);
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data).toMatchObject({ capacity: 10 * MiB, allocated: 9 * MiB });
  });

  it('When the input is bad, then each error is named and nothing is made', async () => {
    const { customer, domain } = await customerWithDomain();
    const before = await mailboxCount(customer.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ local_part: 'two..dots' }, 'local_part', 'validation.local_part'],
      [{ local_part: 'space here' }, 'local_part', 'validation.local_part'],
      [{ local_part: 'a'.repeat(65) }, 'local_part', 'validation.too_long'],
      [{ password: 'short' }, 'password', 'validation.too_short'],
      [{ quota: 1000 }, 'quota', 'validation.size_too_small'],
      [{ domain_id: 'x' }, 'domain_id', 'validation.invalid_type'],
    ];
    for (const [change, field, message] of cases) {
      const reply = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'ok', password: 'mailbox-pass-1', ...change }, { token: customer.token });
      expect(reply.code, JSON.stringify(change)).toBe(40000);
      expect(reply.errors?.[field]?.message, JSON.stringify(change)).toBe(message);
    }
    await mail.mailbox(customer.token, domain.id, 'taken');
    expect(await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'taken', password: 'mailbox-pass-1', quota: MiB }, { token: customer.token })).toMatchObject({ errors: { address: { message: 'validation.taken' } } });
    await mail.alias(customer.token, domain.id, 'x@example.org', 'sales');
    expect(await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'sales', password: 'mailbox-pass-1', quota: MiB }, { token: customer.token })).toMatchObject({ errors: { local_part: { message: 'validation.taken' } } });
    expect(await mailboxCount(customer.id)).toBe(before + 1);
  });

  it('When an operator creates a mailbox in a customer domain, then it belongs to that customer and counts against their capacity', async () => {
    const customer = await signUpCustomer(t);
    const domain = await mail.activeDomain(customer);
    await mail.grant(customer.id, 5 * MiB);
    const operator = await mail.operator();
    const made = await t.post('/api/manage/email/create', { domain_id: domain.id, local_part: 'ops', password: 'mailbox-pass-1', quota: 5 * MiB }, { token: operator });
    expect(made.data).toMatchObject({ owner_id: customer.id, quota: 5 * MiB });
    expect(await t.post('/api/manage/email/create', { domain_id: domain.id, local_part: 'more', password: 'mailbox-pass-1', quota: MiB }, { token: operator })).toMatchObject({ message: 'error.capacity_exceeded' });
    const filtered = await t.post('/api/manage/email/list', { filter: { owner_id: customer.id } }, { token: operator });
    expect(filtered.data).toMatchObject({ total: 1, list: [{ id: made.data.id }] });
  });
});

describe('changing a mailbox', () => {
  let customer: CustomerSession;
  let domainId: number;
  beforeAll(async () => {
    ({ customer, domain: { id: domainId } } = await customerWithDomain(20 * MiB));
  });

  it('When the quota grows beyond the capacity, then it is refused; within it, it changes', async () => {
    const box = await mail.mailbox(customer.token, domainId, 'grow', { quota: 5 * MiB });
    await mail.mailbox(customer.token, domainId, 'other', { quota: 10 * MiB });
    expect(await t.post('/api/admin/email/update', { id: box.id, quota: 11 * MiB }, { token: customer.token })).toMatchObject({ code: 40900, message: 'error.capacity_exceeded' });
    expect((await t.get('/api/admin/email/get', { id: box.id }, { token: customer.token })).data.quota).toBe(5 * MiB);
    expect((await t.post('/api/admin/email/update', { id: box.id, quota: 10 * MiB, active: 0 }, { token: customer.token })).data).toMatchObject({ quota: 10 * MiB, active: 0 });
    // Lowering is always allowed, even when the capacity shrank meanwhile.
    expect((await t.post('/api/admin/email/update', { id: box.id, quota: MiB }, { token: customer.token })).data.quota).toBe(MiB);
  });

  it('When update_password is called, then only the hash changes, and the log says so without the password', async () => {
    const box = await mail.mailbox(customer.token, domainId);
    const before = await t.services.db.selectFrom('mailbox').select('password_hash').where('id', '=', box.id).executeTakeFirstOrThrow();
    expect(await t.post('/api/admin/email/update_password', { id: box.id, password: 'short' }, { token: customer.token })).toMatchObject({ code: 40000, errors: { password: { message: 'validation.too_short' } } });
    const reply = await t.post('/api/admin/email/update_password', { id: box.id, password: 'another-pass-2' }, { token: customer.token });
    expect(reply).toMatchObject({ code: 0, data: { id: box.id, address: box.address } });
    const after = await t.services.db.selectFrom('mailbox').select('password_hash').where('id', '=', box.id).executeTakeFirstOrThrow();
    expect(after.password_hash).not.toBe(before.password_hash);
    expect(after.password_hash.startsWith('{ARGON2ID}')).toBe(true);
    const log = await t.post('/api/admin/log/list', { filter: { action: 'update_password', target_type: 'email' } }, { token: customer.token });
    expect(log.data.list[0]).toMatchObject({ target_id: box.id, after: { address: box.address } });
    expect(JSON.stringify(log.data.list[0])).not.toContain('another-pass-2');
  });

  it('When Dovecot has written usage, then the list shows it; deleting the mailbox forgets it', async () => {
    const box = await mail.mailbox(customer.token, domainId);
    const usedBefore = (await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.used;
    await t.services.db.insertInto('mailbox_usage').values({ address: box.address, bytes: 12345, messages: 3 }).execute();
    const list = await t.post('/api/admin/email/list', { filter: { domain_id: domainId }, page_size: 100 }, { token: customer.token });
    expect(list.data.list.find((m: { id: number }) => m.id === box.id)).toMatchObject({ used_bytes: 12345, used_messages: 3 });
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.used).toBe(usedBefore + 12345);
    await t.post('/api/admin/email/delete', { id: box.id }, { token: customer.token });
    expect((await t.post('/api/admin/storage/summary', {}, { token: customer.token })).data.used).toBe(usedBefore);
    expect(await t.services.db.selectFrom('mailbox_usage').select('address').where('address', '=', box.address).executeTakeFirst()).toBeUndefined();
  });

  it('When lists are sorted, filtered and searched, then it happens in the database', async () => {
    const own = await customerWithDomain();
    const small = await mail.mailbox(own.customer.token, own.domain.id, 'other-small', { quota: MiB });
    const big = await mail.mailbox(own.customer.token, own.domain.id, 'other-big', { quota: 3 * MiB });
    const middle = await mail.mailbox(own.customer.token, own.domain.id, 'other-middle', { quota: 2 * MiB });
    await mail.mailbox(own.customer.token, own.domain.id, 'other-off', { quota: 4 * MiB, active: 0 });
    await mail.mailbox(own.customer.token, own.domain.id, 'unrelated', { quota: 5 * MiB });
    const ids = async (body: Record<string, unknown>) => (await t.post('/api/admin/email/list', body, { token: own.customer.token })).data.list.map((m: { id: number }) => m.id);
    // Exactly the active ones matching "other", largest quota first; then the other way round.
    expect(await ids({ sort: 'quota', order: 'desc', filter: { active: 1 }, q: 'other' })).toEqual([big.id, middle.id, small.id]);
    expect(await ids({ sort: 'quota', order: 'asc', filter: { active: 1 }, q: 'other' })).toEqual([small.id, middle.id, big.id]);
    expect(await t.post('/api/admin/email/list', { sort: 'password' }, { token: customer.token })).toMatchObject({ code: 40000, errors: { sort: { message: 'validation.unknown_sort' } } });
  });
});

describe('send_verify_code: the delivery check', () => {
  it('When asked without a code, then a code is mailed to the mailbox; with it, the delivery is recorded', async () => {
    const { customer, domain } = await customerWithDomain();
    const box = await mail.mailbox(customer.token, domain.id, 'check');
    const sent = await t.post('/api/admin/email/send_verify_code', { id: box.id }, { token: customer.token });
    expect(sent).toMatchObject({ code: 0, data: { sent: true, address: box.address } });
    const mailToBox = (await t.outbox()).filter((m) => m.to === box.address);
    expect(mailToBox.at(-1)!.subject).toMatch(/delivery check/i);
    const code = await t.lastCode(box.address);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await t.post('/api/admin/email/send_verify_code', { id: box.id, code: wrong }, { token: customer.token })).toMatchObject({ code: 40102, message: 'error.bad_code' });
    expect(await t.post('/api/admin/email/send_verify_code', { id: box.id, code: '12' }, { token: customer.token })).toMatchObject({ code: 40000, errors: { code: { message: 'validation.code_format' } } });
    const confirmed = await t.post('/api/admin/email/send_verify_code', { id: box.id, code }, { token: customer.token });
    expect(confirmed.data.delivery_checked_at).toBeTruthy();
    expect((await t.post('/api/admin/email/send_verify_code', { id: box.id, code }, { token: customer.token })).code).toBe(40102);
  });

  it("When one mailbox's code is given for another mailbox, then it is refused there and that mailbox stays unchecked", async () => {
    const { customer, domain } = await customerWithDomain();
    const first = await mail.mailbox(customer.token, domain.id, 'first');
    const second = await mail.mailbox(customer.token, domain.id, 'second');
    await t.post('/api/admin/email/send_verify_code', { id: first.id }, { token: customer.token });
    const firstCode = await t.lastCode(first.address);
    expect(await t.post('/api/admin/email/send_verify_code', { id: second.id, code: firstCode }, { token: customer.token })).toMatchObject({ code: 40102 });
    expect((await t.get('/api/admin/email/get', { id: second.id }, { token: customer.token })).data.delivery_checked_at).toBeNull();
    // A fresh code for the first mailbox confirms it (the one tried elsewhere is used up).
    await t.post('/api/admin/email/send_verify_code', { id: first.id }, { token: customer.token });
    expect((await t.post('/api/admin/email/send_verify_code', { id: first.id, code: await t.lastCode(first.address) }, { token: customer.token })).data.delivery_checked_at).toBeTruthy();
  });

  it('When the mailbox is deactivated, then no code is sent', async () => {
    const { customer, domain } = await customerWithDomain();
    const box = await mail.mailbox(customer.token, domain.id, 'off', { active: 0 });
    expect(await t.post('/api/admin/email/send_verify_code', { id: box.id }, { token: customer.token })).toMatchObject({ code: 40900, message: 'error.mailbox_inactive' });
  });
});

describe('tenants', () => {
  it("When customer B tries customer A's mailboxes, then B sees and changes nothing", async () => {
    const { customer: a, domain } = await customerWithDomain();
    const { customer: b } = await customerWithDomain();
    const box = await mail.mailbox(a.token, domain.id, 'private');
    expect((await t.post('/api/admin/email/list', { page_size: 100 }, { token: b.token })).data.list.map((m: { id: number }) => m.id)).not.toContain(box.id);
    expect((await t.get('/api/admin/email/get', { id: box.id }, { token: b.token })).code).toBe(40400);
    for (const [path, body] of [
      ['/api/admin/email/update', { id: box.id, quota: 2 * MiB }],
      ['/api/admin/email/update_password', { id: box.id, password: 'stolen-pass-1' }],
      ['/api/admin/email/send_verify_code', { id: box.id }],
      ['/api/admin/email/delete', { id: box.id }],
      ['/api/admin/email/create', { domain_id: domain.id, local_part: 'intruder', password: 'mailbox-pass-1' }],
    ] as const) {
      expect((await t.post(path, body, { token: b.token })).code, path).toBe(40400);
    }
    expect((await t.get('/api/admin/email/get', { id: box.id }, { token: a.token })).data).toMatchObject({ quota: MiB, active: 1 });
    expect(await mailboxCount(b.id)).toBe(0);
  });
});
