/** A customer's team members: /api/admin/user/*, extra logins for the same customer. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, someIp, teamMemberOf, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
let operator: string;
beforeAll(async () => {
  t = await startTestApp();
  operator = await operatorLogin(t);
});
afterAll(() => t.close());

const signIn = (email: string, password: string) => t.post('/api/admin/login/login', { email, password }, { ip: someIp() });

describe('managing members', () => {
  it('When a customer creates a member, then it is listed and readable, without its password', async () => {
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    const created = await t.post('/api/admin/user/create', { email: email.toUpperCase(), password: 'member-pass-1', username: 'Bob' }, { token: customer.token });
    expect(created).toMatchObject({ status: 200, code: 0, data: { email, username: 'Bob', status: 'active', owner_id: customer.id } });
    expect(created.data).not.toHaveProperty('password');
    expect(created.data).not.toHaveProperty('password_hash');

    const list = await t.post('/api/admin/user/list', {}, { token: customer.token });
    expect(list).toMatchObject({ code: 0, data: { total: 1, page: 1, list: [{ id: created.data.id, email, username: 'Bob' }] } });
    expect(list.data.list[0]).not.toHaveProperty('password_hash');

    expect(await t.get('/api/admin/user/get', { id: created.data.id }, { token: customer.token })).toMatchObject({ code: 0, data: { id: created.data.id, email } });
  });

  it('When a customer lists members, then only their own appear, never the customer accounts', async () => {
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    const memberA = await teamMemberOf(t, a);
    const memberB = await teamMemberOf(t, b);
    const listA = await t.post('/api/admin/user/list', {}, { token: a.token });
    expect(listA.data.list.map((m: { id: number }) => m.id)).toEqual([memberA.id]);
    expect(await t.get('/api/admin/user/get', { id: memberB.id }, { token: a.token })).toMatchObject({ status: 404, code: 40400 });
    // The customer account itself is not one of its members.
    expect(await t.get('/api/admin/user/get', { id: a.id }, { token: a.token })).toMatchObject({ status: 404, code: 40400 });
  });

  it('When a customer updates a member, then the change shows, the member\'s sessions end, and only the new password signs in', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const renamed = await t.post('/api/admin/user/update', { id: member.id, username: 'Renamed' }, { token: customer.token });
    expect(renamed).toMatchObject({ code: 0, data: { id: member.id, username: 'Renamed' } });
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(0);

    const updated = await t.post('/api/admin/user/update', { id: member.id, password: 'changed-pass-1' }, { token: customer.token });
    expect(updated).toMatchObject({ code: 0, data: { id: member.id, username: 'Renamed' } });
    expect(updated.data).not.toHaveProperty('password_hash');
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(0);
    expect((await signIn(member.email, member.password)).code).toBe(40101);
    expect((await signIn(member.email, 'changed-pass-1')).code).toBe(0);
  });

  it('When a customer deletes a member, then it is gone and its session and sign-in end', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect(await t.post('/api/admin/user/delete', { id: member.id }, { token: customer.token })).toMatchObject({ code: 0, data: { id: member.id } });
    expect((await t.post('/api/admin/user/list', {}, { token: customer.token })).data.total).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await signIn(member.email, member.password)).code).toBe(40101);
    expect((await t.post('/api/admin/user/delete', { id: member.id }, { token: customer.token })).code).toBe(40400);
  });

  it('When the input is bad, then each field says what is wrong and no member is made', async () => {
    const customer = await signUpCustomer(t);
    const reply = await t.post('/api/admin/user/create', { email: 'nope', password: 'short', status: 'sleeping' }, { token: customer.token });
    expect(reply).toMatchObject({
      status: 400,
      code: 40000,
      errors: {
        email: { message: 'validation.invalid_email' },
        password: { message: 'validation.too_short' },
        status: { message: 'validation.invalid_choice' },
      },
    });
    expect((await t.post('/api/admin/user/create', {}, { token: customer.token })).errors).toMatchObject({
      email: { message: 'validation.required' },
      password: { message: 'validation.required' },
    });
    expect((await t.post('/api/admin/user/list', {}, { token: customer.token })).data.total).toBe(0);
  });
});

describe('e-mail addresses are unique across every account', () => {
  it('When a member would take a customer\'s, another member\'s or an operator-made address, then the field says validation.taken', async () => {
    const customer = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const member = await teamMemberOf(t, other);
    for (const email of [other.email, customer.email, member.email]) {
      expect(await t.post('/api/admin/user/create', { email, password: 'member-pass-1' }, { token: customer.token })).toMatchObject({
        status: 400,
        code: 40000,
        errors: { email: { message: 'validation.taken' } },
      });
    }
    const mine = await teamMemberOf(t, customer);
    expect(await t.post('/api/admin/user/update', { id: mine.id, email: other.email }, { token: customer.token })).toMatchObject({
      code: 40000,
      errors: { email: { message: 'validation.taken' } },
    });
    // Keeping one's own address is no conflict.
    expect((await t.post('/api/admin/user/update', { id: mine.id, email: mine.email }, { token: customer.token })).code).toBe(0);
  });

  it('When an operator creates a customer with a member\'s address, then it is taken too', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect(await t.post('/api/manage/user/create', { email: member.email, password: 'customer-pass-1' }, { token: operator })).toMatchObject({
      code: 40000,
      errors: { email: { message: 'validation.taken' } },
    });
  });
});

describe('a member signs in for the customer', () => {
  it('When a member signs in, then they are verified, not the owner, and act for the customer', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const info = await t.post('/api/admin/me/info', {}, { token: member.token });
    expect(info).toMatchObject({ code: 0, data: { id: member.id, email: member.email, owner_id: customer.id, is_owner: 0, is_verified: 1 } });

    // What a member changes is part of the customer's record.
    await t.post('/api/admin/me/update_username', { username: 'Member Renamed' }, { token: member.token });
    const log = await t.post('/api/admin/log/list', { filter: { action: 'update_username' } }, { token: customer.token });
    expect(log.data.list).toHaveLength(1);
    expect(log.data.list[0]).toMatchObject({ actor_type: 'team_member', actor_id: member.id, actor_name: member.email, user_id: customer.id, target_id: member.id });
  });

  it('When a member tries to manage members, then it is forbidden', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const forbidden = { status: 403, code: 40300, message: 'error.forbidden' };
    expect(await t.post('/api/admin/user/list', {}, { token: member.token })).toMatchObject(forbidden);
    expect(await t.get('/api/admin/user/get', { id: member.id }, { token: member.token })).toMatchObject(forbidden);
    expect(await t.post('/api/admin/user/create', { email: uniqueEmail(), password: 'member-pass-1' }, { token: member.token })).toMatchObject(forbidden);
    expect(await t.post('/api/admin/user/update', { id: member.id, status: 'active' }, { token: member.token })).toMatchObject(forbidden);
    expect(await t.post('/api/admin/user/delete', { id: member.id }, { token: member.token })).toMatchObject(forbidden);
    expect((await t.post('/api/admin/user/list', {}, { token: customer.token })).data.total).toBe(1);
  });
});

describe('disabled accounts', () => {
  it('When a customer disables a member, then the member\'s sessions end and sign-in is refused; enabling lets them in again', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect(await t.post('/api/admin/user/update', { id: member.id, status: 'disabled' }, { token: customer.token })).toMatchObject({
      code: 0,
      data: { status: 'disabled' },
    });
    expect(await t.post('/api/admin/me/info', {}, { token: member.token })).toMatchObject({ status: 401, code: 20000 });
    expect(await signIn(member.email, member.password)).toMatchObject({ status: 403, code: 40300, message: 'error.account_disabled' });
    // The customer's own session is untouched.
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(0);

    await t.post('/api/admin/user/update', { id: member.id, status: 'active' }, { token: customer.token });
    expect((await signIn(member.email, member.password)).code).toBe(0);
  });

  it('When an operator disables the customer, then the members\' sessions end and they cannot sign in', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect((await t.post('/api/manage/user/update', { id: customer.id, status: 'disabled' }, { token: operator })).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(20000);
    expect(await signIn(member.email, member.password)).toMatchObject({ code: 40300, message: 'error.account_disabled' });

    // Enabling the customer again does not bring old sessions back, but new sign-ins work.
    await t.post('/api/manage/user/update', { id: customer.id, status: 'active' }, { token: operator });
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await signIn(member.email, member.password)).code).toBe(0);
  });

  it('When an operator deletes the customer, then the members go with it', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect((await t.post('/api/manage/user/delete', { id: customer.id }, { token: operator })).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await signIn(member.email, member.password)).code).toBe(40101);
  });
});
