/**
 * Issue 33 (3.6): passkey sign-in without a password had no limit (every options call stored a
 * challenge row), and guessing second-factor codes after the right password told nobody.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { limits, signInPolicy } from '../../server/core/rate-limit.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/authenticator.js';
import { signUpCustomer, someIp } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';
import { addPasskey, enrolTotp, passwordStep, type Area } from '../helpers/second-factor.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(() => t.resetClock());
afterAll(() => t.close());

const challengeRows = async () => Number((await t.services.db.selectFrom('second_factor_challenge').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const madeUp = { id: 'made-up', rawId: 'made-up', type: 'public-key', response: { clientDataJSON: 'e30' } };

describe('passkey sign-in from one address', () => {
  it('When one address asks for passkey sign-in options 50 times, then each is answered; the 51st is refused (42900) and stores nothing; another address is still answered', async () => {
    const ip = someIp();
    expect(limits.passkeyOptionsPerIp.max).toBe(50);
    for (let i = 1; i <= 50; i++) expect((await t.post('/api/admin/login/passkey_options', {}, { ip })).code, `call ${i}`).toBe(0);
    const before = await challengeRows();
    expect(await t.post('/api/admin/login/passkey_options', {}, { ip })).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited', params: { retry_after: expect.any(Number) } });
    expect(await t.post('/api/mail/login/passkey_options', {}, { ip })).toMatchObject({ code: 42900 });
    expect(await challengeRows()).toBe(before);
    expect((await t.post('/api/admin/login/passkey_options', {}, { ip: someIp() })).code).toBe(0);
  });

  it('When one address tries 50 passkey sign-ins, then each is checked; the 51st is refused (42900) even with a real passkey, which works from another address', async () => {
    const customer = await signUpCustomer(t);
    const laptop = new SoftAuthenticator('http://maildesk.test');
    await addPasskey(t, 'admin', customer.token, laptop);
    const ip = someIp();
    for (let i = 1; i <= 50; i++) {
      expect((await t.post('/api/admin/login/passkey', { challenge_token: `made-up-${i}`, response: madeUp }, { ip })).code, `try ${i}`).toBe(40102);
    }
    const options = await t.post('/api/admin/login/passkey_options', {}, { ip: someIp() });
    const answer = { challenge_token: options.data.challenge_token, response: laptop.get(options.data.options) };
    expect(await t.post('/api/admin/login/passkey', answer, { ip })).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited' });
    expect(await t.post('/api/admin/login/passkey', answer, { ip: someIp() })).toMatchObject({ code: 0, data: { id: customer.id } });
  });

  it('When passkey options are never used, then housekeeping removes their rows once they expire; a used challenge is kept a day', async () => {
    const customer = await signUpCustomer(t);
    const laptop = new SoftAuthenticator('http://maildesk.test');
    await addPasskey(t, 'admin', customer.token, laptop);
    const unused = await t.post('/api/admin/login/passkey_options', {}, { ip: someIp() });
    const used = await t.post('/api/admin/login/passkey_options', {}, { ip: someIp() });
    expect((await t.post('/api/admin/login/passkey', { challenge_token: used.data.challenge_token, response: laptop.get(used.data.options) }, { ip: someIp() })).code).toBe(0);
    const rowOf = async (options: typeof unused) =>
      t.services.db.selectFrom('second_factor_challenge').select('id').where('challenge', '=', options.data.options.challenge).executeTakeFirst();
    expect(await rowOf(unused)).toBeDefined();
    // Still live at four minutes: housekeeping leaves it.
    await t.moveClock(4 * 60_000);
    await t.services.jobs.runSchedule('housekeeping');
    expect(await rowOf(unused)).toBeDefined();
    await t.moveClock(2 * 60_000);
    await t.services.jobs.runSchedule('housekeeping');
    expect(await rowOf(unused)).toBeUndefined();
    expect(await rowOf(used)).toBeDefined();
    await t.moveClock(24 * 60 * 60_000);
    await t.services.jobs.runSchedule('housekeeping');
    expect(await rowOf(used)).toBeUndefined();
  });
});

describe('guessing second-factor codes', () => {
  /** Wrong codes after the right password, each from a new address (so none waits), five per pending sign-in. */
  async function wrongCodes(area: Area, login: string, password: string, count: number) {
    let token = '';
    for (let i = 0; i < count; i++) {
      if (i % 5 === 0) token = (await passwordStep(t, area, login, password)).params?.token as string;
      expect((await t.post(`/api/${area}/login/second_factor`, { token, code: '000000' }, { ip: someIp() })).code).toBe(40102);
    }
  }
  const noticesTo = async (email: string) => (await t.outbox()).filter((m) => m.to === email && /second factor|第二重验证/.test(m.subject));

  it('When someone with the password gives 9 wrong codes, then the owner hears nothing; at the 10th they are e-mailed once, in their language, and the log says so; more wrong codes send no second mail', async () => {
    const customer = await signUpCustomer(t);
    expect((await t.post('/api/admin/me/update_locale', { locale: 'zh' }, { token: customer.token })).code).toBe(0);
    await enrolTotp(t, 'admin', customer.token);
    const guessed = async () => (await t.post('/api/admin/log/list', { filter: { action: 'second_factor_guessed' } }, { token: customer.token })).data;

    await wrongCodes('admin', customer.email, customer.password, signInPolicy.accountGuessedAfter - 1);
    expect(await noticesTo(customer.email)).toHaveLength(0);
    expect((await guessed()).total).toBe(0);

    await wrongCodes('admin', customer.email, customer.password, 1);
    const notices = await noticesTo(customer.email);
    expect(notices).toHaveLength(1);
    expect(notices[0].subject).toBe('知道您 Maildesk 密码的人正在猜测您的第二重验证');
    expect(notices[0].text).toContain(customer.email);
    const log = await guessed();
    expect(log.total).toBe(1);
    expect(log.list[0]).toMatchObject({ target_type: 'user', target_id: customer.id });

    await wrongCodes('admin', customer.email, customer.password, 5);
    expect(await noticesTo(customer.email)).toHaveLength(1);
    expect((await guessed()).total).toBe(1);
  }, 60_000);

  it("When a mailbox owner's codes are being guessed, then the mailbox itself is told, and its customer's log shows it", async () => {
    const box = await mailboxOwner(t);
    await enrolTotp(t, 'mail', box.token);
    await wrongCodes('mail', box.address, box.password, signInPolicy.accountGuessedAfter);
    const notices = await noticesTo(box.address);
    expect(notices).toHaveLength(1);
    expect(notices[0].subject).toMatch(/^Someone who knows your Maildesk password is guessing your second factor$|^知道您/);
    const log = await t.post('/api/admin/log/list', { filter: { action: 'second_factor_guessed' } }, { token: box.customer.token });
    expect(log.data.list[0]).toMatchObject({ target_type: 'email', target_id: box.id });
  }, 60_000);
});
