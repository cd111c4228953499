/**
 * The mailbox owners' area (issue 21): the people who read the mail sign in with the mailbox's
 * address and password, see their mailbox, change their password, set out-of-office and
 * forwarding (which the customer's team and operators can set too), and make app passwords.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, someIp, uniqueEmail } from '../helpers/fixtures.js';
import { GiB, mailboxOwner, mailFixtures, MiB, uniqueDomain } from '../helpers/mail-fixtures.js';
import { verifySchemeHash } from '../../server/mail/password-schemes.js';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
beforeAll(async () => {
  t = await startTestApp();
  mail = mailFixtures(t);
});
afterAll(() => t.close());

const login = (email: string, password: string, ip = someIp()) => t.post('/api/mail/login/login', { email, password }, { ip });
const info = (token: string) => t.get('/api/mail/me/info', {}, { token });
const passwordHashOf = async (id: number) => (await t.services.db.selectFrom('mailbox').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;
const sieveOf = (id: number) => t.services.db.selectFrom('mailbox_sieve').selectAll().where('mailbox_id', '=', id).executeTakeFirst();
const logOf = (action: string, targetId: number) =>
  t.services.db.selectFrom('log').selectAll().where('action', '=', action).where('target_id', '=', targetId).orderBy('id', 'desc').execute();
/** Everything a refused call could have changed. */
const state = async (mailboxId: number) =>
  JSON.stringify(
    await Promise.all([
      t.services.db.selectFrom('mailbox').selectAll().where('id', '=', mailboxId).execute(),
      t.services.db.selectFrom('mailbox_rule').selectAll().where('mailbox_id', '=', mailboxId).execute(),
      t.services.db.selectFrom('mailbox_sieve').selectAll().where('mailbox_id', '=', mailboxId).execute(),
      t.services.db.selectFrom('app_password').selectAll().where('mailbox_id', '=', mailboxId).execute(),
    ]),
  );

describe('the bar', () => {
  it('When, on a fresh start, an operator creates a customer, capacity, a verified domain and a mailbox through the API, then the mailbox signs in to /api/mail, and the OpenAPI description lists the area', async () => {
    const fresh = await startTestApp();
    try {
      const operator = await operatorLogin(fresh);
      const customer = await fresh.post('/api/manage/user/create', { email: uniqueEmail(), password: 'customer-pass-1' }, { token: operator });
      expect(customer.code).toBe(0);
      expect((await fresh.post('/api/manage/storage/create', { owner_id: customer.data.id, size: GiB }, { token: operator })).code).toBe(0);
      const domain = await fresh.post('/api/manage/domain/create', { name: uniqueDomain(), owner_id: customer.data.id }, { token: operator });
      expect((await fresh.post('/api/manage/domain/update', { id: domain.data.id, status: 'active' }, { token: operator })).code).toBe(0);
      const box = await fresh.post('/api/manage/email/create', { domain_id: domain.data.id, local_part: 'anna', password: 'anna-password-1', quota: 100 * MiB }, { token: operator });
      expect(box.code).toBe(0);

      const signedIn = await fresh.post('/api/mail/login/login', { email: box.data.address, password: 'anna-password-1' }, { ip: someIp() });
      expect(signedIn).toMatchObject({ code: 0, data: { id: box.data.id, email: box.data.address, token: expect.any(String) } });
      expect(await fresh.get('/api/mail/me/info', {}, { token: signedIn.data.token })).toMatchObject({ code: 0, data: { address: box.data.address, quota: 100 * MiB } });

      const document = (await fresh.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      const mailPaths = Object.keys(document.paths).filter((p) => p.startsWith('/api/mail/')).sort();
      expect(mailPaths).toEqual(
        [
          '/api/mail/app_password/create',
          '/api/mail/app_password/delete',
          '/api/mail/app_password/list',
          '/api/mail/login/login',
          '/api/mail/login/logout',
          // Second factors (server/security)
          '/api/mail/login/second_factor',
          '/api/mail/login/passkey_options',
          '/api/mail/login/passkey',
          '/api/mail/login/enrol_totp',
          '/api/mail/login/enrol_totp_confirm',
          '/api/mail/login/enrol_passkey_options',
          '/api/mail/login/enrol_passkey',
          '/api/mail/second_factor/info',
          '/api/mail/second_factor/totp_start',
          '/api/mail/second_factor/totp_confirm',
          '/api/mail/second_factor/totp_disable',
          '/api/mail/second_factor/recovery_codes',
          '/api/mail/second_factor/passkey_options',
          '/api/mail/second_factor/passkey_add',
          '/api/mail/second_factor/passkey_delete',
          // Bringing the mail (server/imports/mail-copy): the owner sees the copies into the mailbox
          '/api/mail/mail_copy/get',
          '/api/mail/mail_copy/list',
          '/api/mail/me/client_settings',
          '/api/mail/me/info',
          '/api/mail/me/update_password',
          '/api/mail/me/update_settings',
          '/api/mail/rules/info',
          '/api/mail/rules/update_forwarding',
          '/api/mail/rules/update_out_of_office',
          '/api/mail/session/end',
          '/api/mail/session/end_others',
          '/api/mail/session/list',
          '/api/mail/spam/info',
          '/api/mail/spam/update',
          '/api/mail/spam_list/create',
          '/api/mail/spam_list/delete',
          '/api/mail/spam_list/list',
        ].sort(),
      );
      expect(document.paths['/api/mail/me/info'].get['x-caller']).toMatch(/mailbox owner/);
      // Each call says what it does, under its group.
      for (const path of mailPaths) expect(Object.values(document.paths[path])[0], path).toMatchObject({ summary: expect.stringMatching(/\w{3}/), tags: [expect.stringMatching(/^mail\/[a-z_]+$/)] });
    } finally {
      await fresh.close();
    }
  });
});

describe('signing in', () => {
  it('When the address is unknown or the password wrong, then the answer is the same, the attempt is logged, and repeated failures are throttled', async () => {
    const owner = await mailboxOwner(t);
    const ip = someIp();
    const wrong = await login(owner.address, 'not-the-password', ip);
    const unknown = await login(`nobody@${owner.address.split('@')[1]}`, 'not-the-password', ip);
    expect(wrong).toMatchObject({ code: 40101, message: 'error.bad_credentials', data: null });
    expect(unknown).toMatchObject({ code: wrong.code, message: wrong.message, data: null });
    expect((await logOf('login_failed', owner.id))[0]).toMatchObject({ target_type: 'email', user_id: owner.customer.id });
    expect(JSON.parse(String((await logOf('login_failed', owner.id))[0].after))).toEqual({ email: owner.address, method: 'password', area: 'mail' });

    const attacker = someIp();
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await login(owner.address, `guess-${i}`, attacker)).code);
    expect(codes.filter((c) => c === 42900).length).toBeGreaterThan(20);
    // The owner, from an address of their own, still gets in.
    expect((await login(owner.address, owner.password)).code).toBe(0);
  });

  it('When the mailbox was imported with a hash of an older scheme, then its password signs in and the hash becomes argon2id, which keeps working', async () => {
    const owner = await mailboxOwner(t);
    const lines = fs.readFileSync(new URL('../fixtures/dovecot-hashes.tsv', import.meta.url), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    for (const scheme of ['SHA512-CRYPT', 'MD5-CRYPT', 'BLF-CRYPT']) {
      const [, password, hash] = lines.find((l) => l.startsWith(`${scheme}\t`))!.split('\t');
      // What an import (PostfixAdmin's tables) writes: the hash as the old server kept it.
      await t.services.db.updateTable('mailbox').set({ password_hash: hash }).where('id', '=', owner.id).execute();
      expect((await login(owner.address, `${password}-wrong`)).code).toBe(40101);
      expect(await passwordHashOf(owner.id)).toBe(hash);
      expect((await login(owner.address, password)).code).toBe(0);
      const upgraded = await passwordHashOf(owner.id);
      expect(upgraded).toMatch(/^\{ARGON2ID\}\$argon2id\$/);
      expect(await verifySchemeHash(upgraded, password)).toBe(true);
      expect((await login(owner.address, password)).code).toBe(0);
      expect(await passwordHashOf(owner.id)).toBe(upgraded);
      expect((await logOf('login', owner.id))[1].after).toContain(`"upgraded_from":"${scheme}"`);
      expect((await logOf('login', owner.id))[0]).toMatchObject({ actor_type: 'mailbox', actor_name: owner.address, target_type: 'email', user_id: owner.customer.id });
      expect(JSON.parse(String((await logOf('login', owner.id))[0].after))).toEqual({ method: 'password', area: 'mail' });
    }
  });

  it('When the password is changed while a sign-in with the old one is still checking its old-scheme hash, then the upgrade to argon2id leaves the new password in place', async () => {
    const owner = await mailboxOwner(t);
    // An ARGON2I hash of high cost (made once by @node-rs/argon2): its check takes a second or two on a password worker, long enough for a change to land meanwhile.
    const slowHash = '{ARGON2I}$argon2i$v=19$m=65536,t=60,p=1$t0eFwE7ioaIssso4MTw2zA$YEPJgZfT4hlGnZU0KMdCe6f3E9vGCihfXHihUhJ0DEQ';
    await t.services.db.updateTable('mailbox').set({ password_hash: slowHash }).where('id', '=', owner.id).execute();
    let signedIn = false;
    const signingIn = login(owner.address, 'password-before-1').then((reply) => ((signedIn = true), reply));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await t.post('/api/admin/email/update_password', { id: owner.id, password: 'password-after-1' }, { token: owner.customer.token })).code).toBe(0);
    // The change landed while the sign-in was still checking the old hash.
    expect(signedIn).toBe(false);
    // Right when it was asked: the sign-in goes through; but its upgrade is of a hash that is no longer there.
    expect((await signingIn).code).toBe(0);
    expect(await verifySchemeHash(await passwordHashOf(owner.id), 'password-after-1')).toBe(true);
    expect((await login(owner.address, 'password-before-1')).code).toBe(40101);
    expect((await login(owner.address, 'password-after-1')).code).toBe(0);
  });

  it('When the mailbox, its domain or its customer is not active, the domain not verified, or the area is off for the domain, then the right password is refused, and a wrong one answered as ever', async () => {
    const owner = await mailboxOwner(t);
    const operator = await mail.operator();
    const refusedNow = async () => {
      expect(await login(owner.address, owner.password)).toMatchObject({ code: 40300, message: 'error.mailbox_sign_in_refused' });
      // The log tells a refusal from a wrong password.
      expect(JSON.parse(String((await logOf('login_failed', owner.id))[0].after))).toEqual({ email: owner.address, method: 'password', area: 'mail', reason: 'not_allowed' });
      expect((await login(owner.address, 'wrong-password')).code).toBe(40101);
    };
    const change = async (path: string, body: Record<string, unknown>, token: string) => expect((await t.post(path, body, { token })).code).toBe(0);

    await change('/api/admin/email/update', { id: owner.id, active: 0 }, owner.customer.token);
    await refusedNow();
    await change('/api/admin/email/update', { id: owner.id, active: 1 }, owner.customer.token);
    await change('/api/admin/domain/update', { id: owner.domainId, mailbox_area: 0 }, owner.customer.token);
    await refusedNow();
    await change('/api/admin/domain/update', { id: owner.domainId, mailbox_area: 1 }, owner.customer.token);
    await change('/api/manage/domain/update', { id: owner.domainId, status: 'suspended' }, operator);
    await refusedNow();
    await change('/api/manage/domain/update', { id: owner.domainId, status: 'active' }, operator);
    // Active but never verified (an operator may turn a domain on before its owner proves it).
    const { verified_at: verifiedAt } = await t.services.db.selectFrom('domain').select('verified_at').where('id', '=', owner.domainId).executeTakeFirstOrThrow();
    await t.services.db.updateTable('domain').set({ verified_at: null }).where('id', '=', owner.domainId).execute();
    await refusedNow();
    await t.services.db.updateTable('domain').set({ verified_at: verifiedAt }).where('id', '=', owner.domainId).execute();
    await change('/api/manage/user/update', { id: owner.customer.id, status: 'disabled' }, operator);
    await refusedNow();
    await change('/api/manage/user/update', { id: owner.customer.id, status: 'active' }, operator);
    expect((await login(owner.address, owner.password)).code).toBe(0);
  });
});

describe('sessions', () => {
  it('When the mailbox, its domain or its customer is deactivated, or the area turned off, then its sessions end, and stay ended when it comes back', async () => {
    const operator = await mail.operator();
    const cases: [string, (o: Awaited<ReturnType<typeof mailboxOwner>>) => Promise<unknown>, (o: Awaited<ReturnType<typeof mailboxOwner>>) => Promise<unknown>][] = [
      ['mailbox', (o) => t.post('/api/admin/email/update', { id: o.id, active: 0 }, { token: o.customer.token }), (o) => t.post('/api/admin/email/update', { id: o.id, active: 1 }, { token: o.customer.token })],
      ['area', (o) => t.post('/api/admin/domain/update', { id: o.domainId, mailbox_area: 0 }, { token: o.customer.token }), (o) => t.post('/api/admin/domain/update', { id: o.domainId, mailbox_area: 1 }, { token: o.customer.token })],
      ['domain', (o) => t.post('/api/manage/domain/update', { id: o.domainId, status: 'suspended' }, { token: operator }), (o) => t.post('/api/manage/domain/update', { id: o.domainId, status: 'active' }, { token: operator })],
      ['customer', (o) => t.post('/api/manage/user/update', { id: o.customer.id, status: 'disabled' }, { token: operator }), (o) => t.post('/api/manage/user/update', { id: o.customer.id, status: 'active' }, { token: operator })],
    ];
    for (const [what, off, on] of cases) {
      const owner = await mailboxOwner(t);
      expect((await info(owner.token)).code, what).toBe(0);
      await off(owner);
      expect((await info(owner.token)).code, what).toBe(20000);
      await on(owner);
      expect((await info(owner.token)).code, what).toBe(20000);
      expect((await login(owner.address, owner.password)).code, what).toBe(0);
    }
  });

  it('When someone else sets the password, then the owner\'s sessions end; when the owner changes it, only their other sessions do', async () => {
    const owner = await mailboxOwner(t);
    expect((await t.post('/api/admin/email/update_password', { id: owner.id, password: 'set-by-customer-1' }, { token: owner.customer.token })).code).toBe(0);
    expect((await info(owner.token)).code).toBe(20000);
    const first = (await login(owner.address, 'set-by-customer-1')).data.token;
    expect((await t.post('/api/manage/email/update', { id: owner.id, password: 'set-by-operator-1' }, { token: await mail.operator() })).code).toBe(0);
    expect((await info(first)).code).toBe(20000);

    const [mine, other] = [(await login(owner.address, 'set-by-operator-1')).data.token, (await login(owner.address, 'set-by-operator-1')).data.token];
    expect((await t.post('/api/mail/me/update_password', { old_password: 'set-by-operator-1', password: 'my-own-password-1' }, { token: mine })).code).toBe(0);
    expect((await info(mine)).code).toBe(0);
    expect((await info(other)).code).toBe(20000);
  });

  it('When the owner signs out, then the token is no session any more; a mailbox token is no session in the other areas, nor theirs in this one', async () => {
    const owner = await mailboxOwner(t);
    expect((await t.post('/api/admin/me/info', {}, { token: owner.token })).code).toBe(20000);
    expect((await t.post('/api/manage/me/info', {}, { token: owner.token })).code).toBe(20000);
    expect((await info(owner.customer.token)).code).toBe(20000);
    expect((await info(await mail.operator())).code).toBe(20000);
    expect((await t.post('/api/mail/login/logout', {}, { token: owner.token })).code).toBe(0);
    expect((await info(owner.token)).code).toBe(20000);
    expect((await logOf('logout', owner.id))[0]).toMatchObject({ actor_type: 'mailbox', actor_name: owner.address, target_type: 'email' });
  });
});

describe('the mailbox', () => {
  it('When the owner looks, then they see address, quota, usage, the aliases that deliver to it and their recent sign-ins, and the settings for mail programs', async () => {
    const owner = await mailboxOwner(t);
    const domain = owner.address.split('@')[1];
    const only = await mail.alias(owner.customer.token, owner.domainId, owner.address, 'sales');
    const shared = await mail.alias(owner.customer.token, owner.domainId, [owner.address, 'someone@example.org'], 'team');
    await mail.alias(owner.customer.token, owner.domainId, 'someone@example.org', 'other');
    await t.services.db.insertInto('mailbox_usage').values({ address: owner.address, bytes: 5 * MiB, messages: 42 }).execute();
    await login(owner.address, owner.password, '10.9.8.7');

    const reply = await info(owner.token);
    expect(reply).toMatchObject({
      code: 0,
      data: { id: owner.id, address: owner.address, domain, quota: MiB, used_bytes: 5 * MiB, used_messages: 42, app_passwords_only: 0, aliases: [only.address, shared.address].sort() },
    });
    expect(reply.data.recent_sign_ins).toHaveLength(2);
    expect(reply.data.recent_sign_ins[0]).toMatchObject({ ip: '10.9.8.7', at: expect.any(String) });

    const settings = await t.get('/api/mail/me/client_settings', {}, { token: owner.token });
    const customerView = await t.get('/api/admin/email/client_settings', { id: owner.id }, { token: owner.customer.token });
    expect(settings).toMatchObject({ code: 0, data: customerView.data });
  });

  it('When the owner changes the password with the right current one, then the new one signs in; with a wrong one or a short new one, nothing changes', async () => {
    const owner = await mailboxOwner(t);
    const before = await state(owner.id);
    expect(await t.post('/api/mail/me/update_password', { old_password: 'wrong-password', password: 'new-password-1' }, { token: owner.token })).toMatchObject({
      code: 40000,
      errors: { old_password: { message: 'validation.wrong_password' } },
    });
    expect(await t.post('/api/mail/me/update_password', { old_password: owner.password, password: 'short' }, { token: owner.token })).toMatchObject({ code: 40000, errors: { password: expect.anything() } });
    expect(await state(owner.id)).toBe(before);

    expect((await t.post('/api/mail/me/update_password', { old_password: owner.password, password: 'new-password-1' }, { token: owner.token })).code).toBe(0);
    expect((await login(owner.address, owner.password)).code).toBe(40101);
    expect((await login(owner.address, 'new-password-1')).code).toBe(0);
    expect(await passwordHashOf(owner.id)).toMatch(/^\{ARGON2ID\}/);
    expect((await logOf('update_password', owner.id))[0]).toMatchObject({ actor_type: 'mailbox', actor_name: owner.address, user_id: owner.customer.id, target_type: 'email' });
    expect(JSON.parse(String((await logOf('update_password', owner.id))[0].after))).toEqual({ address: owner.address });
  });

  it('When the owner requires app passwords for mail programs, then the mailbox says so everywhere, and the customer can set it back', async () => {
    const owner = await mailboxOwner(t);
    expect(await t.post('/api/mail/me/update_settings', { app_passwords_only: true }, { token: owner.token })).toMatchObject({ code: 0, data: { app_passwords_only: 1 } });
    expect((await t.get('/api/admin/email/get', { id: owner.id }, { token: owner.customer.token })).data).toMatchObject({ app_passwords_only: 1, app_passwords: 0 });
    // The main password still signs in to the area.
    expect((await login(owner.address, owner.password)).code).toBe(0);
    expect((await t.post('/api/admin/email/update', { id: owner.id, app_passwords_only: 0 }, { token: owner.customer.token })).data).toMatchObject({ app_passwords_only: 0 });
    expect((await info(owner.token)).data.app_passwords_only).toBe(0);
    // The owner turns it on and off again; each change is logged with before and after, a repeat is no change.
    expect((await t.post('/api/mail/me/update_settings', { app_passwords_only: 1 }, { token: owner.token })).data.app_passwords_only).toBe(1);
    expect((await t.post('/api/mail/me/update_settings', { app_passwords_only: false }, { token: owner.token })).data.app_passwords_only).toBe(0);
    expect((await t.post('/api/mail/me/update_settings', { app_passwords_only: 0 }, { token: owner.token })).data.app_passwords_only).toBe(0);
    const changes = (await logOf('update', owner.id)).filter((r) => r.actor_type === 'mailbox');
    expect(changes.map((r) => [r.target_type, JSON.parse(String(r.before)), JSON.parse(String(r.after))])).toEqual([
      ['email', { app_passwords_only: 1 }, { app_passwords_only: 0 }],
      ['email', { app_passwords_only: 0 }, { app_passwords_only: 1 }],
      ['email', { app_passwords_only: 0 }, { app_passwords_only: 1 }],
    ]);
    const before = await state(owner.id);
    expect((await t.post('/api/mail/me/update_settings', { app_passwords_only: 'sometimes' }, { token: owner.token })).code).toBe(40000);
    expect(await state(owner.id)).toBe(before);
  });
});

describe('out-of-office and forwarding', () => {
  it('When the owner sets an out-of-office, then the rules say so, the mail server gets its Sieve script at once, and the customer and operators see the same', async () => {
    const owner = await mailboxOwner(t);
    const sales = await mail.alias(owner.customer.token, owner.domainId, owner.address, 'sales');
    const otherDomain = await mail.activeDomain(owner.customer);
    expect((await t.post('/api/admin/alias_domain/create', { alias_domain_id: otherDomain.id, target_domain_id: owner.domainId }, { token: owner.customer.token })).code).toBe(0);
    expect(await sieveOf(owner.id)).toBeUndefined();
    const reply = await t.post(
      '/api/mail/rules/update_out_of_office',
      { enabled: true, starts_at: '2026-12-20T09:00:00+08:00', ends_at: '2027-01-03T18:00:00+08:00', time_zone: 'Asia/Shanghai', subject: '休假中 / Away', body: 'Back on 4 January.', interval_days: 3 },
      { token: owner.token },
    );
    expect(reply).toMatchObject({
      code: 0,
      data: {
        out_of_office: { enabled: true, starts_at: '2026-12-20T01:00:00.000Z', ends_at: '2027-01-03T10:00:00.000Z', time_zone: 'Asia/Shanghai', subject: '休假中 / Away', body: 'Back on 4 January.', interval_days: 3 },
        forwarding: { enabled: false, addresses: [], keep_copy: true },
        updated_by: `mailbox:${owner.address}`,
      },
    });
    const sieve = await sieveOf(owner.id);
    expect(sieve?.script).toContain('vacation :days 3 :subject "休假中 / Away"');
    expect(sieve?.script).toContain('"2026-12-20T01:00:00Z"');
    // Answered only for mail to the owner's own addresses: the mailbox, its own alias, their forms in the alias domain.
    const [local] = owner.address.split('@');
    expect(sieve?.script).toContain(`:addresses ["${owner.address}", "${sales.address}", "${local}@${otherDomain.name}", "sales@${otherDomain.name}"]`);
    expect(sieve?.script_id).toMatch(new RegExp(`^${owner.id}-[0-9a-f]{16}$`));

    const rules = (await t.get('/api/mail/rules/info', {}, { token: owner.token })).data;
    expect((await t.get('/api/admin/email/rules', { id: owner.id }, { token: owner.customer.token })).data).toEqual(rules);
    expect((await t.get('/api/manage/email/rules', { id: owner.id }, { token: await mail.operator() })).data).toEqual(rules);
    expect((await logOf('update_out_of_office', owner.id))[0]).toMatchObject({ actor_type: 'mailbox', actor_name: owner.address, user_id: owner.customer.id });
  });

  it('When the customer and then an operator change the rules, then the script changes with them, and the rules and the log say who', async () => {
    const owner = await mailboxOwner(t);
    const operator = await mail.operator();
    expect((await t.post('/api/admin/email/update_forwarding', { id: owner.id, enabled: true, addresses: ['Anna@Elsewhere.example', 'anna@elsewhere.example', 'b@elsewhere.example'], keep_copy: false }, { token: owner.customer.token })).data).toMatchObject({
      forwarding: { enabled: true, addresses: ['anna@elsewhere.example', 'b@elsewhere.example'], keep_copy: false },
      updated_by: `customer:${owner.customer.email}`,
    });
    const first = await sieveOf(owner.id);
    expect(first?.script).toContain('redirect "anna@elsewhere.example";');
    expect(first?.script).not.toContain('keep;');

    expect((await t.post('/api/manage/email/update_forwarding', { id: owner.id, enabled: true, keep_copy: true }, { token: operator })).data).toMatchObject({
      forwarding: { addresses: ['anna@elsewhere.example', 'b@elsewhere.example'], keep_copy: true },
      updated_by: expect.stringMatching(/^operator:/),
    });
    const second = await sieveOf(owner.id);
    expect(second?.script).toContain('redirect :copy "anna@elsewhere.example";');
    expect(second?.script_id).not.toBe(first?.script_id);
    expect((await logOf('update_forwarding', owner.id)).map((r) => r.actor_type)).toEqual(['operator', 'customer']);

    // Both rules off: no script, plain delivery.
    expect((await t.post('/api/manage/email/update_forwarding', { id: owner.id, enabled: false }, { token: operator })).code).toBe(0);
    expect(await sieveOf(owner.id)).toBeUndefined();
  });

  it('When the rules would loop, exceed ten addresses, end before they start, name no known time zone or miss their text, then they are refused and nothing changes', async () => {
    const owner = await mailboxOwner(t);
    const alias = await mail.alias(owner.customer.token, owner.domainId, owner.address, 'sales');
    const team = await mail.alias(owner.customer.token, owner.domainId, [owner.address, 'someone@example.org'], 'team');
    await t.post('/api/mail/rules/update_forwarding', { enabled: true, addresses: ['kept@elsewhere.example'] }, { token: owner.token });
    const before = await state(owner.id);
    const refusals: [string, Record<string, unknown>, string, string][] = [
      ['/api/mail/rules/update_forwarding', { enabled: true, addresses: [owner.address.toUpperCase()] }, 'addresses', 'validation.forward_to_own_address'],
      ['/api/mail/rules/update_forwarding', { enabled: true, addresses: [alias.address] }, 'addresses', 'validation.forward_to_own_address'],
      ['/api/mail/rules/update_forwarding', { enabled: true, addresses: ['x@elsewhere.example', team.address] }, 'addresses', 'validation.forward_to_own_address'],
      ['/api/mail/rules/update_forwarding', { enabled: true, addresses: Array.from({ length: 11 }, (_, i) => `t${i}@elsewhere.example`) }, 'addresses', 'validation.too_many'],
      ['/api/mail/rules/update_forwarding', { enabled: true, addresses: ['not an address'] }, 'addresses.0', 'validation.invalid_email'],
      ['/api/mail/rules/update_forwarding', { enabled: true, addresses: [] }, 'addresses', 'validation.required'],
      ['/api/mail/rules/update_out_of_office', { enabled: true, subject: 'S', body: 'B', starts_at: '2027-01-02T00:00:00Z', ends_at: '2027-01-01T00:00:00Z' }, 'ends_at', 'validation.ends_before_start'],
      ['/api/mail/rules/update_out_of_office', { enabled: true, subject: 'S', body: 'B', time_zone: 'Mars/Olympus_Mons' }, 'time_zone', 'validation.time_zone'],
      ['/api/mail/rules/update_out_of_office', { enabled: true, subject: 'S', body: 'B', interval_days: 31 }, 'interval_days', 'validation.too_big'],
      ['/api/mail/rules/update_out_of_office', { enabled: true, subject: '', body: 'B' }, 'subject', 'validation.required'],
      ['/api/mail/rules/update_out_of_office', { enabled: true, subject: 'S', body: '  ' }, 'body', 'validation.required'],
      ['/api/mail/rules/update_out_of_office', { enabled: true, subject: 'two\nlines', body: 'B' }, 'subject', 'validation.one_line'],
    ];
    for (const [path, body, field, message] of refusals) {
      const reply = await t.post(path, body, { token: owner.token });
      expect({ path, body, code: reply.code, error: reply.errors?.[field]?.message }).toEqual({ path, body, code: 40000, error: message });
    }
    expect(await state(owner.id)).toBe(before);
  });
});

describe('the limits of the rules', () => {
  it('When forwarding names ten addresses, then it is kept with all ten; an eleventh is refused and the ten stay', async () => {
    const owner = await mailboxOwner(t);
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}@elsewhere.example`);
    const kept = await t.post('/api/mail/rules/update_forwarding', { enabled: true, addresses: ten }, { token: owner.token });
    expect(kept).toMatchObject({ code: 0, data: { forwarding: { enabled: true, addresses: ten } } });
    expect((await sieveOf(owner.id))?.script).toContain('redirect :copy "t9@elsewhere.example";');
    const before = await state(owner.id);
    const eleven = await t.post('/api/mail/rules/update_forwarding', { enabled: true, addresses: [...ten, 't10@elsewhere.example'] }, { token: owner.token });
    expect(eleven).toMatchObject({ code: 40000, errors: { addresses: { message: 'validation.too_many' } } });
    expect(await state(owner.id)).toBe(before);
  });

  it('When an out-of-office ends the moment it starts, then it is refused; ending a second later, it is kept', async () => {
    const owner = await mailboxOwner(t);
    const before = await state(owner.id);
    const same = await t.post('/api/mail/rules/update_out_of_office', { enabled: true, subject: 'S', body: 'B', starts_at: '2027-01-01T09:00:00+01:00', ends_at: '2027-01-01T08:00:00Z' }, { token: owner.token });
    expect(same).toMatchObject({ code: 40000, errors: { ends_at: { message: 'validation.ends_before_start' } } });
    expect(await state(owner.id)).toBe(before);
    const second = await t.post('/api/mail/rules/update_out_of_office', { enabled: true, subject: 'S', body: 'B', starts_at: '2027-01-01T08:00:00Z', ends_at: '2027-01-01T08:00:01Z' }, { token: owner.token });
    expect(second).toMatchObject({ code: 0, data: { out_of_office: { starts_at: '2027-01-01T08:00:00.000Z', ends_at: '2027-01-01T08:00:01.000Z' } } });
  });
});

describe('app passwords', () => {
  it('When the owner makes one, then it is shown once, listed without its value, counted on the mailbox, and verifiable as Dovecot stores it; revoked, it is gone', async () => {
    const owner = await mailboxOwner(t);
    const made = await t.post('/api/mail/app_password/create', { name: 'Phone' }, { token: owner.token, ip: '10.1.2.3' });
    expect(made).toMatchObject({ code: 0, data: { id: expect.any(Number), name: 'Phone', created_at: expect.any(String) } });
    const password: string = made.data.password;
    expect(password).toMatch(/^[abcdefghjkmnpqrstuvwxyz23456789]{4}(-[abcdefghjkmnpqrstuvwxyz23456789]{4}){3}$/);

    const list = await t.get('/api/mail/app_password/list', {}, { token: owner.token });
    expect(list).toMatchObject({ code: 0, data: { total: 1, list: [{ id: made.data.id, name: 'Phone', created_ip: '10.1.2.3', last_used_at: null, last_used_ip: null }] } });
    expect(JSON.stringify(list.data)).not.toContain(password);
    expect(JSON.stringify(list.data)).not.toContain('ARGON2ID');
    expect((await t.get('/api/admin/email/get', { id: owner.id }, { token: owner.customer.token })).data).toMatchObject({ app_passwords: 1 });
    expect((await t.post('/api/manage/email/list', { filter: { domain_id: owner.domainId } }, { token: await mail.operator() })).data.list[0]).toMatchObject({ id: owner.id, app_passwords: 1 });

    const row = await t.services.db.selectFrom('app_password').selectAll().where('id', '=', made.data.id).executeTakeFirstOrThrow();
    expect(row.selector).toBe(password.slice(0, 4));
    expect(row.password_hash).toMatch(/^\{ARGON2ID\}/);
    expect(await verifySchemeHash(row.password_hash, password)).toBe(true);
    // An app password is for mail programs, not for this area.
    expect((await login(owner.address, password)).code).toBe(40101);
    expect((await logOf('create', made.data.id)).find((r) => r.target_type === 'app_password')).toMatchObject({ actor_type: 'mailbox', user_id: owner.customer.id, after: JSON.stringify({ name: 'Phone' }) });

    expect((await t.post('/api/mail/app_password/delete', { id: made.data.id }, { token: owner.token })).code).toBe(0);
    expect((await t.get('/api/mail/app_password/list', {}, { token: owner.token })).data.total).toBe(0);
    expect((await t.get('/api/admin/email/get', { id: owner.id }, { token: owner.customer.token })).data).toMatchObject({ app_passwords: 0 });
  });

  it("When another mailbox's owner tries to revoke one, or a name is missing, too long or not one line, then nothing changes", async () => {
    const owner = await mailboxOwner(t);
    const other = await mailboxOwner(t, owner.customer, { domainId: owner.domainId });
    const made = await t.post('/api/mail/app_password/create', { name: 'Laptop' }, { token: owner.token });
    const before = await state(owner.id);
    expect((await t.post('/api/mail/app_password/delete', { id: made.data.id }, { token: other.token })).code).toBe(40400);
    for (const name of ['', 'x'.repeat(65), 'a\nb', '   ']) {
      expect((await t.post('/api/mail/app_password/create', { name }, { token: owner.token })).code, JSON.stringify(name)).toBe(40000);
    }
    expect((await t.post('/api/mail/app_password/create', {}, { token: owner.token })).code).toBe(40000);
    expect(await state(owner.id)).toBe(before);
    expect((await t.get('/api/mail/app_password/list', {}, { token: other.token })).data.total).toBe(0);
  });
});

describe('how many app passwords', () => {
  it('When a mailbox has made fifty app passwords, then the fiftieth was made and the fifty-first is refused; one revoked, another can be made', async () => {
    const owner = await mailboxOwner(t);
    const made: number[] = [];
    for (let i = 1; i <= 50; i++) {
      const reply = await t.post('/api/mail/app_password/create', { name: `Device ${i}` }, { token: owner.token });
      expect({ i, code: reply.code }).toEqual({ i, code: 0 });
      made.push(reply.data.id);
    }
    const before = await state(owner.id);
    expect(await t.post('/api/mail/app_password/create', { name: 'Device 51' }, { token: owner.token })).toMatchObject({ status: 409, code: 40900, message: 'error.app_password_limit', params: { limit: 50 } });
    expect(await state(owner.id)).toBe(before);
    expect((await t.get('/api/mail/app_password/list', { page_size: 100 }, { token: owner.token })).data.total).toBe(50);
    expect((await t.post('/api/mail/app_password/delete', { id: made[0] }, { token: owner.token })).code).toBe(0);
    expect((await t.post('/api/mail/app_password/create', { name: 'Device 51' }, { token: owner.token })).code).toBe(0);
  });
});

describe('the customer', () => {
  it("When a customer turns the mailbox owners' area off for a domain, then the domain says so; it is on by default", async () => {
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, GiB);
    const domain = await mail.activeDomain(customer);
    expect(domain).toMatchObject({ mailbox_area: 1 });
    expect((await t.post('/api/admin/domain/update', { id: domain.id, mailbox_area: false }, { token: customer.token })).data).toMatchObject({ mailbox_area: 0 });
    expect((await t.post('/api/admin/domain/list', { filter: {} }, { token: customer.token })).data.list[0]).toMatchObject({ id: domain.id, mailbox_area: 0 });
  });
});
