/**
 * Sign-in protection without a lockout button (OWASP): wrong passwords are throttled per
 * (account, address) and per address with growing waits; the owner, signing in from an
 * address that has not been failing, always gets in, and is told by e-mail once the account
 * is being guessed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const customerLogin = (email: string, password: string, ip: string) => t.post('/api/admin/login/login', { email, password }, { ip });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const noticesTo = async (email: string) => (await t.outbox()).filter((m) => m.to === email && /guess|猜测/.test(m.subject)).length;

describe('customers', () => {
  it('When an attacker sends 1,000 wrong passwords from one address, then few are even checked, and the owner signs in from their own address', async () => {
    const owner = await signUpCustomer(t);
    const attacker = someIp();
    const codes: number[] = [];
    for (let i = 0; i < 1000; i++) codes.push((await customerLogin(owner.email, `guess-${i}`, attacker)).code);
    // 3 free failures, then one more each time a wait (1 s, 2 s, 4 s, …) has run out while the loop ran.
    const checked = codes.filter((c) => c === 40101).length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === 42900).length).toBe(1000 - checked);
    // The attacker's address waits even with the right password: it cannot tell a hit.
    expect((await customerLogin(owner.email, owner.password, attacker)).code).toBe(42900);
    expect(await customerLogin(owner.email, owner.password, someIp())).toMatchObject({ code: 0, data: { email: owner.email } });
  });

  it('When an attacker spreads 1,000 wrong passwords over 200 addresses, then each address is held after its first failure once the account is being guessed, the owner still gets in, and is told by e-mail once', async () => {
    const owner = await signUpCustomer(t);
    const attackers = Array.from({ length: 200 }, () => someIp());
    let checked = 0;
    for (const ip of attackers) {
      for (let i = 0; i < 5; i++) {
        const reply = await customerLogin(owner.email, `guess-${i}-${ip}`, ip);
        expect([40101, 42900]).toContain(reply.code);
        if (reply.code === 40101) checked++;
      }
    }
    // The first addresses get their free failures (3, then one more before a wait) until the
    // account counts as guessed after 10; from then on every address gets one guess.
    expect(checked).toBeLessThanOrEqual(10 + 200);
    expect(await customerLogin(owner.email, owner.password, someIp())).toMatchObject({ code: 0 });
    expect(await noticesTo(owner.email)).toBe(1);
    const log = await t.post('/api/admin/log/list', { filter: { action: 'sign_in_guessed' } }, { token: owner.token });
    expect(log.data.total).toBe(1);
  }, 120_000);

  it('When one address keeps failing, then its waits grow (1 s, 2 s, 4 s …) and say how long in retry_after', async () => {
    const owner = await signUpCustomer(t);
    const ip = someIp();
    for (let i = 0; i < 3; i++) expect((await customerLogin(owner.email, 'wrong-password', ip)).code).toBe(40101);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await customerLogin(owner.email, 'wrong-password', ip)).code).toBe(40101);
      const held = await customerLogin(owner.email, 'wrong-password', ip);
      expect(held).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited' });
      waits.push(held.params!.retry_after as number);
      await sleep((held.params!.retry_after as number) * 1000 + 50);
    }
    expect(waits).toEqual([1, 2, 4]);
    // After the wait, the right password from that address works, and its failures are forgotten.
    expect((await customerLogin(owner.email, owner.password, ip)).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await customerLogin(owner.email, 'wrong-password', ip)).code).toBe(40101);
  }, 30_000);

  it('When one address tries many accounts, then it is held for every account', async () => {
    const someoneElse = await signUpCustomer(t);
    const ip = someIp();
    const codes: number[] = [];
    for (let i = 0; i < 22; i++) codes.push((await customerLogin(uniqueEmail('spray'), 'whatever-1', ip)).code);
    expect(codes.slice(0, 21).every((c) => c === 40101)).toBe(true);
    expect(codes.at(-1)).toBe(42900);
    expect((await customerLogin(someoneElse.email, someoneElse.password, ip)).code).toBe(42900);
    expect((await customerLogin(someoneElse.email, someoneElse.password, someIp())).code).toBe(0);
  });

  it('When wrong current passwords are sent to me/update_password, then they count like wrong sign-ins from that address', async () => {
    const owner = await signUpCustomer(t);
    const ip = someIp();
    for (let i = 0; i < 4; i++) {
      expect(await t.post('/api/admin/me/update_password', { old_password: `wrong-${i}`, password: 'new-password-1' }, { token: owner.token, ip })).toMatchObject({
        code: 40000,
        errors: { old_password: { message: 'validation.wrong_password' } },
      });
    }
    expect((await t.post('/api/admin/me/update_password', { old_password: owner.password, password: 'new-password-1' }, { token: owner.token, ip })).code).toBe(42900);
    expect((await customerLogin(owner.email, owner.password, ip)).code).toBe(42900);
    expect((await customerLogin(owner.email, owner.password, someIp())).code).toBe(0);
  });
});

describe('operators', () => {
  it('When an operator name is guessed 1,000 times from many addresses, then the operator still signs in and the log says it was guessed', async () => {
    const target = await operatorWithRole(t, 'support');
    const attackers = Array.from({ length: 100 }, () => someIp());
    for (let i = 0; i < 1000; i++) {
      const reply = await t.post('/api/manage/login/login', { username: target.username, password: `guess-${i}` }, { ip: attackers[i % attackers.length] });
      expect([40101, 42900]).toContain(reply.code);
    }
    expect((await t.post('/api/manage/login/login', { username: target.username, password: target.password }, { ip: someIp() })).code).toBe(0);
    expect((await t.post('/api/manage/login/login', { username: ROOT.username, password: ROOT.password }, { ip: someIp() })).code).toBe(0);
    const root = await operatorLogin(t);
    const log = await t.post('/api/manage/log/list', { filter: { action: 'sign_in_guessed', target_type: 'operator', target_id: target.id } }, { token: root });
    expect(log.data.list).toEqual([expect.objectContaining({ target_id: target.id })]);
  }, 120_000);
});
