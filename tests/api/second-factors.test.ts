/**
 * Second factors (TOTP with recovery codes) in the three areas: enrolment, the two-step sign-in,
 * a code accepted once, throttling of wrong codes, the policies that lead people through
 * enrolment, an operator's reset with its reason, and the activity log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nowMs } from '../../server/core/time.js';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp, teamMemberOf } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';
import { enrolTotp, nextStep, passwordStep, totpCode } from '../helpers/second-factor.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(() => t.resetClock());
afterAll(() => t.close());

describe('enrolment', () => {
  it('When a customer enrols an authenticator app, then the secret is shown once, one right code turns TOTP on, and ten recovery codes come back once', async () => {
    const customer = await signUpCustomer(t);
    const before = await t.get('/api/admin/second_factor/info', {}, { token: customer.token });
    expect(before).toMatchObject({ code: 0, data: { totp: false, recovery_codes_left: 0, passkeys: [], required: false } });

    const started = await t.post('/api/admin/second_factor/totp_start', {}, { token: customer.token });
    expect(started.code).toBe(0);
    expect(started.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.data.otpauth_url).toMatch(/^otpauth:\/\/totp\/maildesk\.test:/);
    expect(started.data.otpauth_url).toContain(`secret=${started.data.secret}`);
    expect(started.data.qr_svg).toMatch(/^<svg/);

    const wrong = await t.post('/api/admin/second_factor/totp_confirm', { code: '000000' }, { token: customer.token });
    expect(wrong).toMatchObject({ status: 400, code: 40102, message: 'error.bad_second_factor_code' });
    const malformed = await t.post('/api/admin/second_factor/totp_confirm', { code: '12ab' }, { token: customer.token });
    expect(malformed).toMatchObject({ code: 40000, errors: { code: { message: 'validation.code_format' } } });

    const confirmed = await t.post('/api/admin/second_factor/totp_confirm', { code: totpCode(started.data.secret) }, { token: customer.token });
    expect(confirmed.code).toBe(0);
    expect(confirmed.data.recovery_codes).toHaveLength(10);
    expect(new Set(confirmed.data.recovery_codes).size).toBe(10);
    for (const code of confirmed.data.recovery_codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const after = await t.get('/api/admin/second_factor/info', {}, { token: customer.token });
    expect(after.data).toMatchObject({ totp: true, recovery_codes_left: 10 });
    // The secret never leaves the server again, nor do the recovery codes.
    expect(JSON.stringify(after)).not.toContain(started.data.secret);
    expect(JSON.stringify(after)).not.toContain(confirmed.data.recovery_codes[0]);
    const again = await t.post('/api/admin/second_factor/totp_start', {}, { token: customer.token });
    expect(again).toMatchObject({ status: 409, code: 40900, message: 'error.totp_already_on' });

    // Stored as hashes: no row holds a code in clear.
    const rows = await t.services.db.selectFrom('recovery_code').select('code_hash').where('holder_id', '=', customer.id).where('holder_kind', '=', 'customer').execute();
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(confirmed.data.recovery_codes.map((c: string) => c.replace('-', ''))).not.toContain(row.code_hash);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.code_hash))).toBe(true);
  });

  it('When an enrolment is never confirmed, then sign-in still takes the password alone', async () => {
    const customer = await signUpCustomer(t);
    await t.post('/api/admin/second_factor/totp_start', {}, { token: customer.token });
    const signedIn = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(signedIn).toMatchObject({ code: 0, data: { email: customer.email, token: expect.any(String) } });
  });
});

describe('turning TOTP on and off', () => {
  it('When an enrolment is started again before it is confirmed, then only the newest secret\'s code turns TOTP on', async () => {
    const customer = await signUpCustomer(t);
    const first = await t.post('/api/admin/second_factor/totp_start', {}, { token: customer.token });
    const second = await t.post('/api/admin/second_factor/totp_start', {}, { token: customer.token });
    expect(second.code).toBe(0);
    expect(second.data.secret).not.toBe(first.data.secret);
    expect((await t.post('/api/admin/second_factor/totp_confirm', { code: totpCode(first.data.secret) }, { token: customer.token })).code).toBe(40102);
    expect((await t.post('/api/admin/second_factor/totp_confirm', { code: totpCode(second.data.secret) }, { token: customer.token })).code).toBe(0);
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data).toMatchObject({ totp: true, recovery_codes_left: 10 });
  });

  it('When TOTP is turned off, then its recovery codes go with it and it is logged once; off again, nothing changes or is logged; new recovery codes need TOTP on', async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    const off = await t.post('/api/admin/second_factor/totp_disable', { confirmation: customer.password }, { token: customer.token });
    expect(off).toMatchObject({ code: 0, data: { totp: false, recovery_codes_left: 0 } });
    expect((await t.post('/api/admin/second_factor/totp_disable', { confirmation: customer.password }, { token: customer.token })).data).toMatchObject({ totp: false, recovery_codes_left: 0 });
    const logged = await t.services.db.selectFrom('log').select('action').where('user_id', '=', customer.id).where('action', '=', 'totp_disable').execute();
    expect(logged).toHaveLength(1);
    expect(await t.post('/api/admin/second_factor/recovery_codes', { confirmation: customer.password }, { token: customer.token })).toMatchObject({ status: 409, code: 40900, message: 'error.totp_not_on' });
    // Signing in takes the password alone; an old recovery code is nothing.
    expect((await passwordStep(t, 'admin', customer.email, customer.password)).code).toBe(0);
    expect(await t.services.db.selectFrom('recovery_code').select('id').where('holder_kind', '=', 'customer').where('holder_id', '=', customer.id).execute()).toEqual([]);
  });
});

describe('signing in with TOTP', () => {
  it('When a customer with TOTP signs in, then the password step answers 40103 without a session, and the code gives the session', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    await nextStep(t);

    const first = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(first).toMatchObject({ status: 401, code: 40103, message: 'error.second_factor_needed', data: null });
    expect(first.params).toMatchObject({ token: expect.any(String), methods: ['totp', 'recovery_code'], enrol: false, expires_in: 300 });
    // The pending sign-in is no session, in any area.
    for (const url of ['/api/admin/me/info', '/api/manage/me/info']) {
      expect((await t.post(url, {}, { token: first.params!.token as string })).code).toBe(20000);
    }
    expect((await t.get('/api/mail/me/info', {}, { token: first.params!.token as string })).code).toBe(20000);

    const second = await t.post('/api/admin/login/second_factor', { token: first.params!.token, code: totpCode(secret) }, { ip: someIp() });
    expect(second).toMatchObject({ code: 0, data: { id: customer.id, email: customer.email, is_verified: 1, token: expect.any(String) } });
    expect((await t.post('/api/admin/me/info', {}, { token: second.data.token })).code).toBe(0);
    // A pending sign-in is used once.
    const reused = await t.post('/api/admin/login/second_factor', { token: first.params!.token, code: totpCode(secret) }, { ip: someIp() });
    expect(reused).toMatchObject({ code: 40102, message: 'error.second_factor_expired' });
  });

  it('When a code is replayed within its window, then it is refused; when the clock moves on, the next code works, and a code three steps old does not (the edges of the window: the next test)', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    await nextStep(t);
    const code = totpCode(secret);
    const pending = async () => (await passwordStep(t, 'admin', customer.email, customer.password)).params!.token as string;
    expect((await t.post('/api/admin/login/second_factor', { token: await pending(), code })).code).toBe(0);
    // The same code, seconds later, by someone who saw it.
    const replayed = await t.post('/api/admin/login/second_factor', { token: await pending(), code });
    expect(replayed).toMatchObject({ code: 40102, message: 'error.bad_second_factor_code' });

    await nextStep(t);
    expect((await t.post('/api/admin/login/second_factor', { token: await pending(), code: totpCode(secret) })).code).toBe(0);
    // A phone whose clock is a step behind still works (drift); three steps behind does not.
    await nextStep(t);
    await nextStep(t);
    expect((await t.post('/api/admin/login/second_factor', { token: await pending(), code: totpCode(secret, nowMs() - 30_000) })).code).toBe(0);
    const stale = totpCode(secret, nowMs() - 90_000);
    expect((await t.post('/api/admin/login/second_factor', { token: await pending(), code: stale })).code).toBe(40102);
  });

  it('When a code is one step off the clock, either way, then it is accepted; two steps off, either way, it is refused', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    // Well past the step the enrolment used, and a second into a step, so that the step does not turn while a code is on its way.
    await t.moveClock(4 * 30_000 + (30_000 - (nowMs() % 30_000)) + 1000);
    const secondStep = async (atMs: number) => {
      const pending = (await passwordStep(t, 'admin', customer.email, customer.password)).params!.token as string;
      return (await t.post('/api/admin/login/second_factor', { token: pending, code: totpCode(secret, atMs) })).code;
    };
    expect(await secondStep(nowMs() - 60_000)).toBe(40102);
    expect(await secondStep(nowMs() + 60_000)).toBe(40102);
    expect(await secondStep(nowMs() - 30_000)).toBe(0);
    expect(await secondStep(nowMs() + 30_000)).toBe(0);
  });

  it('When a code is replayed later in its own step (20 seconds on), then it is refused', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    await t.moveClock(30_000 + (30_000 - (nowMs() % 30_000)) + 1000);
    const code = totpCode(secret);
    const pending = async () => (await passwordStep(t, 'admin', customer.email, customer.password)).params!.token as string;
    expect((await t.post('/api/admin/login/second_factor', { token: await pending(), code })).code).toBe(0);
    await t.moveClock(20_000);
    expect(await t.post('/api/admin/login/second_factor', { token: await pending(), code })).toMatchObject({ code: 40102, message: 'error.bad_second_factor_code' });
  });

  it('When a mailbox is deactivated between its password and its code, then the right code is refused and no session is made', async () => {
    const box = await mailboxOwner(t);
    const { secret } = await enrolTotp(t, 'mail', box.token);
    await nextStep(t);
    const first = await passwordStep(t, 'mail', box.address, box.password);
    expect(first.code).toBe(40103);
    expect((await t.post('/api/admin/email/update', { id: box.id, active: 0 }, { token: box.customer.token })).code).toBe(0);
    const second = await t.post('/api/mail/login/second_factor', { token: first.params!.token, code: totpCode(secret) });
    expect(second).toMatchObject({ status: 403, code: 40300, message: 'error.mailbox_sign_in_refused', data: null });
  });

  it('When the pending sign-in is older than five minutes, then it is refused', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    const first = await passwordStep(t, 'admin', customer.email, customer.password);
    await t.moveClock(5 * 60_000 + 1000);
    const late = await t.post('/api/admin/login/second_factor', { token: first.params!.token, code: totpCode(secret) });
    expect(late).toMatchObject({ code: 40102, message: 'error.second_factor_expired' });
  });

  it('When a customer signs in with an e-mailed code, then the second factor is asked for too', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    await nextStep(t);
    await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' });
    const first = await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code: await t.lastCode(customer.email) });
    expect(first).toMatchObject({ code: 40103 });
    const second = await t.post('/api/admin/login/second_factor', { token: first.params!.token, code: totpCode(secret) });
    expect(second.code).toBe(0);
    const log = await t.post('/api/admin/log/list', { filter: { action: 'login' }, sort: 'id', order: 'desc', page_size: 1 }, { token: second.data.token });
    expect(log.data.list[0].after).toMatchObject({ method: 'code', second_factor: 'totp' });
  });

  it('When an operator and a mailbox owner have TOTP, then their areas ask for it the same way', async () => {
    const operator = await operatorWithRole(t, 'support');
    const { secret: operatorSecret } = await enrolTotp(t, 'manage', operator.token);
    const box = await mailboxOwner(t);
    const { secret: boxSecret } = await enrolTotp(t, 'mail', box.token);
    await nextStep(t);

    const operatorFirst = await passwordStep(t, 'manage', operator.username, operator.password);
    expect(operatorFirst).toMatchObject({ code: 40103, params: { methods: ['totp', 'recovery_code'] } });
    // A pending sign-in of one area is nothing in another.
    expect((await t.post('/api/admin/login/second_factor', { token: operatorFirst.params!.token, code: totpCode(operatorSecret) })).code).toBe(40102);
    const operatorSecond = await t.post('/api/manage/login/second_factor', { token: operatorFirst.params!.token, code: totpCode(operatorSecret) });
    expect(operatorSecond).toMatchObject({ code: 0, data: { id: operator.id, username: operator.username, role: 'support', token: expect.any(String) } });

    const boxFirst = await passwordStep(t, 'mail', box.address, box.password);
    expect(boxFirst).toMatchObject({ code: 40103 });
    const boxSecond = await t.post('/api/mail/login/second_factor', { token: boxFirst.params!.token, code: totpCode(boxSecret) });
    expect(boxSecond).toMatchObject({ code: 0, data: { id: box.id, email: box.address, token: expect.any(String) } });
    expect((await t.get('/api/mail/me/info', {}, { token: boxSecond.data.token })).code).toBe(0);
    // The owner's activity log says how they got in.
    const signIn = await t.services.db.selectFrom('log').select(['actor_type', 'after']).where('action', '=', 'login').where('target_type', '=', 'email').where('target_id', '=', box.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect({ ...signIn, after: JSON.parse(String(signIn.after)) }).toEqual({ actor_type: 'mailbox', after: { method: 'password', area: 'mail', second_factor: 'totp' } });
  });

  it('When people have no second factor, then every sign-in answers its session at once, as the specification says', async () => {
    const customer = await signUpCustomer(t);
    expect(await passwordStep(t, 'admin', customer.email, customer.password)).toMatchObject({ code: 0, data: { token: expect.any(String) } });
    expect(await passwordStep(t, 'manage', ROOT.username, ROOT.password)).toMatchObject({ code: 0, data: { token: expect.any(String) } });
  });
});

describe('recovery codes', () => {
  it('When recovery codes are used, then each works once, in any spelling, and the count goes down', async () => {
    const customer = await signUpCustomer(t);
    const { recoveryCodes } = await enrolTotp(t, 'admin', customer.token);
    const pending = async () => (await passwordStep(t, 'admin', customer.email, customer.password)).params!.token as string;

    const first = await t.post('/api/admin/login/second_factor', { token: await pending(), code: recoveryCodes[0] });
    expect(first.code).toBe(0);
    const again = await t.post('/api/admin/login/second_factor', { token: await pending(), code: recoveryCodes[0] });
    expect(again).toMatchObject({ code: 40102, message: 'error.bad_second_factor_code' });
    const spelled = await t.post('/api/admin/login/second_factor', { token: await pending(), code: ` ${recoveryCodes[1].toUpperCase().replace('-', ' ')} ` });
    expect(spelled.code).toBe(0);
    const info = await t.get('/api/admin/second_factor/info', {}, { token: spelled.data.token });
    expect(info.data.recovery_codes_left).toBe(8);
    const log = await t.post('/api/admin/log/list', { filter: { action: 'login' }, sort: 'id', order: 'desc', page_size: 1 }, { token: spelled.data.token });
    expect(log.data.list[0].after).toMatchObject({ method: 'password', second_factor: 'recovery_code' });

    // New codes: the old ones stop working.
    const renewed = await t.post('/api/admin/second_factor/recovery_codes', { confirmation: customer.password }, { token: spelled.data.token });
    expect(renewed.data.recovery_codes).toHaveLength(10);
    expect((await t.post('/api/admin/login/second_factor', { token: await pending(), code: recoveryCodes[2] })).code).toBe(40102);
    expect((await t.post('/api/admin/login/second_factor', { token: await pending(), code: renewed.data.recovery_codes[0] })).code).toBe(0);
  });

  it('When TOTP is turned off, then its recovery codes go too and the password alone signs in', async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    const off = await t.post('/api/admin/second_factor/totp_disable', { confirmation: customer.password }, { token: customer.token });
    expect(off).toMatchObject({ code: 0, data: { totp: false, recovery_codes_left: 0 } });
    expect((await t.post('/api/admin/second_factor/recovery_codes', { confirmation: customer.password }, { token: customer.token })).code).toBe(40900);
    expect((await passwordStep(t, 'admin', customer.email, customer.password)).code).toBe(0);
  });
});

describe('throttling', () => {
  it('When wrong codes keep coming from one address, then it waits like after wrong passwords, and a pending sign-in dies after five', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    await nextStep(t);
    const ip = someIp();
    const token = (await passwordStep(t, 'admin', customer.email, customer.password, ip)).params!.token as string;
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await t.post('/api/admin/login/second_factor', { token, code: `00000${i}` }, { ip })).code);
    // Three free failures, the fourth is counted and then this address waits.
    expect(codes).toEqual([40102, 40102, 40102, 40102]);
    const held = await t.post('/api/admin/login/second_factor', { token, code: totpCode(secret) }, { ip });
    expect(held).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited', params: { retry_after: expect.any(Number) } });

    // From elsewhere, the same pending sign-in takes one more wrong code, then is dead even for the right one.
    expect((await t.post('/api/admin/login/second_factor', { token, code: '999999' }, { ip: someIp() })).code).toBe(40102);
    const dead = await t.post('/api/admin/login/second_factor', { token, code: totpCode(secret) }, { ip: someIp() });
    expect(dead).toMatchObject({ code: 40102, message: 'error.second_factor_expired' });

    // The owner, with a fresh pending sign-in from their own address, gets in; the failures are in their log.
    const own = someIp();
    const fresh = (await passwordStep(t, 'admin', customer.email, customer.password, own)).params!.token as string;
    const signedIn = await t.post('/api/admin/login/second_factor', { token: fresh, code: totpCode(secret) }, { ip: own });
    expect(signedIn.code).toBe(0);
    const log = await t.post('/api/admin/log/list', { filter: { action: 'second_factor_failed' } }, { token: signedIn.data.token });
    expect(log.data.total).toBe(5);
  });
});

describe('policies', () => {
  it('When a superadmin requires a second factor of every operator, then an operator without one enrols at the next sign-in, and needs a code after that', async () => {
    const root = await operatorLogin(t);
    const operator = await operatorWithRole(t, 'billing');
    expect((await t.post('/api/manage/second_factor/update_policy', { operators_required: true }, { token: operator.token })).code).toBe(40300);
    expect(await t.post('/api/manage/second_factor/update_policy', { operators_required: true }, { token: root })).toMatchObject({ code: 0, data: { operators_required: true } });
    try {
      // The sessions they hold go on; the next sign-in leads through enrolment.
      expect((await t.post('/api/manage/me/info', {}, { token: operator.token })).code).toBe(0);
      const first = await passwordStep(t, 'manage', operator.username, operator.password);
      expect(first).toMatchObject({ code: 40103, message: 'error.second_factor_enrol', params: { enrol: true, methods: ['totp', 'passkey'] } });
      // A pending enrolment is not a pending second step, and the other way round.
      expect((await t.post('/api/manage/login/second_factor', { token: first.params!.token, code: '123456' })).message).toBe('error.second_factor_expired');

      const started = await t.post('/api/manage/login/enrol_totp', { token: first.params!.token });
      expect(started).toMatchObject({ code: 0, data: { secret: expect.any(String), qr_svg: expect.stringMatching(/^<svg/) } });
      expect((await t.post('/api/manage/login/enrol_totp_confirm', { token: first.params!.token, code: '000000' })).code).toBe(40102);
      const done = await t.post('/api/manage/login/enrol_totp_confirm', { token: first.params!.token, code: totpCode(started.data.secret) });
      expect(done).toMatchObject({ code: 0, data: { id: operator.id, username: operator.username, token: expect.any(String) } });
      expect(done.data.recovery_codes).toHaveLength(10);
      expect((await t.get('/api/manage/second_factor/info', {}, { token: done.data.token })).data).toMatchObject({ totp: true, required: true });

      await nextStep(t);
      const next = await passwordStep(t, 'manage', operator.username, operator.password);
      expect(next).toMatchObject({ code: 40103, message: 'error.second_factor_needed', params: { enrol: false } });
      // Someone with a second factor cannot enrol another through a pending sign-in.
      expect((await t.post('/api/manage/login/enrol_totp', { token: next.params!.token })).code).toBe(40102);
      expect((await t.post('/api/manage/login/second_factor', { token: next.params!.token, code: totpCode(started.data.secret) })).code).toBe(0);

      const log = await t.post('/api/manage/log/list', { filter: { action: 'second_factor_required' } }, { token: root });
      expect(log.data.list[0]).toMatchObject({ actor_type: 'operator', target_type: 'operators', before: { required: false }, after: { required: true } });
    } finally {
      await t.post('/api/manage/second_factor/update_policy', { operators_required: false }, { token: root });
    }
  });

  it("When a customer requires a second factor of their team, then a member enrols at the next sign-in, and so does the customer (second-factor-policies.test.ts)", async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect((await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token: member.token })).code).toBe(40300);
    expect(await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token: customer.token })).toMatchObject({ code: 0, data: { required: true } });
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: customer.token })).data).toMatchObject({ required: true, applies_to_you: true });

    expect(await passwordStep(t, 'admin', customer.email, customer.password)).toMatchObject({ code: 40103, params: { enrol: true } });
    const first = await passwordStep(t, 'admin', member.email, member.password);
    expect(first).toMatchObject({ code: 40103, params: { enrol: true } });
    const started = await t.post('/api/admin/login/enrol_totp', { token: first.params!.token });
    const done = await t.post('/api/admin/login/enrol_totp_confirm', { token: first.params!.token, code: totpCode(started.data.secret) });
    expect(done).toMatchObject({ code: 0, data: { id: member.id, email: member.email, token: expect.any(String), recovery_codes: expect.any(Array) } });

    // Another customer's team is not concerned.
    const other = await signUpCustomer(t);
    const otherMember = await teamMemberOf(t, other);
    expect((await passwordStep(t, 'admin', otherMember.email, otherMember.password)).code).toBe(0);

    const log = await t.post('/api/admin/log/list', { sort: 'id', order: 'desc', page_size: 50 }, { token: customer.token });
    const actions = log.data.list.map((e: { action: string }) => e.action);
    expect(actions).toContain('second_factor_required');
    expect(actions).toContain('totp_enable');
  });
});

describe('reset by an operator', () => {
  it("When a customer lost their phone, then support resets the second factor with a reason, the customer signs in with the password, and reads the reason in their log", async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    expect((await passwordStep(t, 'admin', customer.email, customer.password)).code).toBe(40103);
    const support = await operatorWithRole(t, 'support');
    const billing = await operatorWithRole(t, 'billing');
    expect((await t.post('/api/manage/user/reset_second_factor', { id: customer.id, reason: 'Lost phone' }, { token: billing.token })).code).toBe(40300);
    expect((await t.post('/api/manage/user/reset_second_factor', { id: customer.id, reason: '' }, { token: support.token })).code).toBe(40000);
    expect((await t.post('/api/manage/user/reset_second_factor', { id: 99_999_999, reason: 'Lost phone' }, { token: support.token })).code).toBe(40400);
    const reset = await t.post('/api/manage/user/reset_second_factor', { id: customer.id, reason: 'Lost phone, identity checked by call-back (ticket 1234)' }, { token: support.token });
    expect(reset).toMatchObject({ code: 0, data: { totp_removed: true, passkeys_removed: 0 } });

    const signedIn = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(signedIn.code).toBe(0);
    const log = await t.post('/api/admin/log/list', { filter: { action: 'second_factor_reset' } }, { token: signedIn.data.token });
    expect(log.data.list[0]).toMatchObject({ target_type: 'user', target_id: customer.id, after: { reason: 'Lost phone, identity checked by call-back (ticket 1234)' } });
  });
});

describe('activity log', () => {
  it('When a person changes their second factors, then each change is one entry about their account', async () => {
    const box = await mailboxOwner(t);
    await enrolTotp(t, 'mail', box.token);
    await t.post('/api/mail/second_factor/recovery_codes', { confirmation: box.password }, { token: box.token });
    await t.post('/api/mail/second_factor/totp_disable', { confirmation: box.password }, { token: box.token });
    const log = await t.post('/api/admin/log/list', { filter: { target_type: 'email' }, sort: 'id', order: 'asc', page_size: 100 }, { token: box.customer.token });
    const mine = log.data.list.filter((e: { target_id: number; action: string }) => e.target_id === box.id && /totp|recovery/.test(e.action));
    expect(mine.map((e: { action: string }) => e.action)).toEqual(['totp_enable', 'recovery_codes_renew', 'totp_disable']);
    expect(mine[0]).toMatchObject({ actor_type: 'mailbox', after: { address: box.address } });
  });

describe('housekeeping', () => {
  it('When a customer login is deleted, then housekeeping removes its second factors', async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    const root = await operatorLogin(t);
    expect((await t.post('/api/manage/user/delete', { id: customer.id }, { token: root })).code).toBe(0);
    await t.services.jobs.runSchedule('housekeeping');
    const left = async (table: 'totp' | 'recovery_code') =>
      (await t.services.db.selectFrom(table).select('id').where('holder_kind', '=', 'customer').where('holder_id', '=', customer.id).execute()).length;
    expect(await left('totp')).toBe(0);
    expect(await left('recovery_code')).toBe(0);
  });
});
});
