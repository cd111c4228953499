/** Operators manage customers: /api/manage/user/*, and the dashboard's figures /api/manage/index/stat. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, someIp, teamMemberOf, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
let root: string;
const staff: Record<'support' | 'billing', string> = { support: '', billing: '' };
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
  for (const role of ['support', 'billing'] as const) {
    await t.post('/api/manage/admin/create', { username: `${role}-one`, password: 'operator-pass-1', role }, { token: root });
    staff[role] = await operatorLogin(t, `${role}-one`, 'operator-pass-1');
  }
});
afterAll(() => t.close());

const MiB = 1024 ** 2;
const TiB = 1024 ** 4;
const signIn = (email: string, password: string) => t.post('/api/admin/login/login', { email, password }, { ip: someIp() });

describe('creating customers', () => {
  it('When an operator creates a customer with a password, then the customer can sign in with it', async () => {
    const email = uniqueEmail();
    const created = await t.post('/api/manage/user/create', { email, password: 'made-by-operator', username: 'Carol', is_verified: true, storage_max: 2 * MiB }, { token: root });
    expect(created).toMatchObject({
      status: 200,
      code: 0,
      data: { email, username: 'Carol', is_verified: 1, status: 'active', storage_max: 2 * MiB, points: 0 },
    });
    expect(created.data).not.toHaveProperty('password');
    expect(created.data).not.toHaveProperty('password_hash');
    expect(await signIn(email, 'made-by-operator')).toMatchObject({ code: 0, data: { id: created.data.id, is_verified: 1 } });
    expect(await t.get('/api/manage/user/get', { id: created.data.id }, { token: root })).toMatchObject({ code: 0, data: { email, storage_max: 2 * MiB } });
  });

  it('When a customer an operator made (in Chinese) asks for a code on an English screen, then it comes in English, and verifying keeps English for their mail', async () => {
    const email = uniqueEmail('made');
    const created = await t.post('/api/manage/user/create', { email, password: 'made-by-operator', locale: 'zh' }, { token: root });
    expect(created).toMatchObject({ code: 0, data: { is_verified: 0, locale: 'zh' } });
    // Nothing was e-mailed by the operator's creation: the verify page must not say a code was.
    expect((await t.outbox()).filter((m) => m.to === email)).toEqual([]);

    expect((await t.post('/api/admin/login/send_code', { email, purpose: 'verify' }, { ip: someIp(), locale: 'en' })).code).toBe(0);
    const mail = (await t.outbox()).filter((m) => m.to === email).at(-1)!;
    expect(mail.subject).toMatch(/^Your Maildesk verification code: \d{6}$/);
    const code = /\b(\d{6})\b/.exec(mail.subject)![1];
    expect((await t.post('/api/admin/login/verify', { email, code }, { ip: someIp(), locale: 'en' })).code).toBe(0);
    expect(await t.get('/api/manage/user/get', { id: created.data.id }, { token: root })).toMatchObject({ data: { is_verified: 1, locale: 'en' } });

    // Their next code, asked for on a Chinese screen, comes in Chinese: the screen's language.
    await t.post('/api/admin/login/send_code', { email, purpose: 'login' }, { ip: someIp(), locale: 'zh' });
    expect((await t.outbox()).filter((m) => m.to === email).at(-1)!.subject).toMatch(/^Maildesk 登录验证码：\d{6}$/);
  });

  it('When nothing but e-mail and password is given, then the defaults apply: unverified, active, 1 GiB', async () => {
    const email = uniqueEmail();
    const created = await t.post('/api/manage/user/create', { email, password: 'made-by-operator' }, { token: staff.support });
    expect(created).toMatchObject({ code: 0, data: { email, is_verified: 0, status: 'active', storage_max: 1024 ** 3 } });
    // Unverified: signs in, but may not use the customer area yet.
    const session = await signIn(email, 'made-by-operator');
    expect((await t.post('/api/admin/user/list', {}, { token: session.data.token })).code).toBe(40100);
  });

  it('When the address is taken (any case), then the field says validation.taken and no customer is made', async () => {
    const existing = await signUpCustomer(t);
    const before = (await t.post('/api/manage/user/list', {}, { token: root })).data.total;
    expect(await t.post('/api/manage/user/create', { email: existing.email.toUpperCase(), password: 'made-by-operator' }, { token: root })).toMatchObject({
      status: 400,
      code: 40000,
      errors: { email: { message: 'validation.taken' } },
    });
    expect((await t.post('/api/manage/user/list', {}, { token: root })).data.total).toBe(before);
  });

  it('When storage_max is out of bounds or the input is bad, then each field says what is wrong', async () => {
    expect(await t.post('/api/manage/user/create', { email: uniqueEmail(), password: 'made-by-operator', storage_max: MiB - 1 }, { token: root })).toMatchObject({
      code: 40000,
      errors: { storage_max: { message: 'validation.size_too_small', params: { min: MiB, min_text: '1 MiB' } } },
    });
    expect(await t.post('/api/manage/user/create', { email: uniqueEmail(), password: 'made-by-operator', storage_max: TiB + 1 }, { token: root })).toMatchObject({
      code: 40000,
      errors: { storage_max: { message: 'validation.size_too_big', params: { max: TiB, max_text: '1 TiB' } } },
    });
    expect(await t.post('/api/manage/user/create', { email: 'x', password: 'short', status: 'gone', locale: 'fr' }, { token: root })).toMatchObject({
      code: 40000,
      errors: {
        email: { message: 'validation.invalid_email' },
        password: { message: 'validation.too_short' },
        status: { message: 'validation.invalid_choice' },
        locale: { message: 'validation.invalid_choice' },
      },
    });
  });
});

describe('updating customers', () => {
  it('When an operator marks a customer verified and changes storage_max, then the customer sees it', async () => {
    const email = uniqueEmail();
    await t.post('/api/admin/login/register', { email, password: 'customer-pass-1' }, { ip: someIp() });
    const session = await signIn(email, 'customer-pass-1');
    expect(session.data.is_verified).toBe(0);
    const id = session.data.id;

    expect(await t.post('/api/manage/user/update', { id, is_verified: 1, storage_max: 10 * MiB }, { token: staff.support })).toMatchObject({
      code: 0,
      data: { id, is_verified: 1, storage_max: 10 * MiB },
    });
    expect(await t.post('/api/admin/me/info', {}, { token: session.data.token })).toMatchObject({ code: 0, data: { is_verified: 1, storage_max: 10 * MiB } });
    expect((await t.post('/api/admin/user/list', {}, { token: session.data.token })).code).toBe(0);

    expect(await t.post('/api/manage/user/update', { id, storage_max: 0 }, { token: root })).toMatchObject({ code: 40000, errors: { storage_max: { message: 'validation.size_too_small' } } });
    expect((await t.get('/api/manage/user/get', { id }, { token: root })).data.storage_max).toBe(10 * MiB);
  });

  it('When an operator disables a customer, then their sessions end and sign-in says error.account_disabled', async () => {
    const customer = await signUpCustomer(t);
    expect(await t.post('/api/manage/user/update', { id: customer.id, status: 'disabled' }, { token: root })).toMatchObject({ code: 0, data: { status: 'disabled' } });
    expect(await t.post('/api/admin/me/info', {}, { token: customer.token })).toMatchObject({ status: 401, code: 20000 });
    expect(await signIn(customer.email, customer.password)).toMatchObject({ status: 403, code: 40300, message: 'error.account_disabled' });
    // A wrong password still says only that: a disabled account is not revealed to a guesser.
    expect(await signIn(customer.email, 'wrong-password')).toMatchObject({ code: 40101 });
    // Nor can the customer get a code to sign in with.
    const outboxBefore = (await t.outbox()).filter((m) => m.to === customer.email).length;
    expect((await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' }, { ip: someIp() })).code).toBe(0);
    expect((await t.outbox()).filter((m) => m.to === customer.email)).toHaveLength(outboxBefore);

    expect((await t.post('/api/manage/user/update', { id: customer.id, status: 'active' }, { token: root })).code).toBe(0);
    expect((await signIn(customer.email, customer.password)).code).toBe(0);
  });

  it('When an operator sets a customer\'s password, then the customer\'s sessions end and only the new one signs in', async () => {
    const customer = await signUpCustomer(t);
    expect((await t.post('/api/manage/user/update', { id: customer.id, password: 'set-by-support-1' }, { token: staff.support })).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(20000);
    expect((await signIn(customer.email, customer.password)).code).toBe(40101);
    expect((await signIn(customer.email, 'set-by-support-1')).code).toBe(0);
  });

  it('When the e-mail would become another account\'s, then it is taken', async () => {
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    expect(await t.post('/api/manage/user/update', { id: a.id, email: b.email }, { token: root })).toMatchObject({ code: 40000, errors: { email: { message: 'validation.taken' } } });
    expect((await t.get('/api/manage/user/get', { id: a.id }, { token: root })).data.email).toBe(a.email);
  });

  it('When the record is a team member or does not exist, then the customer calls do not find it', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect(await t.get('/api/manage/user/get', { id: member.id }, { token: root })).toMatchObject({ status: 404, code: 40400 });
    expect((await t.post('/api/manage/user/update', { id: member.id, status: 'disabled' }, { token: root })).code).toBe(40400);
    expect((await t.post('/api/manage/user/delete', { id: 999_999 }, { token: root })).code).toBe(40400);
    const list = await t.post('/api/manage/user/list', { page_size: 100 }, { token: root });
    expect(list.data.list.map((c: { id: number }) => c.id)).not.toContain(member.id);
  });
});

describe('deleting customers', () => {
  it('When a superadmin deletes a customer, then it is gone and cannot sign in', async () => {
    const customer = await signUpCustomer(t);
    expect(await t.post('/api/manage/user/delete', { id: customer.id }, { token: root })).toMatchObject({ code: 0, data: { id: customer.id } });
    expect((await t.get('/api/manage/user/get', { id: customer.id }, { token: root })).code).toBe(40400);
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(20000);
    expect((await signIn(customer.email, customer.password)).code).toBe(40101);
  });
});

describe('roles', () => {
  it('When support manages customers, then it may list, read, create and update but not delete', async () => {
    const customer = await signUpCustomer(t);
    const token = staff.support;
    expect((await t.post('/api/manage/user/list', {}, { token })).code).toBe(0);
    expect((await t.get('/api/manage/user/get', { id: customer.id }, { token })).code).toBe(0);
    expect((await t.post('/api/manage/user/update', { id: customer.id, username: 'By Support' }, { token })).code).toBe(0);
    expect(await t.post('/api/manage/user/delete', { id: customer.id }, { token })).toMatchObject({ status: 403, code: 40300, message: 'error.forbidden' });
    expect((await t.get('/api/manage/user/get', { id: customer.id }, { token })).data.username).toBe('By Support');
  });

  it('When billing manages customers, then it may only list and read', async () => {
    const customer = await signUpCustomer(t);
    const token = staff.billing;
    expect((await t.post('/api/manage/user/list', {}, { token })).code).toBe(0);
    expect((await t.get('/api/manage/user/get', { id: customer.id }, { token })).code).toBe(0);
    const forbidden = { status: 403, code: 40300, message: 'error.forbidden' };
    expect(await t.post('/api/manage/user/create', { email: uniqueEmail(), password: 'made-by-billing' }, { token })).toMatchObject(forbidden);
    expect(await t.post('/api/manage/user/update', { id: customer.id, status: 'disabled' }, { token })).toMatchObject(forbidden);
    expect(await t.post('/api/manage/user/delete', { id: customer.id }, { token })).toMatchObject(forbidden);
    expect((await t.get('/api/manage/user/get', { id: customer.id }, { token })).data.status).toBe('active');
  });
});

describe('dashboard figures', () => {
  it('When customers register and verify, then index/stat counts them', async () => {
    const stat = async () => (await t.post('/api/manage/index/stat', {}, { token: staff.billing })).data;
    // The same figures as the lists show them.
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const total = async (reply: Promise<{ data: { total: number } }>) => (await reply).data.total;
    const customers = (filter: Record<string, unknown> = {}) => total(t.post('/api/manage/user/list', { filter }, { token: root }));
    const guestMessages = (filter: Record<string, unknown> = {}) => total(t.get('/api/manage/guest_message/list', { filter }, { token: root }));
    const mails = (status: string) => total(t.get('/api/manage/email_send_log/list', { filter: { status, created_at_gte: weekAgo } }, { token: root }));
    const before = await stat();
    expect(before).toMatchObject({
      customers: { total: await customers(), verified: await customers({ is_verified: 1 }), new_7d: await customers({ created_at_gte: weekAgo }) },
      guest_messages: { total: await guestMessages(), new_7d: await guestMessages({ created_at_gte: weekAgo }) },
      mail_7d: { pending: await mails('pending'), sent: await mails('sent'), failed: 0 },
    });
    expect(before.customers.total).toBeGreaterThan(0);

    const email = uniqueEmail();
    await t.post('/api/admin/login/register', { email, password: 'customer-pass-1' }, { ip: someIp() });
    await t.outbox();
    const registered = await stat();
    expect(registered.customers).toEqual({ total: before.customers.total + 1, verified: before.customers.verified, new_7d: before.customers.new_7d + 1 });
    expect(registered.mail_7d.sent).toBe(before.mail_7d.sent + 1);

    await t.post('/api/admin/login/verify', { email, code: await t.lastCode(email) }, { ip: someIp() });
    expect((await stat()).customers.verified).toBe(before.customers.verified + 1);

    // Team members are not customers.
    const customer = await signUpCustomer(t);
    const withCustomer = await stat();
    await teamMemberOf(t, customer);
    expect((await stat()).customers.total).toBe(withCustomer.customers.total);

    await t.post('/api/message/send', { name: 'Guest', email: uniqueEmail('guest'), content: 'Hello' }, { ip: someIp() });
    expect((await stat()).guest_messages).toEqual({ total: before.guest_messages.total + 1, new_7d: before.guest_messages.new_7d + 1 });
  });
});
