/**
 * API keys (issue 22): customers and operators make named keys for scripts, scoped to their area,
 * read-only or read-write, with an optional expiry and allowed addresses; shown once, kept hashed,
 * last use shown; calls made with one are logged with its name; revoked or expired ones stop at once;
 * keys never reach keys, sessions or passwords.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { keyLookupSql } from '../../server/api-keys/authenticate.js';
import { allowedFrom, keyHash } from '../../server/api-keys/keys.js';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp, teamMemberOf } from '../helpers/fixtures.js';
import { GiB, mailFixtures, MiB } from '../helpers/mail-fixtures.js';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
beforeAll(async () => {
  t = await startTestApp();
  mail = mailFixtures(t);
});
afterAll(() => t.close());
afterEach(() => {
  t.resetClock();
  vi.restoreAllMocks();
});
/** The app's clock stopped at `ms` (server/core/time.ts reads Date.now): a rule's boundary tested to the millisecond. */
const clockAt = (ms: number) => vi.spyOn(Date, 'now').mockReturnValue(ms);

const bearer = (key: string, ip = '127.0.0.1') => ({ token: '', ip, headers: { authorization: `Bearer ${key}` } });
/** A key made by a signed-in login, who confirms with their password (issue 33, 3.5). */
const makeKey = async ({ token, password }: { token: string; password: string }, input: Record<string, unknown>, area: 'admin' | 'manage' = 'admin') => {
  const reply = await t.post(`/api/${area}/api_key/create`, { name: 'Script', access: 'read', confirmation: password, ...input }, { token });
  if (reply.code !== 0) throw new Error(`key not made: ${JSON.stringify(reply)}`);
  return reply.data as { id: number; key: string; prefix: string; name: string };
};
const keyRow = (id: number) => t.services.db.selectFrom('api_key').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('making a key', () => {
  it('When a customer makes a key, then it is shown once, stored only as its hash, and listed without it', async () => {
    const customer = await signUpCustomer(t);
    const made = await t.post('/api/admin/api_key/create', { name: 'Backup script', access: 'read', confirmation: customer.password }, { token: customer.token });
    expect(made).toMatchObject({ code: 0, data: { name: 'Backup script', access: 'read', area: 'admin', key: expect.stringMatching(/^mdk_[\w-]{43}$/), allowed_ips: [], expires_at: null } });
    const row = await keyRow(made.data.id);
    expect(row.key_hash).toBe(keyHash(made.data.key));
    expect(JSON.stringify(row)).not.toContain(made.data.key);
    const listed = await t.get('/api/admin/api_key/list', {}, { token: customer.token });
    expect(listed.data.list).toEqual([expect.objectContaining({ id: made.data.id, name: 'Backup script', prefix: made.data.key.slice(0, 12), last_used_at: null })]);
    expect(JSON.stringify(listed.data)).not.toContain(made.data.key);
    expect(JSON.stringify(listed.data)).not.toContain('key_hash');
  });

  it('When the input is wrong, then a translated 40000 error names the field, never a 500', async () => {
    const customer = await signUpCustomer(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '', access: 'read' }, 'name', ''],
      [{ name: 'x', access: 'admin' }, 'access', 'validation.invalid_choice'],
      [{ name: 'x', access: 'read', allowed_ips: ['not-an-ip'] }, 'allowed_ips.0', 'validation.ip_or_cidr'],
      [{ name: 'x', access: 'read', allowed_ips: ['10.0.0.0/33'] }, 'allowed_ips.0', 'validation.ip_or_cidr'],
      [{ name: 'x', access: 'read', expires_at: '2001-01-01T00:00:00Z' }, 'expires_at', 'validation.in_the_past'],
      [{ name: 'x', access: 'read', expires_at: 'tomorrow' }, 'expires_at', ''],
      [{ access: 'read' }, 'name', 'validation.required'],
      [{ name: 'x' }, 'access', 'validation.required'],
    ];
    for (const [input, field, message] of cases) {
      const reply = await t.post('/api/admin/api_key/create', { confirmation: customer.password, ...input }, { token: customer.token });
      expect(reply, JSON.stringify(input)).toMatchObject({ status: 400, code: 40000, message: 'error.validation' });
      expect(Object.keys(reply.errors ?? {}), JSON.stringify(input)).toContain(field);
      if (message) expect(reply.errors![field].message).toBe(message);
    }
  });
});

describe('how many keys', () => {
  it('When a login has made fifty keys, then the fiftieth was made and the fifty-first is refused; one revoked, another can be made', async () => {
    const customer = await signUpCustomer(t);
    const made: number[] = [];
    for (let i = 1; i <= 50; i++) made.push((await makeKey(customer, { name: `Script ${i}` })).id);
    expect(await t.post('/api/admin/api_key/create', { name: 'Script 51', access: 'read', confirmation: customer.password }, { token: customer.token })).toMatchObject({ status: 409, code: 40900, message: 'error.api_key_limit', params: { limit: 50 } });
    expect((await t.get('/api/admin/api_key/list', { page_size: 100 }, { token: customer.token })).data.total).toBe(50);
    expect((await t.post('/api/admin/api_key/delete', { id: made[0] }, { token: customer.token })).code).toBe(0);
    expect((await t.post('/api/admin/api_key/create', { name: 'Script 51', access: 'read', confirmation: customer.password }, { token: customer.token })).code).toBe(0);
  }, 120_000); // each key made checks the password again (argon2): a hundred take a while on a busy machine

  it("When a customer has fifty keys, then a team member's own keys and an operator's count apart: they still make theirs, and an operator stops at fifty too", async () => {
    const customer = await signUpCustomer(t);
    for (let i = 1; i <= 50; i++) await makeKey(customer, { name: `Script ${i}` });
    const member = await teamMemberOf(t, customer);
    expect((await t.post('/api/admin/api_key/create', { name: 'Member script', access: 'read', confirmation: member.password }, { token: member.token })).code).toBe(0);
    const operator = await operatorWithRole(t, 'support');
    for (let i = 1; i <= 50; i++) await makeKey(operator, { name: `Operator script ${i}` }, 'manage');
    expect(await t.post('/api/manage/api_key/create', { name: 'Operator script 51', access: 'read', confirmation: operator.password }, { token: operator.token })).toMatchObject({ code: 40900, message: 'error.api_key_limit' });
  }, 120_000); // each key made checks the password again (argon2): a hundred take a while on a busy machine
});

describe('calling with a key', () => {
  it('When a script calls with a read-write key, then it acts as the customer, and its change is logged with the key name', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, { name: 'Provisioning', access: 'write' });
    await mail.grant(customer.id, GiB);
    const domain = await mail.activeDomain(customer);
    const made = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'robot', password: 'robot-pass-1', quota: 10 * MiB }, bearer(key.key));
    expect(made).toMatchObject({ code: 0, data: { address: `robot@${domain.name}` } });
    const log = await t.post('/api/admin/log/list', { filter: { action: 'create', target_type: 'email' } }, { token: customer.token });
    expect(log.data.list[0]).toMatchObject({ actor_type: 'customer', actor_name: customer.email, target_id: made.data.id, api_key_id: key.id, api_key_name: 'Provisioning' });
    // The area's list reads like any other caller's.
    expect((await t.post('/api/admin/email/list', {}, bearer(key.key))).data.list.map((m: { id: number }) => m.id)).toContain(made.data.id);
  });

  it('When a read-only key makes a change, then it is refused (40300); reads and lists work', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, { access: 'read' });
    expect(await t.post('/api/admin/me/info', {}, bearer(key.key))).toMatchObject({ code: 0, data: { email: customer.email } });
    expect((await t.post('/api/admin/domain/list', {}, bearer(key.key))).code).toBe(0);
    expect((await t.get('/api/admin/alias/list', {}, bearer(key.key))).code).toBe(0);
    expect(await t.post('/api/admin/me/update_username', { username: 'Robot' }, bearer(key.key))).toMatchObject({ status: 403, code: 40300, message: 'error.api_key_read_only' });
    expect(await t.post('/api/admin/domain/create', { name: 'robot.example' }, bearer(key.key))).toMatchObject({ code: 40300, message: 'error.api_key_read_only' });
  });

  it('When a key calls for keys, sessions or the password, then it is refused, whatever its access', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, { access: 'write' });
    const refused = { code: 40300, message: 'error.api_key_not_here' };
    expect(await t.get('/api/admin/api_key/list', {}, bearer(key.key))).toMatchObject(refused);
    expect(await t.post('/api/admin/api_key/create', { name: 'Another', access: 'write' }, bearer(key.key))).toMatchObject(refused);
    expect(await t.post('/api/admin/api_key/delete', { id: key.id }, bearer(key.key))).toMatchObject(refused);
    expect(await t.get('/api/admin/session/list', {}, bearer(key.key))).toMatchObject(refused);
    expect(await t.post('/api/admin/session/end_others', {}, bearer(key.key))).toMatchObject(refused);
    expect(await t.post('/api/admin/me/update_password', { old_password: customer.password, password: 'new-password-1' }, bearer(key.key))).toMatchObject(refused);
    expect(await t.post('/api/admin/me/update_email', { email: 'robot@example.com' }, bearer(key.key))).toMatchObject(refused);
    expect(await t.post('/api/admin/login/logout', {}, bearer(key.key))).toMatchObject(refused);
    // An operator's key sets no login's password either.
    const root = await operatorLogin(t);
    const opKey = await makeKey({ token: root, password: ROOT.password }, { access: 'write' }, 'manage');
    expect(await t.post('/api/manage/user/update', { id: customer.id, password: 'taken-over-1' }, bearer(opKey.key))).toMatchObject(refused);
    expect(await t.post('/api/manage/admin/create', { username: 'scripted', password: 'scripted-pass-1', role: 'support' }, bearer(opKey.key))).toMatchObject(refused);
    expect((await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, { ip: someIp() })).code).toBe(0);
  });

  it('When a key is used in another area, or sent as a session token, then it is no session there (20000)', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, { access: 'write' });
    expect(await t.post('/api/manage/user/list', {}, bearer(key.key))).toMatchObject({ status: 401, code: 20000 });
    expect(await t.get('/api/mail/me/info', {}, bearer(key.key))).toMatchObject({ code: 20000 });
    expect(await t.post('/api/admin/me/info', {}, { token: key.key })).toMatchObject({ code: 20000 });
    const root = await operatorLogin(t);
    const opKey = await makeKey({ token: root, password: ROOT.password }, { access: 'read' }, 'manage');
    expect(await t.post('/api/admin/me/info', {}, bearer(opKey.key))).toMatchObject({ code: 20000, message: 'error.api_key' });
    expect((await t.post('/api/manage/user/list', {}, bearer(opKey.key))).code).toBe(0);
    expect(await t.post('/api/admin/me/info', {}, bearer('mdk_made-up'))).toMatchObject({ code: 20000, message: 'error.api_key' });
  });

  it('When a key has an expiry, then it works until then and is refused from that moment (clock moved)', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, { expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await t.post('/api/admin/me/info', {}, bearer(key.key))).code).toBe(0);
    await t.moveClock(3_599_000);
    expect((await t.post('/api/admin/me/info', {}, bearer(key.key))).code).toBe(0);
    await t.moveClock(2_000);
    expect(await t.post('/api/admin/me/info', {}, bearer(key.key))).toMatchObject({ status: 401, code: 20000, message: 'error.api_key' });
  });

  it('When a key expires at a moment, then it works a millisecond before and is refused at that very millisecond', async () => {
    const customer = await signUpCustomer(t);
    const expiry = Date.now() + 3_600_000;
    const key = await makeKey(customer, { expires_at: new Date(expiry).toISOString() });
    clockAt(expiry - 1);
    expect((await t.post('/api/admin/me/info', {}, bearer(key.key))).code).toBe(0);
    clockAt(expiry);
    expect(await t.post('/api/admin/me/info', {}, bearer(key.key))).toMatchObject({ status: 401, code: 20000, message: 'error.api_key' });
  });

  it('When a key is made to expire at the present millisecond, then it is refused as in the past; a millisecond later is accepted', async () => {
    const customer = await signUpCustomer(t);
    const at = Date.now();
    clockAt(at);
    const input = (expiry: number) => ({ name: 'Script', access: 'read', confirmation: customer.password, expires_at: new Date(expiry).toISOString() });
    const refused = await t.post('/api/admin/api_key/create', input(at), { token: customer.token });
    expect(refused).toMatchObject({ code: 40000, errors: { expires_at: { message: 'validation.in_the_past' } } });
    expect((await t.post('/api/admin/api_key/create', input(at + 1), { token: customer.token })).code).toBe(0);
  });

  it('When a key allows some addresses, then calls from others are refused (40300) and from those allowed work', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, { allowed_ips: ['203.0.113.0/24', '2001:db8::7'] });
    expect((await t.post('/api/admin/me/info', {}, bearer(key.key, '203.0.113.9'))).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, bearer(key.key, '2001:db8::7'))).code).toBe(0);
    expect(await t.post('/api/admin/me/info', {}, bearer(key.key, '198.51.100.1'))).toMatchObject({ status: 403, code: 40300, message: 'error.api_key_source', params: { ip: '198.51.100.1' } });
    expect((await t.post('/api/admin/me/info', {}, bearer(key.key, '2001:db8::8'))).code).toBe(40300);
  });

  it('When a key allows some addresses and the caller\'s address is not an address at all (a proxy\'s garbled header), then it is refused, not an error', () => {
    expect(allowedFrom(['203.0.113.0/24'], 'unknown')).toBe(false);
    expect(allowedFrom(['203.0.113.0/24'], '')).toBe(false);
    expect(allowedFrom([], 'unknown')).toBe(true);
  });

  it('When a call comes over IPv6 from an IPv4 address (::ffff:198.51.100.77), then it is that IPv4 address: allowed by its entry, refused by a neighbour\'s; an entry in that form allows the plain address', async () => {
    const customer = await signUpCustomer(t);
    const plain = await makeKey(customer, { allowed_ips: ['198.51.100.77'] });
    expect((await t.post('/api/admin/me/info', {}, bearer(plain.key, '::ffff:198.51.100.77'))).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, bearer(plain.key, '::ffff:c633:644d'))).code).toBe(0);
    expect(await t.post('/api/admin/me/info', {}, bearer(plain.key, '::FFFF:198.51.100.78'))).toMatchObject({ code: 40300, params: { ip: '::FFFF:198.51.100.78' } });
    const mapped = await makeKey(customer, { allowed_ips: ['::ffff:198.51.100.77', '::ffff:203.0.113.0/120'] });
    expect((await t.post('/api/admin/me/info', {}, bearer(mapped.key, '198.51.100.77'))).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, bearer(mapped.key, '203.0.113.200'))).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, bearer(mapped.key, '198.51.100.78'))).code).toBe(40300);
  });

  it('When a key is revoked, then the next call with it is refused, and the revocation is logged', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, { name: 'Old script' });
    expect((await t.post('/api/admin/me/info', {}, bearer(key.key))).code).toBe(0);
    expect((await t.post('/api/admin/api_key/delete', { id: key.id }, { token: customer.token })).code).toBe(0);
    expect(await t.post('/api/admin/me/info', {}, bearer(key.key))).toMatchObject({ code: 20000 });
    const log = await t.post('/api/admin/log/list', { filter: { target_type: 'api_key' } }, { token: customer.token });
    expect(log.data.list.map((e: { action: string }) => e.action)).toEqual(['delete', 'create']);
  });

  it('When a key is used, then its last use is shown, written at most once a minute', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, {});
    await t.post('/api/admin/me/info', {}, bearer(key.key, '192.0.2.1'));
    const first = await keyRow(key.id);
    expect(first).toMatchObject({ last_used_ip: '192.0.2.1', last_used_at: expect.any(String) });
    await t.moveClock(30_000);
    await t.post('/api/admin/me/info', {}, bearer(key.key, '192.0.2.1'));
    expect((await keyRow(key.id)).last_used_at).toBe(first.last_used_at);
    await t.moveClock(31_000);
    await t.post('/api/admin/me/info', {}, bearer(key.key, '192.0.2.1'));
    expect((await keyRow(key.id)).last_used_at).not.toBe(first.last_used_at);
    const listed = await t.get('/api/admin/api_key/list', {}, { token: customer.token });
    expect(listed.data.list[0]).toMatchObject({ last_used_ip: '192.0.2.1', last_used_at: expect.any(String) });
  });

  it('When a key is used again exactly a minute after its last use is written, then it is not written again; a millisecond later it is', async () => {
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, {});
    const start = Date.now();
    clockAt(start);
    await t.post('/api/admin/me/info', {}, bearer(key.key, '192.0.2.1'));
    expect((await keyRow(key.id)).last_used_at).toBe(new Date(start).toISOString());
    clockAt(start + 60_000);
    await t.post('/api/admin/me/info', {}, bearer(key.key, '192.0.2.2'));
    expect(await keyRow(key.id)).toMatchObject({ last_used_at: new Date(start).toISOString(), last_used_ip: '192.0.2.1' });
    clockAt(start + 60_001);
    await t.post('/api/admin/me/info', {}, bearer(key.key, '192.0.2.2'));
    expect(await keyRow(key.id)).toMatchObject({ last_used_at: new Date(start + 60_001).toISOString(), last_used_ip: '192.0.2.2' });
  });
});

describe('a read-only key', () => {
  it('When a read-only key asks the dashboard to refresh its summary, then it is refused and nothing is written; it reads the figures, and a read-write key refreshes', async () => {
    const root = await operatorLogin(t);
    const read = await makeKey({ token: root, password: ROOT.password }, { name: 'Dashboard', access: 'read' }, 'manage');
    const write = await makeKey({ token: root, password: ROOT.password }, { name: 'Dashboard writer', access: 'write' }, 'manage');
    const rows = async () => Number((await t.services.db.selectFrom('stat_daily').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    await t.services.db.deleteFrom('stat_daily').execute();
    expect(await t.post('/api/manage/index/stat', { refresh: 1 }, bearer(read.key))).toMatchObject({ status: 403, code: 40300, message: 'error.api_key_read_only' });
    expect(await rows()).toBe(0);
    expect(await t.post('/api/manage/index/stat', {}, bearer(read.key))).toMatchObject({ code: 0, data: { customers: expect.any(Object) } });
    expect(await t.post('/api/manage/index/stat', { refresh: 1 }, bearer(write.key))).toMatchObject({ code: 0 });
    expect(await rows()).toBeGreaterThan(0);
  });
});

describe('how a login signs in', () => {
  it('When an operator’s read-write key changes a customer’s sign-in address, then it is refused and the address stays; the signed-in operator may change it, and the key other fields', async () => {
    const root = await operatorLogin(t);
    const key = await makeKey({ token: root, password: ROOT.password }, { name: 'CRM sync', access: 'write' }, 'manage');
    const customer = await signUpCustomer(t);
    const address = async () => await t.services.db.selectFrom('user').select(['email', 'storage_max']).where('id', '=', customer.id).executeTakeFirstOrThrow();
    expect(await t.post('/api/manage/user/update', { id: customer.id, email: `taken-over-${customer.id}@example.com` }, bearer(key.key))).toMatchObject({ status: 403, code: 40300, message: 'error.api_key_not_here' });
    expect((await address()).email).toBe(customer.email);
    expect(await t.post('/api/manage/user/update', { id: customer.id, email: customer.email, storage_max: 2 * GiB }, bearer(key.key))).toMatchObject({ code: 0 });
    expect(await address()).toEqual({ email: customer.email, storage_max: 2 * GiB });
    expect(await t.post('/api/manage/user/update', { id: customer.id, email: `moved-${customer.id}@example.com` }, { token: root })).toMatchObject({ code: 0 });
    expect((await address()).email).toBe(`moved-${customer.id}@example.com`);
  });
});

describe('whose key', () => {
  it("When a team member makes a key, then it has the member's rights only, the customer sees and may revoke it, and another customer never sees it", async () => {
    const customer = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const key = await makeKey(member, { name: 'Member script', access: 'write' });
    // Team members do not manage the team: nor does their key.
    expect(await t.post('/api/admin/user/list', {}, bearer(key.key))).toMatchObject({ code: 40300, message: 'error.forbidden' });
    expect((await t.get('/api/admin/api_key/list', {}, { token: customer.token })).data.list.map((k: { id: number }) => k.id)).toContain(key.id);
    expect((await t.get('/api/admin/api_key/list', {}, { token: other.token })).data.list).toEqual([]);
    expect(await t.post('/api/admin/api_key/delete', { id: key.id }, { token: other.token })).toMatchObject({ code: 40400 });
    const customersKey = await makeKey(customer, {});
    expect((await t.get('/api/admin/api_key/list', {}, { token: member.token })).data.list.map((k: { id: number }) => k.id)).toEqual([key.id]);
    expect(await t.post('/api/admin/api_key/delete', { id: customersKey.id }, { token: member.token })).toMatchObject({ code: 40400 });
    expect((await t.post('/api/admin/api_key/delete', { id: key.id }, { token: customer.token })).code).toBe(0);
  });

  it('When the login that made a key is disabled, then the key stops at once; when it is deleted, the key goes with it', async () => {
    const root = await operatorLogin(t);
    const customer = await signUpCustomer(t);
    const key = await makeKey(customer, {});
    expect((await t.post('/api/manage/user/update', { id: customer.id, status: 'disabled' }, { token: root })).code).toBe(0);
    expect(await t.post('/api/admin/me/info', {}, bearer(key.key))).toMatchObject({ code: 20000 });
    expect((await t.post('/api/manage/user/update', { id: customer.id, status: 'active' }, { token: root })).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, bearer(key.key))).code).toBe(0);

    const operator = await operatorWithRole(t, 'billing');
    const opKey = await makeKey(operator, { access: 'write' }, 'manage');
    // A billing operator's key may not what billing may not.
    expect(await t.post('/api/manage/admin/list', {}, bearer(opKey.key))).toMatchObject({ code: 40300, message: 'error.forbidden' });
    expect((await t.post('/api/manage/admin/delete', { id: operator.id }, { token: root })).code).toBe(0);
    expect(await t.post('/api/manage/order/list', {}, bearer(opKey.key))).toMatchObject({ code: 20000 });
    expect(await t.services.db.selectFrom('api_key').select('id').where('id', '=', opKey.id).executeTakeFirst()).toBeUndefined();
  });

  it("When operators list keys, then each sees only their own", async () => {
    const root = await operatorLogin(t);
    const support = await operatorWithRole(t, 'support');
    const rootKey = await makeKey({ token: root, password: ROOT.password }, {}, 'manage');
    const supportKey = await makeKey(support, {}, 'manage');
    const ids = async (token: string) => (await t.get('/api/manage/api_key/list', { page_size: 100 }, { token })).data.list.map((k: { id: number }) => k.id);
    expect(await ids(support.token)).toEqual([supportKey.id]);
    expect(await ids(root)).toContain(rootKey.id);
    expect(await ids(root)).not.toContain(supportKey.id);
    expect(await t.post('/api/manage/api_key/delete', { id: rootKey.id }, { token: support.token })).toMatchObject({ code: 40400 });
  });
});

describe('the cost of a key', () => {
  it('When a call comes with a key, then the key and its login are found by index reads, never a table scan (EXPLAIN)', async () => {
    const { db, dialect } = t.services;
    for (const area of ['customer', 'operator'] as const) {
      const text = keyLookupSql[dialect][area];
      let plan: string[];
      if (dialect === 'sqlite') {
        plan = (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, ['x']))).rows.map((r) => r.detail);
        expect(plan.filter((d) => /^SCAN /.test(d)), `${area}: ${plan.join(' | ')}`).toEqual([]);
      } else {
        plan = await db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${text}`, ['x']));
          return rows.map((r) => r['QUERY PLAN']);
        });
        expect(plan.filter((d) => /Seq Scan/.test(d)), `${area}: ${plan.join(' | ')}`).toEqual([]);
      }
      expect(plan.join(' ')).toMatch(/api_key/);
    }
  });
});

describe('the description', () => {
  it('When a client reads /api/openapi.json, then it lists the key calls and declares the API key as a security scheme', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(document.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const path of ['/api/admin/api_key/list', '/api/admin/api_key/create', '/api/admin/api_key/delete', '/api/manage/api_key/list', '/api/manage/api_key/create', '/api/manage/api_key/delete']) {
      expect(Object.values(document.paths[path])[0], path).toMatchObject({ security: [{ Authentication: [] }], 'x-api-key': 'never' });
    }
    for (const area of ['admin', 'manage', 'mail']) {
      for (const call of ['list', 'end', 'end_others']) expect(document.paths[`/api/${area}/session/${call}`], `${area} ${call}`).toBeDefined();
    }
    expect(document.paths['/api/admin/domain/list'].post).toMatchObject({ security: [{ Authentication: [] }, { ApiKey: [] }], 'x-api-key': 'read' });
    expect(document.paths['/api/admin/domain/create'].post['x-api-key']).toBe('write');
    expect(document.paths['/api/mail/me/info'].get.security).toEqual([{ Authentication: [] }]);
    expect(document.info.description).toContain('Authorization: Bearer');
    // What a script's author reads first: the key is shown once, for the area of the call.
    for (const area of ['admin', 'manage']) expect(document.paths[`/api/${area}/api_key/create`].post.summary).toMatch(new RegExp(`^Make an API key for scripts calling /api/${area} .*shown this once`));
  });
});
