/**
 * Passkeys over the API, with a software authenticator standing in for the device (the browser
 * tests use Chromium's virtual one): several per person, named, removable; as the second step
 * after a password; and to sign in without a password, in the person's own area only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/authenticator.js';
import { operatorWithRole, signUpCustomer, someIp } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';
import { addPasskey, passwordStep } from '../helpers/second-factor.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const device = () => new SoftAuthenticator('http://maildesk.test');

/** Signs in with a passkey alone: options without a pending sign-in, then the device's answer. */
async function passkeySignIn(area: 'admin' | 'manage' | 'mail', holder: SoftAuthenticator, userVerified = true) {
  const options = await t.post(`/api/${area}/login/passkey_options`, {}, { ip: someIp() });
  expect(options).toMatchObject({ code: 0, data: { challenge_token: expect.any(String), options: { rpId: 'maildesk.test', userVerification: 'required', allowCredentials: [] } } });
  return t.post(`/api/${area}/login/passkey`, { challenge_token: options.data.challenge_token, response: holder.get(options.data.options, userVerified) }, { ip: someIp() });
}

describe('passkeys', () => {
  it('When a customer adds two named passkeys, then both are listed, either signs in without a password, and a removed one no longer does', async () => {
    const customer = await signUpCustomer(t);
    const laptop = device();
    const phone = device();
    const first = await addPasskey(t, 'admin', customer.token, laptop, 'Laptop');
    await addPasskey(t, 'admin', customer.token, phone, 'Phone');
    const info = await t.get('/api/admin/second_factor/info', {}, { token: customer.token });
    expect(info.data.passkeys).toMatchObject([{ name: 'Laptop', last_used_at: null }, { name: 'Phone' }]);
    // Neither key material nor credential ids are answered.
    expect(Object.keys(info.data.passkeys[0]).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name']);

    const signedIn = await passkeySignIn('admin', laptop);
    expect(signedIn).toMatchObject({ code: 0, data: { id: customer.id, email: customer.email, token: expect.any(String) } });
    expect((await passkeySignIn('admin', phone)).code).toBe(0);

    const removed = await t.post('/api/admin/second_factor/passkey_delete', { id: first.id }, { token: customer.token });
    expect(removed.data.passkeys).toMatchObject([{ name: 'Phone' }]);
    expect(await passkeySignIn('admin', laptop)).toMatchObject({ code: 40102, message: 'error.passkey_failed' });
    const log = await t.post('/api/admin/log/list', { sort: 'id', order: 'asc', page_size: 100 }, { token: customer.token });
    const actions = log.data.list.map((e: { action: string }) => e.action);
    expect(actions.filter((a: string) => a.startsWith('passkey'))).toEqual(['passkey_add', 'passkey_add', 'passkey_remove']);
    expect(log.data.list.filter((e: { action: string }) => e.action === 'login').at(-1).after).toMatchObject({ method: 'passkey', second_factor: 'passkey' });
  });

  it('When a passkey signs in without a password, then user verification is required, and a challenge works once', async () => {
    const customer = await signUpCustomer(t);
    const laptop = device();
    await addPasskey(t, 'admin', customer.token, laptop);
    expect((await passkeySignIn('admin', laptop, false)).code).toBe(40102);

    const options = await t.post('/api/admin/login/passkey_options', {});
    const answer = laptop.get(options.data.options);
    expect((await t.post('/api/admin/login/passkey', { challenge_token: options.data.challenge_token, response: answer })).code).toBe(0);
    const replayed = await t.post('/api/admin/login/passkey', { challenge_token: options.data.challenge_token, response: answer });
    expect(replayed).toMatchObject({ code: 40102, message: 'error.passkey_challenge_expired' });
  });

  it("When a customer's passkey is offered to the operators' or the mail area, then it is refused there", async () => {
    const customer = await signUpCustomer(t);
    const laptop = device();
    await addPasskey(t, 'admin', customer.token, laptop);
    expect((await passkeySignIn('manage', laptop)).code).toBe(40102);
    expect((await passkeySignIn('mail', laptop)).code).toBe(40102);
  });

  it('When a person with a passkey signs in with the password, then the passkey is the second step, and only their own passkey counts', async () => {
    const operator = await operatorWithRole(t, 'support');
    const key = device();
    await addPasskey(t, 'manage', operator.token, key, 'Security key');
    const other = await operatorWithRole(t, 'billing');
    const otherKey = device();
    await addPasskey(t, 'manage', other.token, otherKey);

    const first = await passwordStep(t, 'manage', operator.username, operator.password);
    expect(first).toMatchObject({ code: 40103, params: { methods: ['passkey'] } });
    const token = first.params!.token as string;
    const options = await t.post('/api/manage/login/passkey_options', { token });
    expect(options.data.options.allowCredentials).toHaveLength(1);
    // Another operator's passkey does not finish this sign-in.
    const othersOptions = await t.post('/api/manage/login/passkey_options', {});
    const wrong = await t.post('/api/manage/login/passkey', { token, challenge_token: othersOptions.data.challenge_token, response: otherKey.get(othersOptions.data.options) });
    expect(wrong).toMatchObject({ code: 40102, message: 'error.passkey_failed' });
    const right = await t.post('/api/manage/login/passkey', { token, challenge_token: options.data.challenge_token, response: key.get(options.data.options) });
    expect(right).toMatchObject({ code: 0, data: { id: operator.id, username: operator.username, role: 'support', token: expect.any(String) } });
    // A code is no way in for someone who has only a passkey.
    const again = await passwordStep(t, 'manage', operator.username, operator.password);
    expect((await t.post('/api/manage/login/second_factor', { token: again.params!.token, code: '123456' })).code).toBe(40102);
  });

  it('When a mailbox owner adds a passkey, then it signs in to /mail without a password', async () => {
    const box = await mailboxOwner(t);
    const phone = device();
    await addPasskey(t, 'mail', box.token, phone, 'Phone');
    const signedIn = await passkeySignIn('mail', phone);
    expect(signedIn).toMatchObject({ code: 0, data: { id: box.id, email: box.address, token: expect.any(String) } });
    expect((await t.get('/api/mail/me/info', {}, { token: signedIn.data.token })).code).toBe(0);
  });

  it('When a person has twenty passkeys, then the twentieth was added and a twenty-first is refused; one removed, another can be added', async () => {
    const customer = await signUpCustomer(t);
    const added = [];
    for (let i = 1; i <= 20; i++) added.push(await addPasskey(t, 'admin', customer.token, device(), `Key ${i}`));
    expect(await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token })).toMatchObject({ status: 409, code: 40900, message: 'error.passkey_limit', params: { limit: 20 } });
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data.passkeys).toHaveLength(20);
    expect((await t.post('/api/admin/second_factor/passkey_delete', { id: added[0].id }, { token: customer.token })).code).toBe(0);
    await addPasskey(t, 'admin', customer.token, device(), 'Key 21');
  });

  it("When a passkey is added with a challenge token already used, or with another person's, then it is refused and nothing is added", async () => {
    const customer = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const add = (token: string, options: { data: { challenge_token: string; options: Parameters<SoftAuthenticator['create']>[0] } }) =>
      t.post('/api/admin/second_factor/passkey_add', { challenge_token: options.data.challenge_token, name: 'Key', response: device().create(options.data.options) }, { token });
    const mine = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    expect((await add(customer.token, mine)).code).toBe(0);
    expect(await add(customer.token, mine)).toMatchObject({ code: 40102, message: 'error.passkey_challenge_expired' });
    const theirs = await t.post('/api/admin/second_factor/passkey_options', {}, { token: other.token });
    expect(await add(customer.token, theirs)).toMatchObject({ code: 40102, message: 'error.passkey_challenge_expired' });
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data.passkeys).toHaveLength(1);
    // Theirs is still theirs to use.
    expect((await add(other.token, theirs)).code).toBe(0);
  });

  it('When a made-up answer or the same device twice is offered, then a clear 4xxxx error comes back', async () => {
    const customer = await signUpCustomer(t);
    const laptop = device();
    const options = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    const bad = await t.post('/api/admin/second_factor/passkey_add', { challenge_token: options.data.challenge_token, name: 'X', response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'e30' } } }, { token: customer.token });
    expect(bad).toMatchObject({ code: 40102, message: 'error.passkey_failed' });
    const noName = await t.post('/api/admin/second_factor/passkey_add', { challenge_token: 'x', name: '', response: {} }, { token: customer.token });
    expect(noName.code).toBe(40000);
    await addPasskey(t, 'admin', customer.token, laptop);
    const twice = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    expect(twice.data.options.excludeCredentials).toHaveLength(1);
  });
});
