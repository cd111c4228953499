/**
 * The customer's policies (issue 33, still open): the team policy covers the customer's own login
 * too; a policy for the owners of the customer's mailboxes in the mail area; and a person a policy
 * leads through enrolment at sign-in may enrol a passkey there instead of an authenticator app.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/authenticator.js';
import { signUpCustomer, someIp, teamMemberOf } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';
import { addPasskey, enrolTotp, nextStep, passwordStep, totpCode, type Area } from '../helpers/second-factor.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(() => t.resetClock());
afterAll(() => t.close());

const device = () => new SoftAuthenticator('http://maildesk.test');

/** Enrols a passkey made by `holder` through the pending enrolment `token`: the answer is the session. */
async function enrolPasskeyAtSignIn(area: Area, token: string, holder: SoftAuthenticator) {
  const options = await t.post(`/api/${area}/login/enrol_passkey_options`, { token }, { ip: someIp() });
  expect(options).toMatchObject({ code: 0, data: { challenge_token: expect.any(String), options: { rp: { id: 'maildesk.test' } } } });
  return t.post(`/api/${area}/login/enrol_passkey`, { token, challenge_token: options.data.challenge_token, name: 'Phone', response: holder.create(options.data.options) }, { ip: someIp() });
}

describe("the team policy covers the customer's own login", () => {
  it('When a customer without a second factor requires one of their team, then the answer says it applies to them, and their own next sign-in leads through enrolment', async () => {
    const customer = await signUpCustomer(t);
    expect(await t.get('/api/admin/second_factor/team_policy', {}, { token: customer.token })).toMatchObject({ code: 0, data: { required: false, applies_to_you: true, you_must_enrol: false } });
    // Off: the password alone signs the customer in.
    expect((await passwordStep(t, 'admin', customer.email, customer.password)).code).toBe(0);

    const on = await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token: customer.token });
    expect(on).toMatchObject({ code: 0, data: { required: true, applies_to_you: true, you_must_enrol: true } });
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data).toMatchObject({ required: true });
    // The session they hold goes on, as an operator's does under the operators' policy.
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: customer.token })).code).toBe(0);

    const first = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(first).toMatchObject({ code: 40103, message: 'error.second_factor_enrol', params: { enrol: true } });
    const started = await t.post('/api/admin/login/enrol_totp', { token: first.params!.token });
    const done = await t.post('/api/admin/login/enrol_totp_confirm', { token: first.params!.token, code: totpCode(started.data.secret) });
    expect(done).toMatchObject({ code: 0, data: { id: customer.id, email: customer.email, token: expect.any(String) } });
    expect((await t.get('/api/admin/second_factor/team_policy', {}, { token: done.data.token })).data).toEqual({ required: true, applies_to_you: true, you_must_enrol: false });

    // Off again: a customer with a second factor is asked for it, as before any policy.
    await nextStep(t);
    expect((await t.post('/api/admin/second_factor/update_team_policy', { required: false }, { token: done.data.token })).data).toEqual({ required: false, applies_to_you: true, you_must_enrol: false });
    expect(await passwordStep(t, 'admin', customer.email, customer.password)).toMatchObject({ code: 40103, message: 'error.second_factor_needed', params: { enrol: false } });
  });

  it('When a customer who has a second factor turns the policy on, then they are asked for it and not led through enrolment; another customer is not concerned', async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    expect((await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token: customer.token })).data).toEqual({ required: true, applies_to_you: true, you_must_enrol: false });
    expect(await passwordStep(t, 'admin', customer.email, customer.password)).toMatchObject({ code: 40103, message: 'error.second_factor_needed', params: { enrol: false, methods: ['totp', 'recovery_code'] } });
    const other = await signUpCustomer(t);
    expect((await passwordStep(t, 'admin', other.email, other.password)).code).toBe(0);
  });
});

describe("the policy for the owners of a customer's mailboxes", () => {
  it('When a customer requires a second factor of their mailbox owners, then an owner without one enrols at the next sign-in to the mail area; off, the password alone signs in again', async () => {
    const box = await mailboxOwner(t);
    const { customer } = box;
    const member = await teamMemberOf(t, customer);
    const plain = await mailboxOwner(t, customer, { domainId: box.domainId });
    expect(await t.get('/api/admin/second_factor/mailbox_policy', {}, { token: customer.token })).toMatchObject({ code: 0, data: { required: false } });
    expect((await t.post('/api/admin/second_factor/update_mailbox_policy', { required: true }, { token: member.token })).code).toBe(40300);
    expect((await passwordStep(t, 'mail', box.address, box.password)).code).toBe(0);

    expect(await t.post('/api/admin/second_factor/update_mailbox_policy', { required: true }, { token: customer.token })).toMatchObject({ code: 0, data: { required: true } });
    expect((await t.get('/api/admin/second_factor/mailbox_policy', {}, { token: customer.token })).data).toEqual({ required: true });
    expect((await t.get('/api/mail/second_factor/info', {}, { token: box.token })).data).toMatchObject({ required: true });
    // Not the team policy: the customer's and the member's own sign-ins are unchanged.
    expect((await passwordStep(t, 'admin', customer.email, customer.password)).code).toBe(0);
    expect((await passwordStep(t, 'admin', member.email, member.password)).code).toBe(0);
    // Another customer's mailboxes are not concerned.
    const otherBox = await mailboxOwner(t);
    expect((await passwordStep(t, 'mail', otherBox.address, otherBox.password)).code).toBe(0);

    const first = await passwordStep(t, 'mail', box.address, box.password);
    expect(first).toMatchObject({ code: 40103, message: 'error.second_factor_enrol', params: { enrol: true } });
    const started = await t.post('/api/mail/login/enrol_totp', { token: first.params!.token });
    const done = await t.post('/api/mail/login/enrol_totp_confirm', { token: first.params!.token, code: totpCode(started.data.secret) });
    expect(done).toMatchObject({ code: 0, data: { id: box.id, email: box.address, token: expect.any(String), recovery_codes: expect.any(Array) } });

    await nextStep(t);
    expect(await passwordStep(t, 'mail', box.address, box.password)).toMatchObject({ code: 40103, message: 'error.second_factor_needed', params: { enrol: false } });

    const log = await t.post('/api/admin/log/list', { filter: { action: 'second_factor_required' } }, { token: customer.token });
    expect(log.data.list[0]).toMatchObject({ target_type: 'mailboxes', before: { required: false }, after: { required: true } });

    // Off: a mailbox owner without a second factor signs in with the password alone again.
    expect((await passwordStep(t, 'mail', plain.address, plain.password)).code).toBe(40103);
    expect((await t.post('/api/admin/second_factor/update_mailbox_policy', { required: false }, { token: customer.token })).data).toEqual({ required: false });
    expect((await passwordStep(t, 'mail', plain.address, plain.password)).code).toBe(0);
  });
});

describe('a passkey enrolled at sign-in', () => {
  it('When a mailbox owner must enrol, then a passkey may be enrolled instead of an authenticator app, the answer is the session, and the next sign-in asks for that passkey', async () => {
    const box = await mailboxOwner(t);
    await t.post('/api/admin/second_factor/update_mailbox_policy', { required: true }, { token: box.customer.token });
    const first = await passwordStep(t, 'mail', box.address, box.password);
    expect(first).toMatchObject({ code: 40103, params: { enrol: true, methods: ['totp', 'passkey'] } });

    // A wrong answer from the device enrols nothing.
    const options = await t.post('/api/mail/login/enrol_passkey_options', { token: first.params!.token }, { ip: someIp() });
    const bad = await t.post('/api/mail/login/enrol_passkey', { token: first.params!.token, challenge_token: options.data.challenge_token, name: 'Phone', response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'e30' } } });
    expect(bad).toMatchObject({ code: 40102, message: 'error.passkey_failed' });

    const phone = device();
    const done = await enrolPasskeyAtSignIn('mail', String(first.params!.token), phone);
    expect(done).toMatchObject({ code: 0, data: { id: box.id, email: box.address, token: expect.any(String) } });
    expect((await t.get('/api/mail/second_factor/info', {}, { token: done.data.token })).data).toMatchObject({ totp: false, passkeys: [{ name: 'Phone' }], required: true });
    // The pending enrolment is used up.
    expect((await t.post('/api/mail/login/enrol_passkey_options', { token: first.params!.token })).message).toBe('error.second_factor_expired');

    const next = await passwordStep(t, 'mail', box.address, box.password);
    expect(next).toMatchObject({ code: 40103, message: 'error.second_factor_needed', params: { enrol: false, methods: ['passkey'] } });
    // Someone with a second factor cannot enrol another through a pending sign-in.
    expect((await t.post('/api/mail/login/enrol_passkey_options', { token: next.params!.token })).code).toBe(40102);
    const step = await t.post('/api/mail/login/passkey_options', { token: next.params!.token }, { ip: someIp() });
    const signedIn = await t.post('/api/mail/login/passkey', { token: next.params!.token, challenge_token: step.data.challenge_token, response: phone.get(step.data.options) }, { ip: someIp() });
    expect(signedIn).toMatchObject({ code: 0, data: { id: box.id, token: expect.any(String) } });

    const log = await t.post('/api/admin/log/list', { filter: { action: 'passkey_add' } }, { token: box.customer.token });
    expect(log.data.list[0]).toMatchObject({ actor_type: 'mailbox', target_id: box.id, after: { name: 'Phone', at_sign_in: true } });
  });

  it('When a person has a passkey already, or no policy leads them through enrolment, then enrol_passkey_options is refused', async () => {
    const customer = await signUpCustomer(t);
    await addPasskey(t, 'admin', customer.token, device());
    await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token: customer.token });
    const pending = await passwordStep(t, 'admin', customer.email, customer.password);
    expect(pending).toMatchObject({ code: 40103, params: { enrol: false, methods: ['passkey'] } });
    expect((await t.post('/api/admin/login/enrol_passkey_options', { token: pending.params!.token })).message).toBe('error.second_factor_expired');
  });
});

describe('the last second factor under a policy', () => {
  it('When a policy requires a second factor, then the last one cannot be removed (TOTP off, the last passkey) until another is added; without the policy it can', async () => {
    const customer = await signUpCustomer(t);
    const { token } = customer;
    const first = await addPasskey(t, 'admin', token, device(), 'Phone');
    await t.post('/api/admin/second_factor/update_team_policy', { required: true }, { token });
    const last = { status: 409, code: 40900, message: 'error.second_factor_last' };
    expect(await t.post('/api/admin/second_factor/passkey_delete', { id: first.id }, { token })).toMatchObject(last);

    // One past the last: with a second passkey, one of them may go, and the other is then the last.
    const second = await addPasskey(t, 'admin', token, device(), 'Laptop');
    expect((await t.post('/api/admin/second_factor/passkey_delete', { id: first.id }, { token })).code).toBe(0);
    expect(await t.post('/api/admin/second_factor/passkey_delete', { id: second.id }, { token })).toMatchObject(last);

    // An authenticator app beside it: the passkey may go, and then the app is the last.
    await enrolTotp(t, 'admin', token);
    expect((await t.post('/api/admin/second_factor/passkey_delete', { id: second.id }, { token })).code).toBe(0);
    expect(await t.post('/api/admin/second_factor/totp_disable', { confirmation: customer.password }, { token })).toMatchObject(last);
    expect((await t.get('/api/admin/second_factor/info', {}, { token })).data).toMatchObject({ totp: true, passkeys: [], required: true });

    // Without the policy the last one goes.
    await t.post('/api/admin/second_factor/update_team_policy', { required: false }, { token });
    expect(await t.post('/api/admin/second_factor/totp_disable', { confirmation: customer.password }, { token })).toMatchObject({ code: 0, data: { totp: false, passkeys: [] } });
  });

  it("When a mailbox owner under the customer's policy removes a passkey of another person's id, then it is not found, and their own last one stays", async () => {
    const box = await mailboxOwner(t);
    const other = await signUpCustomer(t);
    const theirs = await addPasskey(t, 'admin', other.token, device());
    await t.post('/api/admin/second_factor/update_mailbox_policy', { required: true }, { token: box.customer.token });
    const own = await addPasskey(t, 'mail', box.token, device());
    expect((await t.post('/api/mail/second_factor/passkey_delete', { id: theirs.id }, { token: box.token })).code).toBe(40400);
    expect((await t.post('/api/mail/second_factor/passkey_delete', { id: own.id }, { token: box.token })).message).toBe('error.second_factor_last');
  });
});
