/**
 * Where you are signed in (issue 22): customers, team members, operators and mailbox owners see
 * their own live sessions (device and browser, address, last seen), end one or all others, and
 * are e-mailed, in their language, when they sign in from a device they have not used before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp, teamMemberOf, uniqueEmail } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const firefoxOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const firefoxUpdated = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const safariOnIphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const device = (userAgent: string, ip = someIp()) => ({ ip, headers: { 'user-agent': userAgent } });

type Area = 'admin' | 'manage' | 'mail';
interface Person {
  area: Area;
  token: string;
  /** A new session of the same person from a device. */
  signIn(userAgent: string, ip?: string): Promise<string>;
}

async function customerPerson(): Promise<Person> {
  const customer = await signUpCustomer(t);
  return {
    area: 'admin',
    token: customer.token,
    signIn: async (ua, ip) => (await t.post('/api/admin/login/login', { email: customer.email, password: customer.password }, device(ua, ip))).data.token,
  };
}
async function operatorPerson(): Promise<Person> {
  const operator = await operatorWithRole(t, 'support');
  return {
    area: 'manage',
    token: operator.token,
    signIn: async (ua, ip) => (await t.post('/api/manage/login/login', { username: operator.username, password: operator.password }, device(ua, ip))).data.token,
  };
}
async function mailboxPerson(): Promise<Person> {
  const owner = await mailboxOwner(t);
  return {
    area: 'mail',
    token: owner.token,
    signIn: async (ua, ip) => (await t.post('/api/mail/login/login', { email: owner.address, password: owner.password }, device(ua, ip))).data.token,
  };
}

describe.each([
  ['a customer', customerPerson],
  ['an operator', operatorPerson],
  ["a mailbox owner", mailboxPerson],
])('%s', (_who, make) => {
  it('When they sign in on another device, then both sessions are listed with device, address and last seen, the current one marked', async () => {
    const person = await make();
    const phone = await person.signIn(safariOnIphone, '198.51.100.23');
    const listed = await t.get(`/api/${person.area}/session/list`, {}, { token: phone });
    expect(listed.code).toBe(0);
    expect(listed.data.total).toBe(2);
    const [newest, older] = listed.data.list;
    expect(newest).toMatchObject({ current: true, browser: 'Safari', os: 'iOS', device: 'Safari (iOS)', ip: '198.51.100.23', last_seen_at: expect.any(String), created_at: expect.any(String) });
    expect(older).toMatchObject({ current: false });
  });

  it('When they end another session, then that device is signed out at its next call and the change is logged; their own goes on', async () => {
    const person = await make();
    const laptop = await person.signIn(firefoxOnWindows);
    const other = (await t.get(`/api/${person.area}/session/list`, {}, { token: person.token })).data.list.find((s: { current: boolean }) => !s.current);
    expect(await t.post(`/api/${person.area}/session/end`, { id: other.id }, { token: person.token })).toMatchObject({ code: 0, data: { id: other.id } });
    expect((await t.get(`/api/${person.area}/session/list`, {}, { token: laptop })).code).toBe(20000);
    expect((await t.get(`/api/${person.area}/session/list`, {}, { token: person.token })).data.total).toBe(1);
    const entry = await t.services.db.selectFrom('log').selectAll().where('action', '=', 'end_session').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.before!)).toMatchObject({ name: 'Firefox (Windows)' });
  });

  it('When they end all other sessions, then only the one they use is left', async () => {
    const person = await make();
    const others = [await person.signIn(firefoxOnWindows), await person.signIn(safariOnIphone)];
    expect(await t.post(`/api/${person.area}/session/end_others`, {}, { token: person.token })).toMatchObject({ code: 0, data: { count: 2 } });
    for (const token of others) expect((await t.get(`/api/${person.area}/session/list`, {}, { token })).code).toBe(20000);
    expect((await t.get(`/api/${person.area}/session/list`, {}, { token: person.token })).data.list).toEqual([expect.objectContaining({ current: true })]);
  });

  it("When they try to end someone else's session, then it is not found and that session goes on", async () => {
    const person = await make();
    const stranger = await make();
    const theirs = (await t.get(`/api/${stranger.area}/session/list`, {}, { token: stranger.token })).data.list[0];
    expect(await t.post(`/api/${person.area}/session/end`, { id: theirs.id }, { token: person.token })).toMatchObject({ status: 404, code: 40400 });
    expect((await t.get(`/api/${stranger.area}/session/list`, {}, { token: stranger.token })).code).toBe(0);
    expect(await t.post(`/api/${person.area}/session/end`, { id: 'x' }, { token: person.token })).toMatchObject({ code: 40000 });
  });
});

describe('a team member', () => {
  it("When a team member and their customer are signed in, then each lists and ends only their own sessions", async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const mine = (await t.get('/api/admin/session/list', {}, { token: member.token })).data.list;
    expect(mine).toHaveLength(1);
    const customers = (await t.get('/api/admin/session/list', {}, { token: customer.token })).data.list;
    expect(customers.map((s: { id: number }) => s.id)).not.toContain(mine[0].id);
    expect((await t.post('/api/admin/session/end', { id: mine[0].id }, { token: customer.token })).code).toBe(40400);
    expect((await t.post('/api/admin/session/end_others', {}, { token: customer.token })).code).toBe(0);
    expect((await t.get('/api/admin/session/list', {}, { token: member.token })).code).toBe(0);
  });
});

describe('a new device', () => {
  const messagesTo = async (to: string) => (await t.outbox()).filter((m) => m.to === to);

  it('When a customer signs in from a new device, then they get an e-mail in their language; the same device again (also updated) sends none', async () => {
    const email = uniqueEmail();
    const ip = someIp();
    await t.post('/api/admin/login/register', { email, password: 'customer-pass-1' }, { ip, locale: 'zh', headers: { 'user-agent': firefoxOnWindows } });
    // Verified from the same Chinese screen (a code entered on an English one makes the account English).
    await t.post('/api/admin/login/verify', { email, code: await t.lastCode(email) }, { ip, locale: 'zh', headers: { 'user-agent': firefoxOnWindows } });
    const before = (await messagesTo(email)).length;
    await t.post('/api/admin/login/login', { email, password: 'customer-pass-1' }, device(firefoxUpdated));
    expect(await messagesTo(email)).toHaveLength(before);
    await t.post('/api/admin/login/login', { email, password: 'customer-pass-1' }, device(safariOnIphone, '203.0.113.50'));
    const notice = (await messagesTo(email)).at(-1)!;
    expect(notice.subject).toContain('新设备');
    expect(notice.text).toContain('Safari (iOS)');
    expect(notice.text).toContain('203.0.113.50');
    expect(notice.text).toContain('/admin/signed-in');
    await t.post('/api/admin/login/login', { email, password: 'customer-pass-1' }, device(safariOnIphone));
    expect(await messagesTo(email)).toHaveLength(before + 1);
  });

  it('When an operator with an address or a mailbox owner signs in from a new device, then they are told in English when that is their language', async () => {
    const root = await operatorLogin(t);
    const operator = await operatorWithRole(t, 'billing');
    const address = uniqueEmail('operator');
    expect((await t.post('/api/manage/admin/update', { id: operator.id, email: address, locale: 'en' }, { token: root })).code).toBe(0);
    await t.post('/api/manage/login/login', { username: operator.username, password: operator.password }, device(firefoxOnWindows));
    expect((await messagesTo(address)).at(-1)).toMatchObject({ subject: 'New sign-in to your Maildesk account from Firefox (Windows)' });

    const owner = await mailboxOwner(t);
    await t.post('/api/mail/login/login', { email: owner.address, password: owner.password }, { ...device(safariOnIphone), locale: 'en' });
    expect((await messagesTo(owner.address)).at(-1)?.text).toContain('/mail/signed-in');
  });
});
