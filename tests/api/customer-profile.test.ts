/** The signed-in customer's own account: /api/admin/me/*. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, someIp, teamMemberOf, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const MiB = 1024 ** 2;
const TiB = 1024 ** 4;

describe('me/info', () => {
  it('When a customer asks for their account, then they get its fields and no secret', async () => {
    const customer = await signUpCustomer(t);
    const info = await t.post('/api/admin/me/info', {}, { token: customer.token });
    expect(info).toMatchObject({
      status: 200,
      code: 0,
      data: { id: customer.id, email: customer.email, is_verified: 1, is_owner: 1, owner_id: null, status: 'active', points: 0, storage_max: 1024 ** 3, locale: 'en' },
    });
    expect(info.data.username).toBe(customer.email.split('@')[0]);
    expect(info.data.last_login_at).toEqual(expect.any(String));
    expect(Object.keys(info.data)).not.toContain('password_hash');
    expect(Object.keys(info.data)).not.toContain('password');
  });

  it('When there is no session, then me/info answers 20000', async () => {
    expect(await t.post('/api/admin/me/info', {})).toMatchObject({ status: 401, code: 20000, message: 'error.session' });
    expect(await t.post('/api/admin/me/info', {}, { token: 'not-a-token' })).toMatchObject({ status: 401, code: 20000 });
  });
});

describe('update_username', () => {
  it('When a customer changes their name, then me/info shows it', async () => {
    const customer = await signUpCustomer(t);
    const reply = await t.post('/api/admin/me/update_username', { username: '  Ada Lovelace ' }, { token: customer.token });
    expect(reply).toMatchObject({ status: 200, code: 0, data: { username: 'Ada Lovelace' } });
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.username).toBe('Ada Lovelace');
  });

  it('When the name is empty or too long, then the field says so and nothing changes', async () => {
    const customer = await signUpCustomer(t);
    const before = (await t.post('/api/admin/me/info', {}, { token: customer.token })).data.username;
    expect(await t.post('/api/admin/me/update_username', { username: '   ' }, { token: customer.token })).toMatchObject({
      status: 400,
      code: 40000,
      errors: { username: { message: 'validation.required' } },
    });
    expect(await t.post('/api/admin/me/update_username', { username: 'x'.repeat(65) }, { token: customer.token })).toMatchObject({
      code: 40000,
      errors: { username: { message: 'validation.too_long', params: { max: 64 } } },
    });
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.username).toBe(before);
  });
});

describe('update_password', () => {
  it('When the old password is wrong, then the field says so and the password stays', async () => {
    const customer = await signUpCustomer(t);
    const reply = await t.post('/api/admin/me/update_password', { old_password: 'not-my-password', password: 'new-password-1' }, { token: customer.token });
    expect(reply).toMatchObject({ status: 400, code: 40000, message: 'error.validation', errors: { old_password: { message: 'validation.wrong_password' } } });
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip: someIp() })).code).toBe(0);
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: 'new-password-1' }, { ip: someIp() })).code).toBe(40101);
  });

  it('When the new password is too short, then the field says so', async () => {
    const customer = await signUpCustomer(t);
    expect(await t.post('/api/admin/me/update_password', { old_password: customer.password, password: 'short' }, { token: customer.token })).toMatchObject({
      code: 40000,
      errors: { password: { message: 'validation.too_short', params: { min: 8 } } },
    });
  });

  it('When the password is changed, then other sessions end, the current one stays, and only the new password signs in', async () => {
    const customer = await signUpCustomer(t);
    const other = await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip: someIp() });
    expect(other.code).toBe(0);

    const reply = await t.post('/api/admin/me/update_password', { old_password: customer.password, password: 'new-password-1' }, { token: customer.token });
    expect(reply).toMatchObject({ status: 200, code: 0, data: { email: customer.email } });

    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(0);
    expect(await t.post('/api/admin/me/info', {}, { token: other.data.token })).toMatchObject({ status: 401, code: 20000 });
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip: someIp() })).code).toBe(40101);
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: 'new-password-1' }, { ip: someIp() })).code).toBe(0);
  });
});

describe('update_email', () => {
  it('When a customer asks to change their address, then the code goes to the new address only', async () => {
    const customer = await signUpCustomer(t);
    const newEmail = uniqueEmail('new');
    const before = (await t.outbox()).filter((m) => m.to === customer.email).length;
    const reply = await t.post('/api/admin/me/update_email', { email: newEmail }, { token: customer.token });
    expect(reply).toMatchObject({ status: 200, code: 0, data: { pending: true, email: newEmail } });
    const outbox = await t.outbox();
    const toNew = outbox.filter((m) => m.to === newEmail);
    expect(toNew).toHaveLength(1);
    expect(toNew[0].subject).toMatch(/^Confirm your new Maildesk e-mail address: \d{6}$/);
    expect(outbox.filter((m) => m.to === customer.email)).toHaveLength(before);
    // Nothing changes until the code is confirmed.
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.email).toBe(customer.email);
  });

  it('When the new address is confirmed with its code, then the address changes and signs in, and the old one does not', async () => {
    const customer = await signUpCustomer(t);
    const newEmail = uniqueEmail('new');
    await t.post('/api/admin/me/update_email', { email: newEmail }, { token: customer.token });
    const confirmed = await t.post('/api/admin/me/update_email', { email: newEmail, code: await t.lastCode(newEmail) }, { token: customer.token });
    expect(confirmed).toMatchObject({ status: 200, code: 0, data: { email: newEmail, is_verified: 1 } });
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.email).toBe(newEmail);
    expect(await t.post('/api/admin/login/login', { email: newEmail, password: customer.password }, { ip: someIp() })).toMatchObject({
      code: 0,
      data: { id: customer.id, email: newEmail },
    });
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip: someIp() })).code).toBe(40101);
  });

  it('When the new address already has an account, then the answer is the same but no code is sent', async () => {
    const customer = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const mailToOther = (await t.outbox()).filter((m) => m.to === other.email).length;
    const free = await t.post('/api/admin/me/update_email', { email: uniqueEmail('free') }, { token: customer.token });
    const taken = await t.post('/api/admin/me/update_email', { email: other.email }, { token: customer.token });
    expect(taken).toMatchObject({ status: free.status, code: free.code, message: free.message, data: { pending: true, email: other.email } });
    expect((await t.outbox()).filter((m) => m.to === other.email)).toHaveLength(mailToOther);
  });

  it('When the code is wrong, or was sent for another address, then the address stays', async () => {
    const customer = await signUpCustomer(t);
    const newEmail = uniqueEmail('new');
    await t.post('/api/admin/me/update_email', { email: newEmail }, { token: customer.token });
    const code = await t.lastCode(newEmail);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await t.post('/api/admin/me/update_email', { email: newEmail, code: wrong }, { token: customer.token })).toMatchObject({
      status: 400,
      code: 40102,
      message: 'error.bad_code',
    });
    expect((await t.post('/api/admin/me/update_email', { email: uniqueEmail('elsewhere'), code }, { token: customer.token })).code).toBe(40102);
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.email).toBe(customer.email);
  });

  it('When the new address is taken by someone else before the code is confirmed, then the change is refused', async () => {
    const customer = await signUpCustomer(t);
    const newEmail = uniqueEmail('race');
    await t.post('/api/admin/me/update_email', { email: newEmail }, { token: customer.token });
    const code = await t.lastCode(newEmail);
    await signUpCustomer(t, newEmail);
    expect(await t.post('/api/admin/me/update_email', { email: newEmail, code }, { token: customer.token })).toMatchObject({ code: 40102, message: 'error.bad_code' });
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.email).toBe(customer.email);
  });

  it('When the code is older than 10 minutes, then it is refused', async () => {
    const customer = await signUpCustomer(t);
    const newEmail = uniqueEmail('late');
    await t.post('/api/admin/me/update_email', { email: newEmail }, { token: customer.token });
    const code = await t.lastCode(newEmail);
    const realNow = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(realNow + 11 * 60_000);
    try {
      expect(await t.post('/api/admin/me/update_email', { email: newEmail, code }, { token: customer.token })).toMatchObject({ code: 40102, message: 'error.bad_code' });
    } finally {
      clock.mockRestore();
    }
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.email).toBe(customer.email);
  });

  it('When the address is the current one or not an address, then the field says so', async () => {
    const customer = await signUpCustomer(t);
    expect(await t.post('/api/admin/me/update_email', { email: customer.email.toUpperCase() }, { token: customer.token })).toMatchObject({
      code: 40000,
      errors: { email: { message: 'validation.same_email' } },
    });
    expect(await t.post('/api/admin/me/update_email', { email: 'nope' }, { token: customer.token })).toMatchObject({
      code: 40000,
      errors: { email: { message: 'validation.invalid_email' } },
    });
    expect(await t.post('/api/admin/me/update_email', { email: uniqueEmail(), code: '12' }, { token: customer.token })).toMatchObject({
      code: 40000,
      errors: { code: { message: 'validation.code_format' } },
    });
  });
});

describe('update_storage_max', () => {
  it('When the customer sets a value in bounds, then me/info shows it', async () => {
    const customer = await signUpCustomer(t);
    for (const value of [MiB, 5 * 1024 ** 3, TiB]) {
      expect(await t.post('/api/admin/me/update_storage_max', { storage_max: value }, { token: customer.token })).toMatchObject({
        code: 0,
        data: { storage_max: value },
      });
    }
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.storage_max).toBe(TiB);
  });

  it('When the value is out of bounds or not a whole number, then it is refused and nothing changes', async () => {
    const customer = await signUpCustomer(t);
    expect(await t.post('/api/admin/me/update_storage_max', { storage_max: MiB - 1 }, { token: customer.token })).toMatchObject({
      status: 400,
      code: 40000,
      errors: { storage_max: { message: 'validation.size_too_small', params: { min: MiB, min_text: '1 MiB' } } },
    });
    expect(await t.post('/api/admin/me/update_storage_max', { storage_max: TiB + 1 }, { token: customer.token })).toMatchObject({
      code: 40000,
      errors: { storage_max: { message: 'validation.size_too_big', params: { max: TiB, max_text: '1 TiB' } } },
    });
    expect((await t.post('/api/admin/me/update_storage_max', { storage_max: MiB + 0.5 }, { token: customer.token })).code).toBe(40000);
    expect((await t.post('/api/admin/me/update_storage_max', {}, { token: customer.token })).errors).toMatchObject({ storage_max: { message: 'validation.required' } });
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.storage_max).toBe(1024 ** 3);
  });

  it('When a team member tries, then it is forbidden and the customer\'s value stays', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect(await t.post('/api/admin/me/update_storage_max', { storage_max: 2 * MiB }, { token: member.token })).toMatchObject({
      status: 403,
      code: 40300,
      message: 'error.forbidden',
    });
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.storage_max).toBe(1024 ** 3);
  });
});
