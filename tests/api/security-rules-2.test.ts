/**
 * The rules of server/security at their edges, continued (security-rules.test.ts has the codes):
 * passkeys (what the browser is asked, user verification with and without a password, one
 * challenge one use, the same device twice), a person deleted mid-sign-in, housekeeping to the
 * millisecond, who is told when a second factor is being guessed, and secrets sealed at start.
 */
import crypto from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { loadConfig } from '../../server/config.js';
import { startMaildesk } from '../../server/start.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/authenticator.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';
import { addPasskey, enrolTotp, passwordStep, totpCode, type Area } from '../helpers/second-factor.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(() => {
  vi.useRealTimers();
  t.resetClock();
});
afterAll(() => t.close());

const device = () => new SoftAuthenticator('http://maildesk.test');
const pending = async (area: Area, login: string, password: string) => {
  const first = await passwordStep(t, area, login, password);
  expect(first.code).toBe(40103);
  return first.params!.token as string;
};
/** Housekeeping moves the clock a day on, which ends idle sessions: the operator signs in when needed. */
const rootToken = () => operatorLogin(t);
const logOf = async (filter: Record<string, unknown>) => (await t.post('/api/manage/log/list', { filter, sort: 'id', order: 'asc', page_size: 100 }, { token: await rootToken() })).data.list;
const b64json = (value: string) => JSON.parse(Buffer.from(isoBase64URL.toBuffer(value)).toString('utf8'));
type Created = ReturnType<SoftAuthenticator['create']>;

/** A registration answer for another challenge: with "none" attestation nothing signs the client data, so one device's credential can be offered again. */
function forChallenge(created: Created, challenge: string): Created {
  const clientData = { ...b64json(created.response.clientDataJSON), challenge };
  return { ...created, response: { ...created.response, clientDataJSON: isoBase64URL.fromBuffer(new Uint8Array(Buffer.from(JSON.stringify(clientData)))) } };
}
/** A security key without PIN or biometrics: the same answer with the user-verified flag off. */
function unverified(created: Created): Created {
  const attestation = isoCBOR.decodeFirst<Map<string, unknown>>(isoBase64URL.toBuffer(created.response.attestationObject));
  const authData = new Uint8Array(attestation.get('authData') as Uint8Array);
  authData[32] &= ~0x04;
  attestation.set('authData', authData);
  return { ...created, response: { ...created.response, attestationObject: isoBase64URL.fromBuffer(isoCBOR.encode(attestation as never)) } };
}

describe('adding passkeys', () => {
  it('When a passkey is added, then the browser is asked for a discoverable key of this site, none it holds already, and the answer names the new passkey', async () => {
    const customer = await signUpCustomer(t);
    const options = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    expect(options).toMatchObject({
      code: 0,
      data: {
        challenge_token: expect.any(String),
        options: { rp: { id: 'maildesk.test', name: 'Maildesk' }, user: { name: customer.email, displayName: customer.email }, attestation: 'none', excludeCredentials: [], authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' } },
      },
    });
    const laptop = device();
    const created = laptop.create(options.data.options);
    const added = await t.post('/api/admin/second_factor/passkey_add', { challenge_token: options.data.challenge_token, name: 'Laptop', response: created }, { token: customer.token });
    expect(added).toMatchObject({ code: 0, data: { id: expect.any(Number), name: 'Laptop', created_at: expect.any(String), last_used_at: null } });
    const info = await t.get('/api/admin/second_factor/info', {}, { token: customer.token });
    expect(info.data.passkeys).toEqual([{ id: added.data.id, name: 'Laptop', created_at: added.data.created_at, last_used_at: null }]);

    const again = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    expect(again.data.options.excludeCredentials).toEqual([{ id: created.id, type: 'public-key', transports: ['internal'] }]);
    // The same device offered again (the browser ignored the exclusion): refused, in both languages.
    const twice = await t.post('/api/admin/second_factor/passkey_add', { challenge_token: again.data.challenge_token, name: 'Twice', response: forChallenge(created, again.data.options.challenge) }, { token: customer.token });
    expect(twice).toMatchObject({ status: 409, code: 40900, message: 'error.passkey_exists' });
    expect(messageText('en', twice.message)).toBe('This passkey has already been added.');
    expect(messageText('zh', twice.message)).toBe('该通行密钥已经添加过了。');
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data.passkeys).toHaveLength(1);
  });

  it('When a security key without PIN or biometrics is added, then it is taken: user verification is only preferred when adding one', async () => {
    const customer = await signUpCustomer(t);
    const options = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    const added = await t.post('/api/admin/second_factor/passkey_add', { challenge_token: options.data.challenge_token, name: 'Key', response: unverified(device().create(options.data.options)) }, { token: customer.token });
    expect(added).toMatchObject({ code: 0, data: { name: 'Key' } });
  });

  it('When the answer is not shaped like a WebAuthn answer, then it is refused as input; a long but well-formed one is checked and fails', async () => {
    const customer = await signUpCustomer(t);
    const options = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    const add = (response: unknown) => t.post('/api/admin/second_factor/passkey_add', { challenge_token: options.data.challenge_token, name: 'Key', response }, { token: customer.token });
    const good = { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'e30' } };
    const malformed: [unknown, string][] = [
      [{ ...good, id: '' }, 'response.id'],
      [{ ...good, id: 'x'.repeat(2049) }, 'response.id'],
      [{ ...good, rawId: undefined }, 'response.rawId'],
      [{ ...good, type: 'password' }, 'response.type'],
      [{ ...good, response: {} }, 'response.response.clientDataJSON'],
      [{ ...good, response: { clientDataJSON: '' } }, 'response.response.clientDataJSON'],
    ];
    for (const [response, field] of malformed) {
      const answer = await add(response);
      expect(answer, JSON.stringify(response).slice(0, 80)).toMatchObject({ status: 400, code: 40000 });
      expect(Object.keys(answer.errors!)).toEqual([field]);
    }
    expect(await add({ ...good, id: 'x'.repeat(2048), extra: true })).toMatchObject({ status: 400, code: 40102, message: 'error.passkey_failed' });
  });

  it('When four devices answer one challenge at the same time, then one passkey is added and the others are told the request has expired', async () => {
    const customer = await signUpCustomer(t);
    const options = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    const add = (name: string) => t.post('/api/admin/second_factor/passkey_add', { challenge_token: options.data.challenge_token, name, response: device().create(options.data.options) }, { token: customer.token });
    const answers = await Promise.all(['One', 'Two', 'Three', 'Four'].map(add));
    expect(answers.map((a) => a.code).sort()).toEqual([0, 40102, 40102, 40102]);
    for (const refused of answers.filter((a) => a.code !== 0)) expect(refused.message).toBe('error.passkey_challenge_expired');
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data.passkeys).toHaveLength(1);
    // Another person's challenge is not this person's to answer.
    const other = await signUpCustomer(t);
    const theirs = await t.post('/api/admin/second_factor/passkey_options', {}, { token: other.token });
    expect(await t.post('/api/admin/second_factor/passkey_add', { challenge_token: theirs.data.challenge_token, name: 'Theirs', response: device().create(theirs.data.options) }, { token: customer.token })).toMatchObject({
      code: 40102,
      message: 'error.passkey_challenge_expired',
    });
  });

  it('When someone has 20 passkeys, then the options for a 21st are refused with the limit, in both languages', async () => {
    const customer = await signUpCustomer(t);
    // Nineteen stored as a device leaves them (only the twentieth needs a real answer).
    const at = new Date().toISOString();
    await t.services.db
      .insertInto('passkey')
      .values(Array.from({ length: 19 }, (_, i) => ({ holder_kind: 'customer' as const, holder_id: customer.id, name: `Key ${i + 1}`, credential_id: isoBase64URL.fromBuffer(new Uint8Array(crypto.randomBytes(16))), public_key: 'unused', counter: 0, transports: '["usb"]', created_at: at, last_used_at: null })))
      .execute();
    const twentieth = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    expect(twentieth.data.options.excludeCredentials).toHaveLength(19);
    await addPasskey(t, 'admin', customer.token, device(), 'Key 20');
    const refused = await t.post('/api/admin/second_factor/passkey_options', {}, { token: customer.token });
    expect(refused).toMatchObject({ status: 409, code: 40900, message: 'error.passkey_limit', params: { limit: 20 } });
    expect(messageText('en', refused.message, refused.params)).toBe('This account has as many passkeys as one may have (20). Remove one you no longer use first.');
    expect(messageText('zh', refused.message, refused.params)).toBe('每个账户最多可有 20 个通行密钥。请先删除一个不再使用的。');
  });
});

describe('passkeys at sign-in', () => {
  it('When a passkey is the second step, then only that person\'s passkeys are asked for, a key without user verification is enough, and its last use is shown', async () => {
    const customer = await signUpCustomer(t);
    const key = device();
    const added = await addPasskey(t, 'admin', customer.token, key);
    const token = await pending('admin', customer.email, customer.password);
    const options = await t.post('/api/admin/login/passkey_options', { token }, { ip: someIp() });
    expect(options.data.options).toMatchObject({ rpId: 'maildesk.test', userVerification: 'preferred', allowCredentials: [{ id: isoBase64URL.fromBuffer(new Uint8Array(key.credentials[0].id)), type: 'public-key', transports: ['internal'] }] });
    const signedIn = await t.post('/api/admin/login/passkey', { token, challenge_token: options.data.challenge_token, response: key.get(options.data.options, false) }, { ip: someIp() });
    expect(signedIn).toMatchObject({ code: 0, data: { id: customer.id, token: expect.any(String) } });
    const info = await t.get('/api/admin/second_factor/info', {}, { token: signedIn.data.token });
    expect(info.data.passkeys).toEqual([expect.objectContaining({ id: added.id, last_used_at: expect.any(String) })]);
    const login = (await logOf({ action: 'login', target_type: 'user', target_id: customer.id })).at(-1);
    expect(login.after).toMatchObject({ method: 'password', second_factor: 'passkey' });
  });

  it('When a passkey signs in without a password, then it must verify the user; the log says passkey; a challenge answered three times at once signs in once', async () => {
    const customer = await signUpCustomer(t);
    const key = device();
    await addPasskey(t, 'admin', customer.token, key);
    const options = async () => (await t.post('/api/admin/login/passkey_options', {}, { ip: someIp() })).data;
    const first = await options();
    expect(first.options).toMatchObject({ userVerification: 'required', allowCredentials: [] });
    expect(await t.post('/api/admin/login/passkey', { challenge_token: first.challenge_token, response: key.get(first.options, false) }, { ip: someIp() })).toMatchObject({ code: 40102, message: 'error.passkey_failed' });

    const second = await options();
    const answer = { challenge_token: second.challenge_token, response: key.get(second.options) };
    const both = await Promise.all([1, 2, 3].map(() => t.post('/api/admin/login/passkey', answer, { ip: someIp() })));
    expect(both.map((a) => a.code).sort()).toEqual([0, 40102, 40102]);
    expect(both.find((a) => a.code === 0)).toMatchObject({ data: { id: customer.id, email: customer.email } });
    const login = (await logOf({ action: 'login', target_type: 'user', target_id: customer.id })).at(-1);
    expect(login.after).toMatchObject({ method: 'passkey', second_factor: 'passkey' });
  });

  it('When a customer must enrol at sign-in and chooses a passkey, then the answer is the session, the log says so, and the passkey is asked for next time', async () => {
    const customer = await signUpCustomer(t);
    await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token: customer.token });
    const first = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(first).toMatchObject({ code: 40103, message: 'error.second_factor_enrol', params: { enrol: true } });
    const token = first.params!.token as string;
    const options = await t.post('/api/admin/login/enrol_passkey_options', { token }, { ip: someIp() });
    expect(options.data.options).toMatchObject({ rp: { id: 'maildesk.test' }, user: { name: customer.email } });
    const phone = device();
    const done = await t.post('/api/admin/login/enrol_passkey', { token, challenge_token: options.data.challenge_token, name: 'Phone', response: phone.create(options.data.options) }, { ip: someIp() });
    expect(done).toMatchObject({ code: 0, data: { id: customer.id, email: customer.email, token: expect.any(String) } });
    expect((await t.get('/api/admin/second_factor/info', {}, { token: done.data.token })).data).toMatchObject({ totp: false, passkeys: [{ name: 'Phone' }], required: true });
    expect(await logOf({ action: 'passkey_add', target_type: 'user', target_id: customer.id })).toEqual([
      expect.objectContaining({ actor_type: 'customer', actor_id: customer.id, user_id: customer.id, after: { email: customer.email, name: 'Phone', at_sign_in: true } }),
    ]);
    expect((await logOf({ action: 'login', target_type: 'user', target_id: customer.id })).at(-1).after).toMatchObject({ method: 'password', second_factor: 'passkey' });
    expect(await passwordStep(t, 'admin', customer.email, customer.password)).toMatchObject({ code: 40103, params: { enrol: false, methods: ['passkey'] } });
  });

  it("When a second step's challenge is answered by another person's passkey, then it fails, is logged as a failed passkey, and their passkey is not marked used", async () => {
    const operator = await operatorWithRole(t, 'support');
    const other = await operatorWithRole(t, 'support');
    await addPasskey(t, 'manage', operator.token, device());
    const otherKey = device();
    await addPasskey(t, 'manage', other.token, otherKey);
    const token = await pending('manage', operator.username, operator.password);
    const options = await t.post('/api/manage/login/passkey_options', { token }, { ip: someIp() });
    const answer = otherKey.get({ ...options.data.options, allowCredentials: [] });
    expect(await t.post('/api/manage/login/passkey', { token, challenge_token: options.data.challenge_token, response: answer }, { ip: someIp() })).toMatchObject({ code: 40102, message: 'error.passkey_failed' });
    expect((await t.get('/api/manage/second_factor/info', {}, { token: other.token })).data.passkeys).toEqual([expect.objectContaining({ last_used_at: null })]);
    expect((await logOf({ action: 'second_factor_failed', target_type: 'operator', target_id: operator.id }))[0]).toMatchObject({ after: { username: operator.username, method: 'passkey' } });
  });

  it('When someone has an app and a passkey, then all three ways are offered; with the app turned off, only the passkey, and an old recovery code is nothing', async () => {
    const customer = await signUpCustomer(t);
    const { recoveryCodes } = await enrolTotp(t, 'admin', customer.token);
    await addPasskey(t, 'admin', customer.token, device());
    expect(await passwordStep(t, 'admin', customer.email, customer.password)).toMatchObject({ code: 40103, message: 'error.second_factor_needed', params: { enrol: false, methods: ['totp', 'recovery_code', 'passkey'] } });
    await t.post('/api/admin/second_factor/totp_disable', { confirmation: customer.password }, { token: customer.token, ip: someIp() });
    const first = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(first).toMatchObject({ code: 40103, params: { methods: ['passkey'] } });
    expect(await t.post('/api/admin/login/second_factor', { token: first.params!.token, code: recoveryCodes[0] }, { ip: someIp() })).toMatchObject({ code: 40102, message: 'error.bad_second_factor_code' });
  });

  it('When someone without a passkey asks for second-step passkey options, then there is none; a passkey that is not theirs is not found for removal', async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    const token = await pending('admin', customer.email, customer.password);
    const none = await t.post('/api/admin/login/passkey_options', { token }, { ip: someIp() });
    expect(none).toMatchObject({ status: 400, code: 40102, message: 'error.no_passkey' });
    expect(messageText('zh', none.message)).toBe('此账户没有通行密钥。请使用身份验证器应用中的验证码或恢复码。');
    const other = await signUpCustomer(t);
    const theirs = await addPasskey(t, 'admin', other.token, device());
    expect(await t.post('/api/admin/second_factor/passkey_delete', { id: theirs.id }, { token: customer.token })).toMatchObject({ status: 404, code: 40400 });
    expect((await t.get('/api/admin/second_factor/info', {}, { token: other.token })).data.passkeys).toHaveLength(1);
  });
});

describe('a pending sign-in answered twice at once', () => {
  it('When two recovery codes are sent at the same moment for one pending sign-in, then one session is made and the other is told the sign-in is over', async () => {
    const customer = await signUpCustomer(t);
    const { recoveryCodes } = await enrolTotp(t, 'admin', customer.token);
    const token = await pending('admin', customer.email, customer.password);
    const both = await Promise.all(recoveryCodes.slice(0, 2).map((code) => t.post('/api/admin/login/second_factor', { token, code }, { ip: someIp() })));
    expect(both.map((a) => a.code).sort()).toEqual([0, 40102]);
    expect(both.find((a) => a.code !== 0)).toMatchObject({ message: 'error.second_factor_expired' });
  });
});

describe('a person deleted during their sign-in', () => {
  it('When the login, the operator or the mailbox is deleted between the password and the code, then a wrong code is a wrong code and the right one finds the sign-in over', async () => {
    const customer = await signUpCustomer(t);
    const operator = await operatorWithRole(t, 'support');
    const box = await mailboxOwner(t);
    const people = [
      { area: 'admin' as const, login: customer.email, password: customer.password, secret: (await enrolTotp(t, 'admin', customer.token)).secret, remove: async () => t.post('/api/manage/user/delete', { id: customer.id }, { token: await rootToken() }) },
      { area: 'manage' as const, login: operator.username, password: operator.password, secret: (await enrolTotp(t, 'manage', operator.token)).secret, remove: async () => t.post('/api/manage/admin/delete', { id: operator.id }, { token: await rootToken() }) },
      { area: 'mail' as const, login: box.address, password: box.password, secret: (await enrolTotp(t, 'mail', box.token)).secret, remove: () => t.post('/api/admin/email/delete', { id: box.id }, { token: box.customer.token }) },
    ];
    await t.moveClock(30_000);
    for (const person of people) {
      const token = await pending(person.area, person.login, person.password);
      expect((await person.remove()).code, person.area).toBe(0);
      expect(await t.post(`/api/${person.area}/login/second_factor`, { token, code: '000000' }, { ip: someIp() }), person.area).toMatchObject({ code: 40102, message: 'error.bad_second_factor_code' });
      expect(await t.post(`/api/${person.area}/login/second_factor`, { token, code: totpCode(person.secret) }, { ip: someIp() }), person.area).toMatchObject({ code: 40102, message: 'error.second_factor_expired' });
    }
  });
});

describe('housekeeping', () => {
  const challengesOf = async (id: number) =>
    (await t.services.db.selectFrom('second_factor_challenge').select(['used_at']).where('holder_kind', '=', 'customer').where('holder_id', '=', id).where('purpose', '=', 'sign_in').execute()).map((r) => (r.used_at ? 'used' : 'unused')).sort();

  it('When a pending sign-in expires unused, then it goes at its expiry to the millisecond; a used one stays a day past its expiry', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    vi.useFakeTimers({ toFake: ['Date'], now: (Math.floor(Date.now() / 30_000) + 1) * 30_000 + 1000 });
    await pending('admin', customer.email, customer.password);
    expect((await t.post('/api/admin/login/second_factor', { token: await pending('admin', customer.email, customer.password), code: totpCode(secret) }, { ip: someIp() })).code).toBe(0);
    const sweep = () => t.services.jobs.runSchedule('housekeeping');
    await t.moveClock(5 * 60_000 - 1);
    await sweep();
    expect(await challengesOf(customer.id)).toEqual(['unused', 'used']);
    await t.moveClock(1);
    await sweep();
    expect(await challengesOf(customer.id)).toEqual(['used']);
    await t.moveClock(24 * 3_600_000 - 1);
    await sweep();
    expect(await challengesOf(customer.id)).toEqual(['used']);
    await t.moveClock(1);
    await sweep();
    expect(await challengesOf(customer.id)).toEqual([]);
  });

  it("When a login, an operator and a mailbox are deleted, then housekeeping removes their apps, recovery codes and passkeys, and nobody else's", async () => {
    const customer = await signUpCustomer(t);
    const operator = await operatorWithRole(t, 'support');
    const box = await mailboxOwner(t);
    const kept = await signUpCustomer(t);
    const holders = [
      { kind: 'customer', id: customer.id, token: customer.token, area: 'admin' },
      { kind: 'operator', id: operator.id, token: operator.token, area: 'manage' },
      { kind: 'mailbox', id: box.id, token: box.token, area: 'mail' },
      { kind: 'customer', id: kept.id, token: kept.token, area: 'admin' },
    ] as const;
    for (const h of holders) {
      await enrolTotp(t, h.area, h.token);
      await addPasskey(t, h.area, h.token, device());
    }
    expect((await t.post('/api/manage/user/delete', { id: customer.id }, { token: await rootToken() })).code).toBe(0);
    expect((await t.post('/api/manage/admin/delete', { id: operator.id }, { token: await rootToken() })).code).toBe(0);
    expect((await t.post('/api/admin/email/delete', { id: box.id }, { token: box.customer.token })).code).toBe(0);
    await t.services.jobs.runSchedule('housekeeping');
    const left = async (h: (typeof holders)[number]) =>
      Promise.all(
        (['totp', 'recovery_code', 'passkey'] as const).map(async (table) => (await t.services.db.selectFrom(table).select('id').where('holder_kind', '=', h.kind).where('holder_id', '=', h.id).execute()).length),
      );
    for (const h of holders.slice(0, 3)) expect(await left(h), h.kind).toEqual([0, 0, 0]);
    expect(await left(holders[3])).toEqual([1, 10, 1]);
  });
});

describe('who is told of a guessed second factor', () => {
  /** Ten wrong codes after the right password, each from a new address, five per pending sign-in. */
  async function tenWrongCodes(area: Area, login: string, password: string) {
    let token = '';
    for (let i = 0; i < 10; i++) {
      if (i % 5 === 0) token = await pending(area, login, password);
      expect((await t.post(`/api/${area}/login/second_factor`, { token, code: '000000' }, { ip: someIp() })).code).toBe(40102);
    }
  }
  const mailTo = async (to: string) => (await t.outbox()).filter((m) => m.to === to);

  it('When an operator with an e-mail address has their codes guessed, then they are e-mailed in their language and the log names them', async () => {
    const email = `op-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const username = `op-${crypto.randomBytes(3).toString('hex')}`;
    const created = await t.post('/api/manage/admin/create', { username, password: 'operator-pass-1', role: 'support', email, locale: 'zh' }, { token: await rootToken() });
    expect(created.code).toBe(0);
    const token = await operatorLogin(t, username, 'operator-pass-1');
    await enrolTotp(t, 'manage', token);
    await tenWrongCodes('manage', username, 'operator-pass-1');
    const mails = await mailTo(email);
    expect(mails.map((m) => m.subject)).toEqual(['知道您 Maildesk 密码的人正在猜测您的第二重验证']);
    expect(await logOf({ action: 'second_factor_guessed', target_type: 'operator', target_id: created.data.id })).toEqual([expect.objectContaining({ user_id: null })]);
  });

  it("When a mailbox owner's codes are guessed, then the mailbox is e-mailed in its customer's language, and the customer's log shows it", async () => {
    const box = await mailboxOwner(t);
    expect((await t.post('/api/admin/me/update_locale', { locale: 'en' }, { token: box.customer.token })).code).toBe(0);
    await enrolTotp(t, 'mail', box.token);
    await tenWrongCodes('mail', box.address, box.password);
    expect((await mailTo(box.address)).map((m) => m.subject)).toEqual(['Someone who knows your Maildesk password is guessing your second factor']);
    const seen = await t.post('/api/admin/log/list', { filter: { action: 'second_factor_guessed' } }, { token: box.customer.token });
    expect(seen.data.list).toEqual([expect.objectContaining({ target_type: 'email', target_id: box.id })]);
    // The mailbox confirms who it is with its own password.
    const off = (confirmation: string) => t.post('/api/mail/second_factor/totp_disable', { confirmation }, { token: box.token, ip: someIp() });
    expect(await off('customer-pass-1')).toMatchObject({ code: 40000, errors: { confirmation: { message: 'validation.confirmation_wrong' } } });
    expect(await off(box.password)).toMatchObject({ code: 0, data: { totp: false } });
  });

  it("When a customer's codes are guessed, then the customer is e-mailed once and their log shows it", async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    await tenWrongCodes('admin', customer.email, customer.password);
    expect((await mailTo(customer.email)).filter((m) => /second factor|第二重验证/.test(m.subject))).toHaveLength(1);
    const seen = await t.post('/api/admin/log/list', { filter: { action: 'second_factor_guessed' } }, { token: customer.token });
    expect(seen.data.list).toEqual([expect.objectContaining({ target_type: 'user', target_id: customer.id })]);
  });

  it("When an operator's session guesses the password to confirm ten times, then the log says the operator is being guessed", async () => {
    const operator = await operatorWithRole(t, 'support');
    await enrolTotp(t, 'manage', operator.token);
    for (let i = 1; i <= 10; i++) {
      expect((await t.post('/api/manage/second_factor/recovery_codes', { confirmation: `guess-${i}` }, { token: operator.token, ip: someIp() })).code).toBe(40000);
    }
    expect(await logOf({ action: 'sign_in_guessed', target_type: 'operator', target_id: operator.id })).toHaveLength(1);
  });
});

describe('TOTP secrets sealed at start', () => {
  it('When the app starts with SECRET_KEY on a database with secrets in clear, then they are sealed once (a later start leaves them), each opens only for its person, and without the key a sealed one signs nobody in', async () => {
    const SECRET_KEY = crypto.randomBytes(32).toString('hex');
    const clear = await signUpCustomer(t);
    const { secret: clearSecret } = await enrolTotp(t, 'admin', clear.token);
    const storedOf = async (db: TestApp['services']['db'], id: number) =>
      (await db.selectFrom('totp').select('secret').where('holder_kind', '=', 'customer').where('holder_id', '=', id).executeTakeFirstOrThrow()).secret;
    expect(await storedOf(t.services.db, clear.id)).toBe(clearSecret);

    const env = {
      DATA_DIR: t.config.dataDir,
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      PUBLIC_URL: t.config.publicUrl,
      WEB_ROOT: t.config.webRoot ?? '',
      ADMIN_USERNAME: t.config.adminUsername,
      ADMIN_PASSWORD: t.config.adminPassword ?? '',
      JOB_SCHEDULES: '0',
      JOB_POLL_MS: '600000',
      SECRET_KEY,
    };
    const call = async (app: Pick<Awaited<ReturnType<typeof startMaildesk>>, 'app'>, url: string, payload: unknown, token = '') =>
      (await app.app.inject({ method: 'POST', url, remoteAddress: someIp(), headers: { 'content-type': 'application/json', authentication: token }, payload: payload as object })).json();
    const signsIn = async (app: Pick<Awaited<ReturnType<typeof startMaildesk>>, 'app'>, who: { email: string; password: string }, secret: string) => {
      const first = await call(app, '/api/admin/login/login', { email: who.email, password: who.password });
      return (await call(app, '/api/admin/login/second_factor', { token: first.params.token, code: totpCode(secret) })).code;
    };

    const sealed = await signUpCustomer(t);
    const moved = await signUpCustomer(t);
    let sealedSecret = '';
    const withKey = await startMaildesk(loadConfig(env));
    try {
      const stored = await storedOf(withKey.services.db, clear.id);
      expect(stored).toMatch(/^v1\./);
      const started = await call(withKey, '/api/admin/second_factor/totp_start', {}, sealed.token);
      sealedSecret = started.data.secret;
      expect((await call(withKey, '/api/admin/second_factor/totp_confirm', { code: totpCode(sealedSecret) }, sealed.token)).code).toBe(0);
      await enrolTotp(t, 'admin', moved.token);
      await withKey.services.db.updateTable('totp').set({ secret: await storedOf(withKey.services.db, sealed.id) }).where('holder_kind', '=', 'customer').where('holder_id', '=', moved.id).execute();
    } finally {
      await withKey.close();
    }
    await t.moveClock(30_000);
    const again = await startMaildesk(loadConfig(env));
    try {
      expect(await signsIn(again, clear, clearSecret)).toBe(0);
      expect(await signsIn(again, sealed, sealedSecret)).toBe(0);
      expect(await signsIn(again, moved, sealedSecret)).toBe(40102);
    } finally {
      await again.close();
    }
    // The first app has no key: the sealed secret opens for nobody, and the answer is a wrong code, not a failure.
    await t.moveClock(30_000);
    expect(await signsIn(t, sealed, sealedSecret)).toBe(40102);
  }, 60_000);
});
