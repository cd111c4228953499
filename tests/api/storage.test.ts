import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer, teamMemberOf } from '../helpers/fixtures.js';
import { GiB, mailFixtures, MiB } from '../helpers/mail-fixtures.js';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
beforeAll(async () => {
  t = await startTestApp();
  mail = mailFixtures(t);
});
afterAll(() => t.close());

describe('capacity blocks', () => {
  it('When an operator grants capacity, then the customer sees the block and a summary of capacity, allocated and used', async () => {
    const customer = await signUpCustomer(t);
    const block = await mail.grant(customer.id, GiB, { label: 'Welcome' });
    expect(block).toMatchObject({ owner_id: customer.id, size: GiB, source: 'grant', label: 'Welcome', expires_at: null });
    await mail.grant(customer.id, GiB, { expires_at: new Date(Date.now() - 1000).toISOString() });
    const domain = await mail.activeDomain(customer);
    await mail.mailbox(customer.token, domain.id, 'a', { quota: 100 * MiB });
    const list = await t.post('/api/admin/storage/list', { sort: 'size', order: 'desc' }, { token: customer.token });
    expect(list.data.total).toBe(2);
    const summary = await t.post('/api/admin/storage/summary', {}, { token: customer.token });
    expect(summary.data).toMatchObject({ user_id: customer.id, capacity: GiB, allocated: 100 * MiB, available: GiB - 100 * MiB, used: 0, storage_max: GiB, mailboxes: 1, active_blocks: 1 });
    const operator = await mail.operator();
    expect((await t.post('/api/manage/storage/summary', { user_id: customer.id }, { token: operator })).data).toEqual(summary.data);
    expect((await t.post('/api/manage/storage/summary', { user_id: 999999 }, { token: operator })).code).toBe(40400);
  });

  it('When a customer tries to make, resize or remove capacity, then only the label changes and the rest is refused', async () => {
    const customer = await signUpCustomer(t);
    const block = await mail.grant(customer.id, GiB);
    expect(await t.post('/api/admin/storage/create', { size: 100 * GiB }, { token: customer.token })).toMatchObject({ status: 403, code: 40300, message: 'error.storage_via_order' });
    expect(await t.post('/api/admin/storage/delete', { id: block.id }, { token: customer.token })).toMatchObject({ code: 40300, message: 'error.storage_not_releasable' });
    const updated = await t.post('/api/admin/storage/update', { id: block.id, size: 100 * GiB, expires_at: null, label: 'Main' }, { token: customer.token });
    expect(updated.data).toMatchObject({ size: GiB, label: 'Main' });
    expect((await t.post('/api/admin/storage/list', {}, { token: customer.token })).data.total).toBe(1);
  });

  it('When an operator would take away capacity the quotas use, then it is refused; spare capacity can go', async () => {
    const customer = await signUpCustomer(t);
    const main = await mail.grant(customer.id, 100 * MiB);
    const spare = await mail.grant(customer.id, 50 * MiB);
    const domain = await mail.activeDomain(customer);
    await mail.mailbox(customer.token, domain.id, 'user', { quota: 90 * MiB });
    const operator = await mail.operator();
    expect(await t.post('/api/manage/storage/delete', { id: main.id }, { token: operator })).toMatchObject({ code: 40900, message: 'error.capacity_in_use', params: { capacity: 50 * MiB, allocated: 90 * MiB } });
    expect(await t.post('/api/manage/storage/update', { id: main.id, size: 10 * MiB }, { token: operator })).toMatchObject({ code: 40900, message: 'error.capacity_in_use' });
    expect(await t.post('/api/manage/storage/update', { id: main.id, expires_at: new Date(Date.now() - 1000).toISOString() }, { token: operator })).toMatchObject({ code: 40900 });
    expect((await t.get('/api/manage/storage/get', { id: main.id }, { token: operator })).data).toMatchObject({ size: 100 * MiB, expires_at: null });
    expect((await t.post('/api/manage/storage/delete', { id: spare.id }, { token: operator })).code).toBe(0);
    expect((await t.post('/api/manage/storage/update', { id: main.id, size: 95 * MiB }, { token: operator })).data.size).toBe(95 * MiB);
  });

  it('When capacity is granted to a team member or with bad values, then it is refused and nothing is made', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const billing = await operatorWithRole(t, 'billing');
    const count = async () => Number((await t.services.db.selectFrom('storage').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(await t.post('/api/manage/storage/create', { owner_id: member.id, size: GiB }, { token: billing.token })).toMatchObject({ errors: { owner_id: { message: 'validation.not_a_customer' } } });
    expect(await t.post('/api/manage/storage/create', { owner_id: customer.id, size: 10 }, { token: billing.token })).toMatchObject({ errors: { size: { message: 'validation.size_too_small', params: { min_text: '1 MiB' } } } });
    expect(await t.post('/api/manage/storage/create', { owner_id: customer.id, size: GiB, expires_at: 'tomorrow' }, { token: billing.token })).toMatchObject({ errors: { expires_at: { message: 'validation.invalid_format' } } });
    expect(await count()).toBe(before);
  });

  it("When customer B or a team member asks for customer A's storage, then they get nothing", async () => {
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    const member = await teamMemberOf(t, a);
    const block = await mail.grant(a.id, GiB);
    expect((await t.post('/api/admin/storage/list', {}, { token: b.token })).data.total).toBe(0);
    expect((await t.get('/api/admin/storage/get', { id: block.id }, { token: b.token })).code).toBe(40400);
    expect((await t.post('/api/admin/storage/update', { id: block.id, label: 'B' }, { token: b.token })).code).toBe(40400);
    expect((await t.post('/api/admin/storage/summary', {}, { token: b.token })).data.capacity).toBe(0);
    expect((await t.post('/api/admin/storage/list', {}, { token: member.token })).code).toBe(40300);
    expect((await t.post('/api/admin/storage/summary', {}, { token: member.token })).code).toBe(40300);
  });
});
