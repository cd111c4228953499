/**
 * The rules of server/security at their edges (issue #32): what a second step's inputs take, the
 * TOTP steps (drift either way, a code only for a step after the last one accepted), a pending
 * sign-in's five minutes and five wrong codes, each person's own throttle, recovery codes, what the
 * activity log says, and the policies. Passkeys, housekeeping and start-up: security-rules-2.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { nowMs } from '../../server/core/time.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/authenticator.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp, teamMemberOf } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';
import { addPasskey, enrolTotp, passwordStep, totpCode, type Area } from '../helpers/second-factor.js';

let t: TestApp;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
});
afterEach(() => {
  vi.useRealTimers();
  t.resetClock();
});
afterAll(() => t.close());

const STEP = 30_000;
/** Business time stands still at `ms` (only Date: timers, I/O and the database run as usual), so that a step or an expiry can be met to the millisecond. */
function freezeAt(ms: number) {
  vi.useRealTimers();
  vi.useFakeTimers({ toFake: ['Date'], now: ms });
}
/** Frozen in the middle of the current 30-second step. */
const freezeMidStep = () => freezeAt(Math.floor(Date.now() / STEP) * STEP + STEP / 2);

const pending = async (area: Area, login: string, password: string) => {
  const first = await passwordStep(t, area, login, password);
  expect(first.code).toBe(40103);
  return first.params!.token as string;
};
const secondStep = (area: Area, token: string, code: string, ip = someIp()) => t.post(`/api/${area}/login/second_factor`, { token, code }, { ip });
/** The operators' view of the activity log (every field), oldest first. */
const logOf = async (filter: Record<string, unknown>) => (await t.post('/api/manage/log/list', { filter, sort: 'id', order: 'asc', page_size: 100 }, { token: root })).data.list;
const device = () => new SoftAuthenticator('http://maildesk.test');
const alive = { code: 40102, message: 'error.bad_second_factor_code' };
const dead = { code: 40102, message: 'error.second_factor_expired' };

describe('what the second step takes', () => {
  it('When a code has 5 characters or 33 (spaces around do not count), then it is refused on the code field; 6 and 32 are checked', async () => {
    const step = (code: string, token = 'made-up') => t.post('/api/admin/login/second_factor', { token, code }, { ip: someIp() });
    const refused = { status: 400, code: 40000, errors: { code: { message: 'validation.second_factor_code' } } };
    expect(await step('12345')).toMatchObject(refused);
    expect(await step('   12345   ')).toMatchObject(refused);
    expect(await step('a'.repeat(33))).toMatchObject(refused);
    // Checked: the made-up pending sign-in is what is refused then.
    expect(await step('123456')).toMatchObject(dead);
    expect(await step(`  ${'a'.repeat(32)}  `)).toMatchObject(dead);
    const answer = await step('1234');
    expect(messageText('en', answer.errors!.code.message)).toBe('Enter the 6-digit code from your authenticator app, or a recovery code');
    expect(messageText('zh', answer.errors!.code.message)).toBe('请输入身份验证器应用中的 6 位验证码，或一个恢复码');
  });

  it('When the token is empty, blank or 101 characters, then it is refused as input; 100 characters, or a real token with spaces around it, are looked up', async () => {
    const step = (token: string) => t.post('/api/admin/login/second_factor', { token, code: '123456' }, { ip: someIp() });
    for (const token of ['', '   ', 'x'.repeat(101)]) expect(await step(token), JSON.stringify(token)).toMatchObject({ code: 40000, errors: { token: expect.anything() } });
    expect(await step('x'.repeat(100))).toMatchObject(dead);
    const customer = await signUpCustomer(t);
    freezeMidStep();
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    await t.moveClock(STEP);
    const token = await pending('admin', customer.email, customer.password);
    expect(await secondStep('admin', `  ${token}  `, totpCode(secret))).toMatchObject({ code: 0, data: { id: customer.id } });
  });

  it('When an authenticator app is confirmed, then the code must be six digits (spaces around are fine), in both languages', async () => {
    const customer = await signUpCustomer(t);
    freezeMidStep();
    const started = await t.post('/api/admin/second_factor/totp_start', {}, { token: customer.token });
    const confirm = (code: string) => t.post('/api/admin/second_factor/totp_confirm', { code }, { token: customer.token, ip: someIp() });
    const code = totpCode(started.data.secret);
    for (const wrong of [`a${code}`, `${code}a`, `${code}1`, code.slice(1), `${code.slice(0, 3)}x${code.slice(4)}`]) {
      expect(await confirm(wrong), wrong).toMatchObject({ code: 40000, errors: { code: { message: 'validation.code_format' } } });
    }
    expect(messageText('en', 'validation.code_format')).toBe('The code has 6 digits');
    expect(messageText('zh', 'validation.code_format')).toBe('验证码为 6 位数字');
    expect(await confirm(` ${code} `)).toMatchObject({ code: 0, data: { recovery_codes: expect.any(Array) } });
    // Confirmed: confirming again, even with a right code of a later step, makes no new recovery codes.
    await t.moveClock(STEP);
    expect(await confirm(totpCode(started.data.secret))).toMatchObject({ status: 400, code: 40102, message: 'error.bad_second_factor_code' });
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data).toMatchObject({ totp: true, recovery_codes_left: 10 });
  });
});

describe('turning an app on', () => {
  it('When an enrolment is started again before it is confirmed, then only the newest secret counts; once on, it cannot be started again; recovery codes need it on', async () => {
    const customer = await signUpCustomer(t);
    const { token } = customer;
    expect(await t.post('/api/admin/second_factor/recovery_codes', { confirmation: customer.password }, { token, ip: someIp() })).toMatchObject({ status: 409, code: 40900, message: 'error.totp_not_on' });
    freezeMidStep();
    const first = await t.post('/api/admin/second_factor/totp_start', {}, { token });
    const second = await t.post('/api/admin/second_factor/totp_start', {}, { token });
    expect(second.data).toMatchObject({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), qr_svg: expect.stringMatching(/^<svg/) });
    expect(second.data.secret).not.toBe(first.data.secret);
    expect(second.data.otpauth_url).toContain(`secret=${second.data.secret}`);
    expect((await t.post('/api/admin/second_factor/totp_confirm', { code: totpCode(first.data.secret) }, { token, ip: someIp() })).code).toBe(40102);
    expect((await t.post('/api/admin/second_factor/totp_confirm', { code: totpCode(second.data.secret) }, { token, ip: someIp() })).code).toBe(0);
    const again = await t.post('/api/admin/second_factor/totp_start', {}, { token });
    expect(again).toMatchObject({ status: 409, code: 40900, message: 'error.totp_already_on' });
    expect(messageText('zh', again.message)).toBe('已设置身份验证器应用。如需更换，请先将其关闭。');
  });

  it("When one person's wrong confirmation codes make an address wait, then another person enrolling from that address is not held", async () => {
    const one = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    freezeMidStep();
    await t.post('/api/admin/second_factor/totp_start', {}, { token: one.token });
    const started = await t.post('/api/admin/second_factor/totp_start', {}, { token: other.token });
    const ip = someIp();
    for (let i = 1; i <= 4; i++) expect((await t.post('/api/admin/second_factor/totp_confirm', { code: '000000' }, { token: one.token, ip })).code).toBe(40102);
    expect(await t.post('/api/admin/second_factor/totp_confirm', { code: '000000' }, { token: one.token, ip })).toMatchObject({ status: 429, code: 42900 });
    expect((await t.post('/api/admin/second_factor/totp_confirm', { code: totpCode(started.data.secret) }, { token: other.token, ip })).code).toBe(0);
  });
});

describe('TOTP steps', () => {
  it('When a phone a step ahead was used, then the current code (an earlier step) is refused; after a phone a step behind, the current code is taken', async () => {
    const customer = await signUpCustomer(t);
    freezeMidStep();
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    const tryCode = async (atMs: number) => (await secondStep('admin', await pending('admin', customer.email, customer.password), totpCode(secret, atMs))).code;

    await t.moveClock(3 * STEP);
    expect(await tryCode(nowMs() + STEP)).toBe(0);
    expect(await tryCode(nowMs())).toBe(40102);
    // The step it was for has come: its code is used up.
    await t.moveClock(STEP);
    expect(await tryCode(nowMs())).toBe(40102);

    await t.moveClock(2 * STEP);
    expect(await tryCode(nowMs() - STEP)).toBe(0);
    expect(await tryCode(nowMs())).toBe(0);
  });

  it('When a code is one step off either way, then it is taken; two steps off either way, refused; the same code 29 seconds later, refused', async () => {
    const customer = await signUpCustomer(t);
    freezeAt(Math.floor(Date.now() / STEP) * STEP);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    const tryCode = async (atMs: number) => (await secondStep('admin', await pending('admin', customer.email, customer.password), totpCode(secret, atMs))).code;
    await t.moveClock(4 * STEP);
    expect(await tryCode(nowMs() - 2 * STEP)).toBe(40102);
    expect(await tryCode(nowMs() + 2 * STEP)).toBe(40102);
    expect(await tryCode(nowMs() - STEP)).toBe(0);
    await t.moveClock(3 * STEP);
    expect(await tryCode(nowMs() + STEP)).toBe(0);
    await t.moveClock(3 * STEP);
    const code = totpCode(secret);
    expect(await tryCode(nowMs())).toBe(0);
    await t.moveClock(STEP - 1);
    expect(totpCode(secret)).toBe(code);
    expect((await secondStep('admin', await pending('admin', customer.email, customer.password), code)).message).toBe('error.bad_second_factor_code');
  });

  it("When an enrolment is started but not confirmed, then its codes neither confirm the person's identity nor stand for TOTP", async () => {
    const customer = await signUpCustomer(t);
    freezeMidStep();
    const started = await t.post('/api/admin/second_factor/totp_start', {}, { token: customer.token });
    const answer = await t.post('/api/admin/second_factor/totp_disable', { confirmation: totpCode(started.data.secret) }, { token: customer.token, ip: someIp() });
    expect(answer).toMatchObject({ code: 40000, errors: { confirmation: { message: 'validation.confirmation_wrong' } } });
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data).toMatchObject({ totp: false });
  });
});

describe('a pending sign-in', () => {
  it('When it is 4 minutes 59.999 seconds old, then it still takes a code; at exactly 5 minutes it has expired', async () => {
    const customer = await signUpCustomer(t);
    freezeMidStep();
    await enrolTotp(t, 'admin', customer.token);
    const first = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(first).toMatchObject({ code: 40103, params: { expires_in: 300 } });
    const token = first.params!.token as string;
    await t.moveClock(5 * 60_000 - 1);
    expect(await secondStep('admin', token, '000000')).toMatchObject(alive);
    await t.moveClock(1);
    expect(await secondStep('admin', token, '000000')).toMatchObject(dead);
  });

  it('When four wrong codes were given, then the right one still signs in; after five, the next answer is that it has expired', async () => {
    const customer = await signUpCustomer(t);
    freezeMidStep();
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    await t.moveClock(STEP);
    const four = await pending('admin', customer.email, customer.password);
    for (let i = 1; i <= 4; i++) expect(await secondStep('admin', four, '000000'), `wrong code ${i}`).toMatchObject(alive);
    expect((await secondStep('admin', four, totpCode(secret))).code).toBe(0);

    const five = await pending('admin', customer.email, customer.password);
    for (let i = 1; i <= 5; i++) expect(await secondStep('admin', five, '000000'), `wrong code ${i}`).toMatchObject(alive);
    expect(await secondStep('admin', five, '000000')).toMatchObject(dead);
    // Each wrong code is in the log, about the customer, with how it was tried.
    const failed = await logOf({ action: 'second_factor_failed', target_type: 'user', target_id: customer.id });
    expect(failed).toHaveLength(9);
    expect(failed[0]).toMatchObject({ actor_type: 'anonymous', user_id: customer.id, after: { email: customer.email, method: 'totp' } });
  });

  it("When one person's wrong codes make an address wait, then another person's second step from that address is not held", async () => {
    const one = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    freezeMidStep();
    await enrolTotp(t, 'admin', one.token);
    const { secret } = await enrolTotp(t, 'admin', other.token);
    await t.moveClock(STEP);
    const ip = someIp();
    const token = await pending('admin', one.email, one.password);
    for (let i = 1; i <= 4; i++) expect(await secondStep('admin', token, '000000', ip)).toMatchObject(alive);
    expect(await secondStep('admin', token, '000000', ip)).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited' });
    expect(await secondStep('admin', await pending('admin', other.email, other.password), totpCode(secret), ip)).toMatchObject({ code: 0, data: { id: other.id } });
  });

  it('When a code looks like a recovery code (letters before or after six digits), then it is tried as one; the sign-in log names the method', async () => {
    const customer = await signUpCustomer(t);
    freezeMidStep();
    const { secret, recoveryCodes } = await enrolTotp(t, 'admin', customer.token);
    await t.moveClock(STEP);
    const token = await pending('admin', customer.email, customer.password);
    for (const code of ['abc123456', '123456abc', '000000']) expect(await secondStep('admin', token, code)).toMatchObject(alive);
    const failed = await logOf({ action: 'second_factor_failed', target_id: customer.id });
    expect(failed.map((e: { after: { method: string } }) => e.after.method)).toEqual(['recovery_code', 'recovery_code', 'totp']);

    expect((await secondStep('admin', token, totpCode(secret))).code).toBe(0);
    expect((await secondStep('admin', await pending('admin', customer.email, customer.password), recoveryCodes[0])).code).toBe(0);
    const logins = await logOf({ action: 'login', target_type: 'user', target_id: customer.id });
    expect(logins.slice(-2).map((e: { after: unknown }) => e.after)).toMatchObject([
      { method: 'password', second_factor: 'totp' },
      { method: 'password', second_factor: 'recovery_code' },
    ]);
  });
});

describe('recovery codes', () => {
  it('When TOTP is turned on, then ten different codes of five and five characters (no 0, o, 1, l or i) come back; each works once, in any spelling, and the count says how many are left', async () => {
    const customer = await signUpCustomer(t);
    const { recoveryCodes } = await enrolTotp(t, 'admin', customer.token);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    const left = async () => (await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data.recovery_codes_left;
    const use = async (code: string) => (await secondStep('admin', await pending('admin', customer.email, customer.password), code)).code;

    expect(await use(recoveryCodes[0])).toBe(0);
    expect(await left()).toBe(9);
    expect(await use(recoveryCodes[0])).toBe(40102);
    const typed = recoveryCodes[1].toUpperCase();
    expect(await use(` ${typed.slice(0, 2)} ${typed.slice(2, 5)} - ${typed.slice(6)} `)).toBe(0);
    expect(await left()).toBe(8);
    // A code never given is nothing, however it is spelled.
    const unknown = 'zzzzz-zzzzz';
    expect(recoveryCodes).not.toContain(unknown);
    expect(await use(unknown)).toBe(40102);
    expect(await use('zzzzzzzzzz')).toBe(40102);
    expect(await left()).toBe(8);

    // Renewed: ten again, the old ones are nothing.
    const renewed = await t.post('/api/admin/second_factor/recovery_codes', { confirmation: customer.password }, { token: customer.token, ip: someIp() });
    expect(renewed.data.recovery_codes).toHaveLength(10);
    expect(await left()).toBe(10);
    expect(await use(recoveryCodes[2])).toBe(40102);
    expect(await use(renewed.data.recovery_codes[9])).toBe(0);
    const renewals = await logOf({ action: 'recovery_codes_renew', target_id: customer.id });
    expect(renewals).toEqual([expect.objectContaining({ actor_type: 'customer', target_type: 'user', user_id: customer.id, after: { email: customer.email } })]);
  });
});

describe('confirming who one is', () => {
  it('When the confirmation is a current code with spaces around it, then it is taken; 128 characters are checked, 129 are too long', async () => {
    const customer = await signUpCustomer(t);
    freezeMidStep();
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    const renew = (confirmation: string) => t.post('/api/admin/second_factor/recovery_codes', { confirmation }, { token: customer.token, ip: someIp() });
    expect(await renew('x'.repeat(128))).toMatchObject({ code: 40000, errors: { confirmation: { message: 'validation.confirmation_wrong' } } });
    expect(await renew('x'.repeat(129))).toMatchObject({ code: 40000, errors: { confirmation: { message: 'validation.too_long' } } });
    await t.moveClock(STEP);
    expect(await renew(` ${totpCode(secret)} `)).toMatchObject({ code: 0, data: { recovery_codes: expect.any(Array) } });
    expect(messageText('en', 'validation.confirmation_wrong')).toBe('This is neither your password nor the current code from your authenticator app');
    expect(messageText('zh', 'validation.confirmation_wrong')).toBe('这既不是您的密码，也不是身份验证器应用中当前的验证码');
  });

  it("When an operator's confirmations are wrong four times from one address, then that address waits at the operators' sign-in page too; another operator is not held", async () => {
    const operator = await operatorWithRole(t, 'support');
    const other = await operatorWithRole(t, 'support');
    await enrolTotp(t, 'manage', operator.token);
    const ip = someIp();
    for (let i = 1; i <= 4; i++) {
      expect(await t.post('/api/manage/second_factor/totp_disable', { confirmation: `guess-${i}` }, { token: operator.token, ip })).toMatchObject({ code: 40000 });
    }
    expect(await passwordStep(t, 'manage', operator.username, operator.password, ip)).toMatchObject({ code: 42900 });
    expect(await passwordStep(t, 'manage', other.username, other.password, ip)).toMatchObject({ code: 0 });
  });
});

describe('the policies', () => {
  it("When a customer's team policy changes, then you_must_enrol says whether the customer still has to enrol, each change is logged once with before and after, and other customers are not concerned", async () => {
    const customer = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const policy = (required: boolean) => t.post('/api/admin/second_factor/update_team_policy', { required }, { token: customer.token });
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: customer.token })).data).toEqual({ required: false, applies_to_you: true, you_must_enrol: false });
    expect((await policy(true)).data).toEqual({ required: true, applies_to_you: true, you_must_enrol: true });
    expect((await policy(true)).data).toEqual({ required: true, applies_to_you: true, you_must_enrol: true });
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: customer.token })).data).toEqual({ required: true, applies_to_you: true, you_must_enrol: true });
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: member.token })).code).toBe(40300);
    expect((await t.get('/api/admin/second_factor/info', {}, { token: member.token })).data.required).toBe(true);
    // Another customer: their policy is off, their login and their team's are not concerned.
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: other.token })).data.required).toBe(false);
    expect((await t.get('/api/admin/second_factor/info', {}, { token: other.token })).data.required).toBe(false);
    expect((await t.get('/api/admin/second_factor/mailbox_policy', {}, { token: customer.token })).data).toEqual({ required: false });

    await enrolTotp(t, 'admin', customer.token);
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: customer.token })).data.you_must_enrol).toBe(false);
    expect((await policy(false)).data).toEqual({ required: false, applies_to_you: true, you_must_enrol: false });
    expect((await policy(false)).code).toBe(0);

    const changes = await logOf({ target_type: 'team', user_id: customer.id });
    expect(changes.map((e: { action: string; before: unknown; after: unknown }) => [e.action, e.before, e.after])).toEqual([
      ['second_factor_required', { required: false }, { required: true }],
      ['second_factor_not_required', { required: true }, { required: false }],
    ]);
    expect(changes[0]).toMatchObject({ actor_type: 'customer', actor_id: customer.id });
  });

  it("When a customer's mailbox policy changes, then it is logged once per change about the customer; the team policy is a thing apart", async () => {
    const box = await mailboxOwner(t);
    const policy = (required: boolean) => t.post('/api/admin/second_factor/update_mailbox_policy', { required }, { token: box.customer.token });
    expect((await policy(true)).data).toEqual({ required: true });
    expect((await policy(true)).data).toEqual({ required: true });
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: box.customer.token })).data.required).toBe(false);
    expect((await policy(false)).data).toEqual({ required: false });
    const changes = await logOf({ target_type: 'mailboxes', user_id: box.customer.id });
    expect(changes.map((e: { action: string }) => e.action)).toEqual(['second_factor_required', 'second_factor_not_required']);
    expect((await t.get('/api/mail/second_factor/info', {}, { token: box.token })).data.required).toBe(false);
  });

  it("When the operators' policy is set, then only a superadmin may, each change is logged once, and operators are told they must enrol", async () => {
    const billing = await operatorWithRole(t, 'billing');
    const update = (operators_required: boolean, token = root) => t.post('/api/manage/second_factor/update_policy', { operators_required }, { token });
    const before = (await logOf({ target_type: 'operators' })).length;
    try {
      expect(await update(true, billing.token)).toMatchObject({ status: 403, code: 40300 });
      expect((await t.get('/api/manage/second_factor/policy', {}, { token: billing.token })).data).toEqual({ operators_required: false });
      expect((await update(true)).data).toEqual({ operators_required: true });
      expect((await update(true)).data).toEqual({ operators_required: true });
      expect((await t.get('/api/manage/second_factor/policy', {}, { token: billing.token })).data).toEqual({ operators_required: true });
      expect((await t.get('/api/manage/second_factor/info', {}, { token: billing.token })).data.required).toBe(true);
      expect(await passwordStep(t, 'manage', billing.username, billing.password)).toMatchObject({ code: 40103, message: 'error.second_factor_enrol' });
      // Customers are not under it.
      const customer = await signUpCustomer(t);
      expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data.required).toBe(false);
      expect((await update(false)).data).toEqual({ operators_required: false });
      expect((await passwordStep(t, 'manage', billing.username, billing.password)).code).toBe(0);
    } finally {
      await update(false);
    }
    const changes = (await logOf({ target_type: 'operators' })).slice(before);
    expect(changes.map((e: { action: string; before: unknown; after: unknown }) => [e.action, e.before, e.after])).toEqual([
      ['second_factor_required', { required: false }, { required: true }],
      ['second_factor_not_required', { required: true }, { required: false }],
    ]);
  });

  it('When someone led through enrolment gets a second factor meanwhile (an app, or a passkey, from a session they hold), then the pending enrolment is over', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token: customer.token });
    const first = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(first).toMatchObject({ code: 40103, message: 'error.second_factor_enrol', params: { enrol: true, methods: ['totp', 'passkey'], expires_in: 300 } });
    await enrolTotp(t, 'admin', customer.token);
    expect(await t.post('/api/admin/login/enrol_totp', { token: first.params!.token })).toMatchObject(dead);

    const memberFirst = await pending('admin', member.email, member.password);
    await addPasskey(t, 'admin', member.token, device());
    expect(await t.post('/api/admin/login/enrol_passkey_options', { token: memberFirst })).toMatchObject(dead);
    expect(await t.post('/api/admin/login/enrol_totp', { token: memberFirst })).toMatchObject(dead);
  });

  it('When people enrol at sign-in, then the log names them as what they are: the customer, a team member, an operator, a mailbox owner', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const box = await mailboxOwner(t);
    const operator = await operatorWithRole(t, 'support');
    await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token: customer.token });
    await t.post('/api/admin/second_factor/update_mailbox_policy', { required: true }, { token: box.customer.token });
    freezeMidStep();
    const enrol = async (area: Area, login: string, password: string) => {
      const token = await pending(area, login, password);
      const started = await t.post(`/api/${area}/login/enrol_totp`, { token });
      expect(started.data.otpauth_url).toContain(`issuer=maildesk.test`);
      expect(decodeURIComponent(started.data.otpauth_url)).toContain(login);
      expect(started.data.qr_svg).toMatch(/^<svg/);
      const done = await t.post(`/api/${area}/login/enrol_totp_confirm`, { token, code: ` ${totpCode(started.data.secret)} ` });
      expect(done).toMatchObject({ code: 0, data: { token: expect.any(String), recovery_codes: expect.any(Array) } });
      expect(done.data.recovery_codes).toHaveLength(10);
      return done;
    };
    await enrol('admin', customer.email, customer.password);
    await enrol('admin', member.email, member.password);
    await enrol('mail', box.address, box.password);
    try {
      await t.post('/api/manage/second_factor/update_policy', { operators_required: true }, { token: root });
      await enrol('manage', operator.username, operator.password);
    } finally {
      await t.post('/api/manage/second_factor/update_policy', { operators_required: false }, { token: root });
    }
    const entry = async (targetType: string, id: number) => (await logOf({ action: 'totp_enable', target_type: targetType, target_id: id }))[0];
    expect(await entry('user', customer.id)).toMatchObject({ actor_type: 'customer', actor_id: customer.id, actor_name: customer.email, user_id: customer.id, after: { email: customer.email, at_sign_in: true } });
    expect(await entry('user', member.id)).toMatchObject({ actor_type: 'team_member', actor_id: member.id, actor_name: member.email, user_id: customer.id, after: { email: member.email, at_sign_in: true } });
    expect(await entry('email', box.id)).toMatchObject({ actor_type: 'mailbox', actor_id: box.id, actor_name: box.address, user_id: box.customer.id, after: { address: box.address, at_sign_in: true } });
    expect(await entry('operator', operator.id)).toMatchObject({ actor_type: 'operator', actor_id: operator.id, actor_name: operator.username, user_id: null, after: { username: operator.username, at_sign_in: true } });
  });
});

describe('the last second factor under a policy', () => {
  it('When an app and a passkey are both on, then either may go and the other is then the last; with nothing on, turning the app off is no error; an unknown passkey is not found', async () => {
    const customer = await signUpCustomer(t);
    const { token } = customer;
    await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token });
    const off = () => t.post('/api/admin/second_factor/totp_disable', { confirmation: customer.password }, { token, ip: someIp() });
    const last = { status: 409, code: 40900, message: 'error.second_factor_last' };
    // The session predates the policy: nothing on, nothing to turn off.
    expect(await off()).toMatchObject({ code: 0, data: { totp: false, passkeys: [], required: true } });

    await enrolTotp(t, 'admin', token);
    expect(await t.post('/api/admin/second_factor/passkey_delete', { id: 99_999_999 }, { token })).toMatchObject({ status: 404, code: 40400 });
    expect(await off()).toMatchObject(last);
    const key = await addPasskey(t, 'admin', token, device());
    expect(await off()).toMatchObject({ code: 0, data: { totp: false, passkeys: [{ id: key.id }] } });
    expect(await t.post('/api/admin/second_factor/passkey_delete', { id: key.id }, { token })).toMatchObject(last);
    expect(messageText('en', last.message)).toBe('A second factor is required of you here: add another (a passkey or an authenticator app) before removing the last one.');
    expect(messageText('zh', last.message)).toBe('此处要求您使用第二重验证：请先添加另一种方式（通行密钥或身份验证器应用），再移除最后一种。');

    await enrolTotp(t, 'admin', token);
    expect(await t.post('/api/admin/second_factor/passkey_delete', { id: key.id }, { token })).toMatchObject({ code: 0, data: { totp: true, passkeys: [] } });
    const log = await logOf({ target_type: 'user', target_id: customer.id });
    expect(log.filter((e: { action: string }) => /^(totp|passkey)_/.test(e.action)).map((e: { action: string; after: unknown }) => [e.action, e.after])).toEqual([
      ['totp_enable', { email: customer.email }],
      ['passkey_add', { email: customer.email, name: 'Laptop' }],
      ['totp_disable', { email: customer.email }],
      ['totp_enable', { email: customer.email }],
      ['passkey_remove', { email: customer.email, name: 'Laptop' }],
    ]);
  });
});

describe("an operator's reset", () => {
  it("When support resets a team member's second factors, then the app, its recovery codes and both passkeys go, the customer's log says why, and a second reset finds nothing", async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    await enrolTotp(t, 'admin', member.token);
    await addPasskey(t, 'admin', member.token, device(), 'One');
    await addPasskey(t, 'admin', member.token, device(), 'Two');
    const support = await operatorWithRole(t, 'support');
    const billing = await operatorWithRole(t, 'billing');
    const reset = (token: string, id = member.id) => t.post('/api/manage/user/reset_second_factor', { id, reason: 'Lost phone' }, { token });
    expect(await reset(billing.token)).toMatchObject({ status: 403, code: 40300 });
    expect(await reset(support.token, 99_999_999)).toMatchObject({ status: 404, code: 40400, message: 'error.not_found' });
    expect(await reset(support.token)).toMatchObject({ code: 0, data: { totp_removed: true, passkeys_removed: 2 } });
    const codes = await t.services.db.selectFrom('recovery_code').select('id').where('holder_kind', '=', 'customer').where('holder_id', '=', member.id).execute();
    expect(codes).toEqual([]);
    expect((await t.get('/api/admin/second_factor/info', {}, { token: member.token })).data).toMatchObject({ totp: false, recovery_codes_left: 0, passkeys: [] });
    expect((await passwordStep(t, 'admin', member.email, member.password)).code).toBe(0);
    expect(await reset(support.token)).toMatchObject({ code: 0, data: { totp_removed: false, passkeys_removed: 0 } });

    const seen = await t.post('/api/admin/log/list', { filter: { action: 'second_factor_reset' }, sort: 'id', order: 'asc' }, { token: customer.token });
    expect(seen.data.list).toHaveLength(2);
    expect(seen.data.list[0]).toMatchObject({ target_type: 'user', target_id: member.id, after: { email: member.email, reason: 'Lost phone', totp_removed: true, passkeys_removed: 2 } });
  });
});

describe('API keys', () => {
  it('When a script calls any second-factor call with an API key, then it is refused: keys never manage second factors', async () => {
    const customer = await signUpCustomer(t);
    const operator = await operatorWithRole(t, 'superadmin');
    const keyOf = async (area: 'admin' | 'manage', token: string, password: string) =>
      (await t.post(`/api/${area}/api_key/create`, { name: 'Script', access: 'write', confirmation: password }, { token, ip: someIp() })).data.key as string;
    const keys = { admin: await keyOf('admin', customer.token, customer.password), manage: await keyOf('manage', operator.token, operator.password) };
    const calls = [
      ...(['admin', 'manage'] as const).flatMap((area) =>
        ['GET info', 'POST totp_start', 'POST totp_confirm', 'POST totp_disable', 'POST recovery_codes', 'POST passkey_options', 'POST passkey_add', 'POST passkey_delete'].map(
          (call) => [area, call.split(' ')[0], `/api/${area}/second_factor/${call.split(' ')[1]}`] as const,
        ),
      ),
      ['manage', 'GET', '/api/manage/second_factor/policy'],
      ['manage', 'POST', '/api/manage/second_factor/update_policy'],
      ['manage', 'POST', '/api/manage/user/reset_second_factor'],
      ['admin', 'GET', '/api/admin/second_factor/team_policy'],
      ['admin', 'POST', '/api/admin/second_factor/update_team_policy'],
      ['admin', 'GET', '/api/admin/second_factor/mailbox_policy'],
      ['admin', 'POST', '/api/admin/second_factor/update_mailbox_policy'],
    ] as const;
    for (const [area, method, url] of calls) {
      const options = { token: '', headers: { authorization: `Bearer ${keys[area]}` } };
      const answer = method === 'GET' ? await t.get(url, {}, options) : await t.post(url, {}, options);
      expect(answer, url).toMatchObject({ status: 403, code: 40300, message: 'error.api_key_not_here' });
    }
  });
});
