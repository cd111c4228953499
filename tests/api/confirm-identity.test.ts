/**
 * Issue 33 (3.5): a session alone no longer turns TOTP off, renews recovery codes or makes an API
 * key — the person gives their password or a current code again (`confirmation`), and wrong ones
 * are throttled like wrong passwords; a password change may also revoke the person's API keys.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signInPolicy } from '../../server/core/rate-limit.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer, someIp } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';
import { enrolTotp, nextStep, totpCode, type Area } from '../helpers/second-factor.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(() => t.resetClock());
afterAll(() => t.close());

const info = async (area: Area, token: string) => (await t.get(`/api/${area}/second_factor/info`, {}, { token })).data;
const bearer = (key: string) => ({ token: '', headers: { authorization: `Bearer ${key}` } });
const refusedFor = (message: string) => ({ status: 400, code: 40000, message: 'error.validation', errors: { confirmation: { message } } });

describe('turning TOTP off and renewing recovery codes', () => {
  for (const area of ['admin', 'manage', 'mail'] as const) {
    it(`When a session in /api/${area} turns TOTP off without the password, or with a wrong one, then it is refused on the confirmation field and TOTP stays on; with the password it is off`, async () => {
      const person =
        area === 'admin' ? await signUpCustomer(t) : area === 'manage' ? await operatorWithRole(t, 'support') : await mailboxOwner(t);
      await enrolTotp(t, area, person.token);
      const url = `/api/${area}/second_factor/totp_disable`;
      expect(await t.post(url, {}, { token: person.token })).toMatchObject(refusedFor('validation.confirmation_required'));
      expect(await t.post(url, { confirmation: '' }, { token: person.token })).toMatchObject(refusedFor('validation.confirmation_required'));
      expect(await t.post(url, { confirmation: 'not-the-password' }, { token: person.token })).toMatchObject(refusedFor('validation.confirmation_wrong'));
      expect(await t.post(url, { confirmation: '000000' }, { token: person.token })).toMatchObject(refusedFor('validation.confirmation_wrong'));
      expect(await info(area, person.token)).toMatchObject({ totp: true, recovery_codes_left: 10 });
      expect(await t.post(url, { confirmation: person.password }, { token: person.token })).toMatchObject({ code: 0, data: { totp: false, recovery_codes_left: 0 } });
    });
  }

  it('When TOTP is turned off with the current code from the app instead of the password, then it is off; the same code again is refused', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    await nextStep(t);
    const code = totpCode(secret);
    expect(await t.post('/api/admin/second_factor/totp_disable', { confirmation: code }, { token: customer.token })).toMatchObject({ code: 0, data: { totp: false } });
    // On again: the code just used does not confirm a second time.
    const again = await enrolTotp(t, 'admin', customer.token);
    expect(again.secret).not.toBe(secret);
  });

  it('When recovery codes are renewed without the password, then the old codes still work and no new ones are answered; with a current code, ten new ones replace them', async () => {
    const customer = await signUpCustomer(t);
    const { secret, recoveryCodes } = await enrolTotp(t, 'admin', customer.token);
    const url = '/api/admin/second_factor/recovery_codes';
    const refused = await t.post(url, {}, { token: customer.token });
    expect(refused).toMatchObject(refusedFor('validation.confirmation_required'));
    expect(refused.data).toBeFalsy();
    expect(await t.post(url, { confirmation: 'customer-pass-2' }, { token: customer.token })).toMatchObject(refusedFor('validation.confirmation_wrong'));
    expect(await info('admin', customer.token)).toMatchObject({ recovery_codes_left: 10 });
    const hashes = async () => (await t.services.db.selectFrom('recovery_code').select('code_hash').where('holder_kind', '=', 'customer').where('holder_id', '=', customer.id).orderBy('code_hash').execute()).map((r) => r.code_hash);
    const before = await hashes();
    await nextStep(t);
    const renewed = await t.post(url, { confirmation: totpCode(secret) }, { token: customer.token });
    expect(renewed.code).toBe(0);
    expect(renewed.data.recovery_codes).toHaveLength(10);
    expect(renewed.data.recovery_codes).not.toContain(recoveryCodes[0]);
    expect(await hashes()).not.toEqual(before);
  });

  it('When a stolen session guesses the password to confirm, then wrong answers are throttled like sign-ins: three are answered, after the fourth even the right password waits (42900)', async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    const url = '/api/admin/second_factor/totp_disable';
    const ip = someIp();
    for (let i = 1; i <= signInPolicy.freeFailuresPerSource; i++) {
      expect(await t.post(url, { confirmation: `guess-${i}` }, { token: customer.token, ip })).toMatchObject(refusedFor('validation.confirmation_wrong'));
    }
    // At the limit (three wrong) the next answer is still checked…
    expect(await t.post(url, { confirmation: 'guess-4' }, { token: customer.token, ip })).toMatchObject(refusedFor('validation.confirmation_wrong'));
    // …one past it, this address waits, right password or not, and nothing changes.
    const waiting = await t.post(url, { confirmation: customer.password }, { token: customer.token, ip });
    expect(waiting).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited', params: { retry_after: expect.any(Number) } });
    expect(await info('admin', customer.token)).toMatchObject({ totp: true });
    // The sign-in page from that address waits too: the same throttle.
    expect(await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip })).toMatchObject({ code: 42900 });
    // The wait is a second (the counters keep real time), then the right password is taken.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await t.post(url, { confirmation: customer.password }, { token: customer.token, ip })).toMatchObject({ code: 0, data: { totp: false } });
  });
});

describe('making an API key', () => {
  it('When a session makes an API key without the password, or with a wrong one, then no key is made; with the password it is made', async () => {
    const customer = await signUpCustomer(t);
    const input = { name: 'Script', access: 'write' };
    expect(await t.post('/api/admin/api_key/create', input, { token: customer.token })).toMatchObject(refusedFor('validation.confirmation_required'));
    expect(await t.post('/api/admin/api_key/create', { ...input, confirmation: 'wrong-password' }, { token: customer.token })).toMatchObject(refusedFor('validation.confirmation_wrong'));
    expect((await t.get('/api/admin/api_key/list', {}, { token: customer.token })).data.total).toBe(0);
    const made = await t.post('/api/admin/api_key/create', { ...input, confirmation: customer.password }, { token: customer.token });
    expect(made).toMatchObject({ code: 0, data: { name: 'Script', key: expect.stringMatching(/^mdk_/) } });
    expect((await t.get('/api/admin/api_key/list', {}, { token: customer.token })).data.total).toBe(1);
  });

  it('When an operator makes a key, then the same confirmation is needed', async () => {
    const op = await operatorWithRole(t, 'support');
    expect(await t.post('/api/manage/api_key/create', { name: 'Script', access: 'read' }, { token: op.token })).toMatchObject(refusedFor('validation.confirmation_required'));
    expect((await t.post('/api/manage/api_key/create', { name: 'Script', access: 'read', confirmation: op.password }, { token: op.token })).code).toBe(0);
  });
});

describe('a password change may revoke the API keys', () => {
  it('When a customer changes the password and asks for it, then their API keys stop at once and the log says how many; without asking, keys go on working', async () => {
    const customer = await signUpCustomer(t);
    const key = (await t.post('/api/admin/api_key/create', { name: 'Script', access: 'read', confirmation: customer.password }, { token: customer.token })).data.key;
    expect((await t.post('/api/admin/me/info', {}, bearer(key))).code).toBe(0);

    expect((await t.post('/api/admin/me/update_password', { old_password: customer.password, password: 'second-pass-2' }, { token: customer.token })).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, bearer(key))).code).toBe(0);

    expect(await t.post('/api/admin/me/update_password', { old_password: 'second-pass-2', password: 'third-pass-3', revoke_api_keys: 'yes' }, { token: customer.token })).toMatchObject({
      code: 40000,
      errors: { revoke_api_keys: expect.anything() },
    });
    expect((await t.post('/api/admin/me/info', {}, bearer(key))).code).toBe(0);

    expect((await t.post('/api/admin/me/update_password', { old_password: 'second-pass-2', password: 'third-pass-3', revoke_api_keys: true }, { token: customer.token })).code).toBe(0);
    expect(await t.post('/api/admin/me/info', {}, bearer(key))).toMatchObject({ code: 20000, message: 'error.api_key' });
    expect((await t.get('/api/admin/api_key/list', {}, { token: customer.token })).data.total).toBe(0);
    const logged = await t.services.db.selectFrom('log').select('after').where('action', '=', 'update_password').where('target_id', '=', customer.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(String(logged.after))).toEqual({ api_keys_revoked: 1 });
  });

  it("When an operator changes the password and asks for it, then the operator's keys stop, and another operator's keep working", async () => {
    const op = await operatorWithRole(t, 'support');
    const other = await operatorWithRole(t, 'support');
    const mine = (await t.post('/api/manage/api_key/create', { name: 'Mine', access: 'read', confirmation: op.password }, { token: op.token })).data.key;
    const theirs = (await t.post('/api/manage/api_key/create', { name: 'Theirs', access: 'read', confirmation: other.password }, { token: other.token })).data.key;
    expect((await t.post('/api/manage/me/update_password', { old_password: op.password, password: 'operator-pass-2', revoke_api_keys: true }, { token: op.token })).code).toBe(0);
    expect(await t.post('/api/manage/me/info', {}, bearer(mine))).toMatchObject({ code: 20000 });
    expect((await t.post('/api/manage/me/info', {}, bearer(theirs))).code).toBe(0);
  });
});
