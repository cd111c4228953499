import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, someIp, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('registration and verification', () => {
  it('When a visitor registers, then a code is mailed, and verifying it signs them in as verified', async () => {
    const email = uniqueEmail();
    const registered = await t.post('/api/admin/login/register', { email, password: 'a-good-password' });
    expect(registered).toMatchObject({ status: 200, code: 0, data: { email } });

    const mail = (await t.outbox()).filter((m) => m.to === email);
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toMatch(/verification code: \d{6}/);

    const before = await t.post('/api/admin/login/login', { email, password: 'a-good-password' });
    expect(before.data).toMatchObject({ email, is_verified: 0 });
    const blocked = await t.post('/api/admin/user/list', {}, { token: before.data.token });
    expect(blocked).toMatchObject({ status: 403, code: 40100, message: 'error.not_verified' });

    const verified = await t.post('/api/admin/login/verify', { email, code: await t.lastCode(email) });
    expect(verified).toMatchObject({ code: 0, data: { email, is_verified: 1 } });
    expect(verified.data.token).toMatch(/^[\w-]{40,}$/);
    const info = await t.post('/api/admin/me/info', {}, { token: verified.data.token });
    expect(info.data).toMatchObject({ email, is_verified: 1, is_owner: 1 });
  });

  it('When an address already has an account, then register answers the same and the owner gets a notice, not a code', async () => {
    const customer = await signUpCustomer(t);
    const again = await t.post('/api/admin/login/register', { email: customer.email, password: 'another-password' });
    expect(again).toMatchObject({ status: 200, code: 0, data: { email: customer.email } });
    const last = (await t.outbox()).filter((m) => m.to === customer.email).at(-1)!;
    expect(last.subject).toBe('Someone tried to register with your address');
    // The old password still works: registering again changed nothing.
    const login = await t.post('/api/admin/login/login', { email: customer.email, password: customer.password });
    expect(login.code).toBe(0);
  });

  it('When the input is bad, then each field says what is wrong and no account is made', async () => {
    const reply = await t.post('/api/admin/login/register', { email: 'not-an-address', password: 'short' });
    expect(reply).toMatchObject({
      status: 400,
      code: 40000,
      message: 'error.validation',
      errors: { email: { message: 'validation.invalid_email' }, password: { message: 'validation.too_short', params: { min: 8 } } },
    });
    const missing = await t.post('/api/admin/login/register', {});
    expect(missing.errors).toMatchObject({ email: { message: 'validation.required' }, password: { message: 'validation.required' } });
  });

  it('When a code is wrong five times, then even the right code is refused', async () => {
    const email = uniqueEmail();
    const ip = someIp();
    await t.post('/api/admin/login/register', { email, password: 'a-good-password' }, { ip });
    const code = await t.lastCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await t.post('/api/admin/login/verify', { email, code: wrong }, { ip })).code).toBe(40102);
    }
    expect(await t.post('/api/admin/login/verify', { email, code }, { ip })).toMatchObject({ code: 40102, message: 'error.bad_code' });
    // A new code works again.
    await t.post('/api/admin/login/send_code', { email, purpose: 'verify' }, { ip });
    expect((await t.post('/api/admin/login/verify', { email, code: await t.lastCode(email) }, { ip })).code).toBe(0);
  });

  it('When a code is used once, then it cannot be used again', async () => {
    const customer = await signUpCustomer(t);
    await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' });
    const code = await t.lastCode(customer.email);
    expect((await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code })).code).toBe(0);
    expect((await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code })).code).toBe(40102);
  });
});

describe('codes: one at a time, and not too often', () => {
  it('When a new sign-in code is mailed, then the older one no longer works', async () => {
    const customer = await signUpCustomer(t);
    const ip = someIp();
    await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' }, { ip });
    const older = await t.lastCode(customer.email);
    let newer = older;
    // Ask again until the new code differs (one in a million it does not).
    while (newer === older) {
      await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' }, { ip });
      newer = await t.lastCode(customer.email);
    }
    expect(await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code: older }, { ip })).toMatchObject({ code: 40102 });
    expect((await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code: newer }, { ip })).code).toBe(0);
  });

  it('When codes are asked for an address too often, then the sixth within the hour (the first came with registering) is refused (42900) and no more mail goes out', async () => {
    const customer = await signUpCustomer(t);
    const before = (await t.outbox()).filter((m) => m.to === customer.email).length;
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' }, { ip: someIp() })).code);
    expect(codes).toEqual([0, 0, 0, 0, 42900]);
    expect((await t.outbox()).filter((m) => m.to === customer.email).length).toBe(before + 4);
  });

  it('When codes are checked for an address too often, even from many addresses, then the eleventh within the window (the first was the sign-up\'s) is refused (42900) before it is checked', async () => {
    const customer = await signUpCustomer(t);
    await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' }, { ip: someIp() });
    const right = await t.lastCode(customer.email);
    const codes: number[] = [];
    for (let i = 0; i < 9; i++) {
      const wrong = String(100000 + i) === right ? '999999' : String(100000 + i);
      codes.push((await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code: wrong }, { ip: someIp() })).code);
    }
    expect(codes.every((c) => c === 40102)).toBe(true);
    expect((await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code: right }, { ip: someIp() })).code).toBe(42900);
  });
});

describe('sign-in', () => {
  it('When the password is wrong or the address unknown, then the answer is the same and the attempt is logged', async () => {
    const customer = await signUpCustomer(t);
    const wrongPassword = await t.post('/api/admin/login/login', { email: customer.email, password: 'wrong-password' });
    const unknown = await t.post('/api/admin/login/login', { email: uniqueEmail('nobody'), password: 'wrong-password' });
    expect(wrongPassword).toMatchObject({ status: 401, code: 40101, message: 'error.bad_credentials' });
    expect(unknown).toMatchObject({ status: wrongPassword.status, code: wrongPassword.code, message: wrongPassword.message });

    const log = await t.post('/api/admin/log/list', { filter: { action: 'login_failed' } }, { token: customer.token });
    expect(log.data.total).toBe(1);
    expect(log.data.list[0]).toMatchObject({ action: 'login_failed', actor_type: 'anonymous', after: { email: customer.email, method: 'password' } });
  });

  it('When one address keeps failing for an account, then that address waits, even with the right password; the owner gets in from theirs', async () => {
    const customer = await signUpCustomer(t);
    const attacker = someIp();
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await t.post('/api/admin/login/login', { email: customer.email, password: 'wrong-password' }, { ip: attacker }));
    expect(replies.slice(0, 4).map((r) => r.code)).toEqual([40101, 40101, 40101, 40101]);
    expect(replies[4]).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited' });
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip: attacker })).code).toBe(42900);
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip: someIp() })).code).toBe(0);
  });

  it('When one IP tries many addresses, then it is limited too', async () => {
    const ip = someIp();
    let last;
    for (let i = 0; i < 51; i++) last = await t.post('/api/admin/login/login', { email: uniqueEmail('spray'), password: 'whatever-1' }, { ip });
    expect(last).toMatchObject({ code: 42900 });
  });

  it('When a customer logs out, then the token no longer works (code 20000)', async () => {
    const customer = await signUpCustomer(t);
    expect((await t.post('/api/admin/login/logout', {}, { token: customer.token })).code).toBe(0);
    expect(await t.post('/api/admin/me/info', {}, { token: customer.token })).toMatchObject({ status: 401, code: 20000, message: 'error.session' });
  });

  it('When a customer token is sent to the operator area, then it is not a session there', async () => {
    const customer = await signUpCustomer(t);
    expect((await t.post('/api/manage/user/list', {}, { token: customer.token })).code).toBe(20000);
  });
});

describe('password recovery', () => {
  it('When a reset is asked for, then any address gets the same answer, and only a real account gets mail', async () => {
    const customer = await signUpCustomer(t);
    const nobody = uniqueEmail('nobody');
    const a = await t.post('/api/admin/login/forgot_password_send_email', { email: customer.email });
    const b = await t.post('/api/admin/login/forgot_password_send_email', { email: nobody });
    expect(a).toMatchObject({ code: 0 });
    expect(b).toMatchObject({ code: 0 });
    const outbox = await t.outbox();
    expect(outbox.filter((m) => m.to === nobody)).toHaveLength(0);
    expect(outbox.filter((m) => m.to === customer.email).at(-1)!.subject).toBe('Reset your Maildesk password');
  });

  it('When the password is reset with the code, then every session ends and only the new password works', async () => {
    const customer = await signUpCustomer(t);
    await t.post('/api/admin/login/forgot_password_send_email', { email: customer.email });
    const reset = await t.post('/api/admin/login/forgot_password', { email: customer.email, code: await t.lastCode(customer.email), password: 'brand-new-pass' });
    expect(reset.code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(20000);
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: customer.password })).code).toBe(40101);
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: 'brand-new-pass' })).code).toBe(0);
  });
});

describe('language of e-mails', () => {
  it('When a visitor registers in Chinese and later chooses English, then the mail follows their choice', async () => {
    const email = uniqueEmail('locale');
    await t.post('/api/admin/login/register', { email, password: 'a-good-password' }, { locale: 'zh' });
    const first = (await t.outbox()).filter((m) => m.to === email).at(-1)!;
    expect(first.subject).toMatch(/^Maildesk 验证码：\d{6}$/);
    expect(first.text).toContain('您的验证码是');

    const session = await t.post('/api/admin/login/verify', { email, code: await t.lastCode(email) });
    const switched = await t.post('/api/admin/me/update_locale', { locale: 'en' }, { token: session.data.token });
    expect(switched.data).toMatchObject({ locale: 'en' });
    await t.post('/api/admin/login/forgot_password_send_email', { email });
    expect((await t.outbox()).filter((m) => m.to === email).at(-1)!.subject).toBe('Reset your Maildesk password');

    const bad = await t.post('/api/admin/me/update_locale', { locale: 'fr' }, { token: session.data.token });
    expect(bad).toMatchObject({ code: 40000, errors: { locale: { message: 'validation.invalid_choice' } } });
  });
});

describe('codes stay with their owner', () => {
  it('When a code is mailed, then the send log that operators read shows the subject without the code', async () => {
    const email = uniqueEmail('masked');
    await t.post('/api/admin/login/register', { email, password: 'a-good-password' });
    const code = await t.lastCode(email);
    const signedIn = await t.post('/api/manage/login/login', { username: 'root', password: 'root-password-1' });
    expect(signedIn, JSON.stringify(signedIn)).toMatchObject({ code: 0 });
    const { token } = signedIn.data;
    const log = await t.get('/api/manage/email_send_log/list', { filter: { recipient: email } }, { token });
    expect(log.data.list).toHaveLength(1);
    expect(log.data.list[0].subject).toBe('Your Maildesk verification code: ••••••');
    expect(JSON.stringify(log.data)).not.toContain(code);
  });

  it('When the owner signs in often with the right password, then that does not use up the attempts', async () => {
    const customer = await signUpCustomer(t);
    for (let i = 0; i < 12; i++) {
      expect((await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip: someIp() })).code).toBe(0);
    }
  });
});
