/**
 * The spam rules the first spam tests did not reach (found by Stryker on server/spam): reading
 * settings in each area, which operators may change them, what a team member sees of held
 * mailboxes, who is told of a hold and in which language, what the activity log keeps, what
 * rspamd's reports count when they are odd, and how the mail server's routes take their token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMs, setClock } from '../../server/core/time.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer, teamMemberOf } from '../helpers/fixtures.js';
import { mailboxOwner, mailFixtures } from '../helpers/mail-fixtures.js';

const TOKEN = 'mail-server-token-0123456789';
let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
beforeAll(async () => {
  t = await startTestApp({ MAIL_SERVER_TOKEN: TOKEN });
  mail = mailFixtures(t);
});
afterAll(() => t.close());

const inject = (method: 'GET' | 'POST', url: string, authorization: string, body?: unknown) =>
  t.app.inject({ method, url, headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { payload: JSON.stringify(body) } : {}) });
const report = (body: Record<string, unknown>) => inject('POST', '/api/mail-server/spam/report', `Bearer ${TOKEN}`, body);
const refusedAsSpam = (address: string) => report({ direction: 'out', user: address, recipients: ['a@b.example'], action: 'reject', verdict: 'reject', score: 15 });
const domainName = async (owner: Awaited<ReturnType<typeof mailboxOwner>>) => (await t.get('/api/admin/domain/get', { id: owner.domainId }, { token: owner.customer.token })).data.name as string;
const heldIds = async (token: string, area: 'admin' | 'manage' = 'admin') => (await t.get(`/api/${area}/spam/held`, {}, { token })).data.list.map((h: { mailbox_id: number }) => h.mailbox_id);

describe('reading and changing settings', () => {
  it('When a domain\'s and a mailbox\'s settings are read, then the customer and operators see its own setting, who set it and what applies; another customer finds neither', async () => {
    const owner = await mailboxOwner(t);
    await t.post('/api/admin/spam/update_domain', { id: owner.domainId, filter: 'on', junk_score: 4.5, reject_score: 9 }, { token: owner.customer.token });
    const domainSetting = { filter: 'on', junk_score: 4.5, reject_score: 9, effective: { filter: 'on', junk_score: 4.5, reject_score: 9, from: 'domain' }, updated_by: `customer:${owner.customer.email}` };
    const mailboxSetting = { filter: 'inherit', junk_score: null, reject_score: null, effective: { filter: 'on', junk_score: 4.5, reject_score: 9, from: 'domain' }, updated_at: null, updated_by: null };
    const operator = await mail.operator();
    for (const [area, token] of [['admin', owner.customer.token], ['manage', operator]] as const) {
      const domain = await t.get(`/api/${area}/spam/domain`, { id: owner.domainId }, { token });
      expect(domain, area).toMatchObject({ code: 0, data: domainSetting });
      expect(domain.data.updated_at, area).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await t.get(`/api/${area}/spam/mailbox`, { id: owner.id }, { token }), area).toMatchObject({ code: 0, data: mailboxSetting });
    }
    const stranger = await signUpCustomer(t);
    expect((await t.get('/api/admin/spam/domain', { id: owner.domainId }, { token: stranger.token })).code).toBe(40400);
    expect((await t.get('/api/admin/spam/mailbox', { id: owner.id }, { token: stranger.token })).code).toBe(40400);
    expect(await t.get('/api/manage/spam/defaults', {}, { token: operator })).toMatchObject({ code: 0, data: { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 } });
  });

  it('When a billing operator looks at spam, then they read settings and held mailboxes but may change or release nothing; a support operator may', async () => {
    const owner = await mailboxOwner(t);
    await refusedAsSpam(owner.address);
    const billing = await operatorWithRole(t, 'billing');
    const support = await operatorWithRole(t, 'support');
    const setting = { id: owner.domainId, filter: 'off' };
    expect((await t.get('/api/manage/spam/domain', { id: owner.domainId }, { token: billing.token })).code).toBe(0);
    expect((await t.get('/api/manage/spam/defaults', {}, { token: billing.token })).code).toBe(0);
    expect(await heldIds(billing.token, 'manage')).toContain(owner.id);
    for (const [call, body] of [
      ['update_domain', setting],
      ['update_mailbox', { ...setting, id: owner.id }],
      ['release', { mailbox_id: owner.id }],
      ['update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 }],
    ] as const) {
      expect(await t.post(`/api/manage/spam/${call}`, body, { token: billing.token }), call).toMatchObject({ status: 403 });
    }
    expect((await t.get('/api/admin/spam/domain', { id: owner.domainId }, { token: owner.customer.token })).data.filter).toBe('inherit');
    expect(await heldIds(billing.token, 'manage')).toContain(owner.id);
    expect((await t.post('/api/manage/spam/update_domain', setting, { token: support.token })).data).toMatchObject({ filter: 'off', effective: { from: 'domain' } });
    expect((await t.post('/api/manage/spam/release', { mailbox_id: owner.id }, { token: support.token })).code).toBe(0);
  });

  it('When a setting or the defaults change, then the activity log has the change with what it was and became, on the mailbox or domain it concerns', async () => {
    const owner = await mailboxOwner(t);
    await t.post('/api/admin/spam/update_mailbox', { id: owner.id, filter: 'on', junk_score: 5, reject_score: 11 }, { token: owner.customer.token });
    const entries = (await t.post('/api/admin/log/list', { page_size: 20, target_type: 'email_spam' }, { token: owner.customer.token })).data.list;
    const entry = entries.find((e: { target_id: number }) => e.target_id === owner.id);
    expect(entry).toMatchObject({ action: 'update', target_type: 'email_spam' });
    expect((await t.get('/api/admin/log/get', { id: entry.id }, { token: owner.customer.token })).data).toMatchObject({
      before: { filter: 'inherit', junk_score: null, reject_score: null },
      after: { filter: 'on', junk_score: 5, reject_score: 11 },
    });
    await t.post('/api/admin/spam/update_domain', { id: owner.domainId, filter: 'off' }, { token: owner.customer.token });
    const onDomain = (await t.post('/api/admin/log/list', { page_size: 5, target_type: 'domain_spam' }, { token: owner.customer.token })).data.list;
    expect(onDomain[0]).toMatchObject({ action: 'update', target_id: owner.domainId });
    const operator = await mail.operator();
    await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 }, { token: operator });
    const defaults = (await t.post('/api/manage/log/list', { page_size: 5, target_type: 'spam_default' }, { token: operator })).data.list;
    expect(defaults[0]).toMatchObject({ action: 'update', target_type: 'spam_default', target_id: 1 });
  });

  it('When a mailbox\'s own setting is set twice and then inherited, then it is changed in place and removed: what applies is the domain\'s again', async () => {
    const owner = await mailboxOwner(t);
    const set = (body: Record<string, unknown>) => t.post('/api/admin/spam/update_mailbox', { id: owner.id, ...body }, { token: owner.customer.token });
    expect((await set({ filter: 'on', junk_score: 5, reject_score: 11 })).data).toMatchObject({ filter: 'on', junk_score: 5 });
    expect((await set({ filter: 'on', junk_score: 7, reject_score: 12 })).data).toMatchObject({ filter: 'on', junk_score: 7, reject_score: 12, effective: { from: 'mailbox' } });
    expect((await set({ filter: 'inherit' })).data).toMatchObject({ filter: 'inherit', junk_score: null, effective: { junk_score: 6, from: 'default' } });
    // Inheriting what is inherited already changes nothing and is no error.
    expect((await set({ filter: 'inherit' })).data).toMatchObject({ filter: 'inherit', effective: { from: 'default' } });
    // On needs both scores: each one missing is named.
    expect(await set({ filter: 'on', reject_score: 12 })).toMatchObject({ status: 400, errors: { junk_score: { message: 'validation.required' } } });
    expect(await set({ filter: 'on', junk_score: 7 })).toMatchObject({ status: 400, errors: { reject_score: { message: 'validation.required' } } });
  });
});

describe('held mailboxes', () => {
  it('When a team member looks at held mailboxes, then only those of their domains are listed; a member with no domain sees none', async () => {
    const first = await mailboxOwner(t);
    const second = await mailboxOwner(t, first.customer);
    await refusedAsSpam(first.address);
    await refusedAsSpam(second.address);
    expect((await heldIds(first.customer.token)).sort()).toEqual([first.id, second.id].sort());
    const member = await teamMemberOf(t, first.customer, { domain_ids: [first.domainId] });
    expect(await heldIds(member.token)).toEqual([first.id]);
    const none = await teamMemberOf(t, first.customer, { domain_ids: [] });
    expect(await heldIds(none.token)).toEqual([]);
  });

  it('When a mailbox is refused as spam twice, then it is held once and told once; the hold (by the system) and its release (by the customer) are in the activity log', async () => {
    const owner = await mailboxOwner(t);
    await refusedAsSpam(owner.address);
    await refusedAsSpam(owner.address);
    const told = (await t.outbox()).filter((m) => m.to === owner.customer.email && m.subject.includes(owner.address));
    expect(told).toHaveLength(1);
    const held = (await t.get('/api/admin/spam/held', {}, { token: owner.customer.token })).data.list;
    expect(held).toEqual([expect.objectContaining({ mailbox_id: owner.id, reason: 'spam', detail: 'a message scored 15.0 was refused as spam' })]);
    expect((await t.post('/api/admin/spam/release', { mailbox_id: owner.id }, { token: owner.customer.token })).code).toBe(0);
    const log = (await t.post('/api/admin/log/list', { page_size: 50, target_type: 'email' }, { token: owner.customer.token })).data.list.filter((e: { target_id: number }) => e.target_id === owner.id);
    const hold = log.filter((e: { action: string }) => e.action === 'hold');
    expect(hold).toEqual([expect.objectContaining({ actor_type: 'system', actor_name: 'spam', target_type: 'email' })]);
    expect((await t.get('/api/admin/log/get', { id: hold[0].id }, { token: owner.customer.token })).data.after).toEqual({ address: owner.address, reason: 'spam', detail: 'a message scored 15.0 was refused as spam' });
    const release = log.find((e: { action: string }) => e.action === 'release');
    expect(release).toMatchObject({ actor_type: 'customer', target_type: 'email' });
    expect((await t.get('/api/admin/log/get', { id: release.id }, { token: owner.customer.token })).data.before).toEqual({ address: owner.address, reason: 'spam' });
  });

  it('When a mailbox is held, then its customer is told in the customer\'s language with the customer\'s page, and superadmin and support operators with an address in theirs with the operators\' page; billing operators and operators without an address are not', async () => {
    const root = await mail.operator();
    const makeOperator = async (role: string, email: string, locale: string) =>
      expect((await t.post('/api/manage/admin/create', { username: `${role}-${email.length}-${nowMs()}`, password: 'operator-pass-1', role, email, locale }, { token: root })).code).toBe(0);
    const tag = nowMs();
    const support = `support-${tag}@provider.example`;
    const billing = `billing-${tag}@provider.example`;
    const superadmin = `superadmin-${tag}@provider.example`;
    await makeOperator('superadmin', superadmin, 'zh');
    await makeOperator('support', support, 'en');
    await makeOperator('billing', billing, 'en');
    await makeOperator('support', '', 'en');
    const english = await mailboxOwner(t);
    expect((await t.post('/api/admin/me/update_locale', { locale: 'en' }, { token: english.customer.token })).code).toBe(0);
    const chinese = await mailboxOwner(t);
    expect((await t.post('/api/admin/me/update_locale', { locale: 'zh' }, { token: chinese.customer.token })).code).toBe(0);
    const before = (await t.outbox()).length;
    await refusedAsSpam(english.address);
    await refusedAsSpam(chinese.address);
    const sent = (await t.outbox()).slice(before);
    const to = (address: string) => sent.filter((m) => m.to === address);
    expect(to(english.customer.email)).toEqual([expect.objectContaining({ subject: `Mailbox ${english.address} is held: it may not send until released` })]);
    expect(to(english.customer.email)[0].text).toContain('http://maildesk.test/admin/spam_held');
    expect(to(english.customer.email)[0].text).toContain('spam: a message scored 15.0 was refused as spam');
    expect(to(chinese.customer.email)).toEqual([expect.objectContaining({ subject: `邮箱 ${chinese.address} 已被暂停发信，释放前无法发送邮件` })]);
    expect(to(support).map((m) => m.subject)).toEqual([english.address, chinese.address].map((a) => `Mailbox ${a} is held: it may not send until released`));
    expect(to(support)[0].text).toContain('http://maildesk.test/manage/spam_held');
    expect(to(superadmin).map((m) => m.subject)).toEqual([english.address, chinese.address].map((a) => `邮箱 ${a} 已被暂停发信，释放前无法发送邮件`));
    expect(to(billing)).toEqual([]);
    expect(sent.every((m) => m.to.includes('@'))).toBe(true);
  });

  it('When a mailbox is held for its rate, then the hold says how many it sent this hour against its usual', async () => {
    const root = await mail.operator();
    await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 2, rate_factor: 10 }, { token: root });
    // A minute into an hour, so that every message of the test is counted in the same one.
    setClock(new Date(Math.ceil(nowMs() / 3_600_000) * 3_600_000 + 60_000));
    try {
      const owner = await mailboxOwner(t);
      for (let i = 0; i < 3; i++) await report({ direction: 'out', user: owner.address, recipients: ['a@b.example'], action: 'no action', verdict: 'inbox', score: 0 });
      const held = (await t.get('/api/admin/spam/held', {}, { token: owner.customer.token })).data.list;
      expect(held).toEqual([expect.objectContaining({ mailbox_id: owner.id, reason: 'rate', detail: '3 messages this hour (usually at most 0)' })]);
    } finally {
      await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 }, { token: root });
      setClock();
    }
  });
});

describe('what rspamd reports, when it is odd', () => {
  it('When a report names no mailbox, an unknown one, or recipients without a domain, then it is taken (ok) and counts nothing it cannot place', async () => {
    const owner = await mailboxOwner(t);
    const domain = await domainName(owner);
    for (const body of [
      { direction: 'out', recipients: ['a@b.example'], action: 'reject', verdict: 'reject', score: 20 },
      { direction: 'out', user: 'nobody@nowhere.example', recipients: ['a@b.example'], action: 'reject', verdict: 'reject', score: 20 },
      { direction: 'in', recipients: ['postmaster'], action: 'no action', verdict: 'inbox', score: 0 },
      { direction: 'in', recipients: ['postmaster', `x@${domain}`], action: 'no action', verdict: 'inbox', score: 0 },
    ]) {
      const answer = await report(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(200);
      expect(answer.json()).toEqual({ code: 0, data: null, message: 'ok' });
    }
    const today = (await t.get('/api/admin/spam/stats', { domain_id: owner.domainId, days: 1 }, { token: owner.customer.token })).data.days[0];
    expect(today).toMatchObject({ received: 1, junked: 0, rejected: 0 });
  });

  it('When one of a domain\'s two recipients was taken off a message, then the domain still received it: it counts as refused only when all of them were', async () => {
    const owner = await mailboxOwner(t);
    const domain = await domainName(owner);
    const [a, b] = [`a@${domain}`, `b@${domain}`];
    await report({ direction: 'in', recipients: [a, b], refused: [a], action: 'no action', verdict: 'inbox', score: 4 });
    await report({ direction: 'in', recipients: [a, b], refused: [a.toUpperCase(), b], action: 'no action', verdict: 'inbox', score: 4 });
    const today = (await t.get('/api/admin/spam/stats', { domain_id: owner.domainId, days: 1 }, { token: owner.customer.token })).data.days[0];
    expect(today).toMatchObject({ received: 2, rejected: 1 });
  });

  it('When rspamd\'s clock is off, then a report dated more than 5 minutes ahead or more than 30 days back counts today; within those, on the day it was scored', async () => {
    // Three minutes before midnight (UTC), so that a few minutes ahead is another day.
    const midnight = Math.ceil(nowMs() / 86_400_000) * 86_400_000;
    setClock(new Date(midnight - 180_000));
    try {
      const owner = await mailboxOwner(t);
      const domain = await domainName(owner);
      const scored = (seconds: number) => report({ direction: 'in', recipients: [`x@${domain}`], action: 'reject', verdict: 'reject', score: 20, at: Math.floor(nowMs() / 1000) + seconds });
      await scored(4 * 60); // tomorrow, within 5 minutes: tomorrow
      await scored(6 * 60); // beyond: today
      await scored(-30 * 86_400 + 60); // 30 days back, less a minute: that day
      await scored(-30 * 86_400 - 60); // a minute more: today
      const days = async () => (await t.get('/api/admin/spam/stats', { domain_id: owner.domainId, days: 32 }, { token: owner.customer.token })).data.days.map((d: { received: number }) => d.received);
      const today = await days();
      expect(today.at(-1)).toBe(2);
      expect(today.at(-31)).toBe(1);
      expect(today.reduce((a: number, b: number) => a + b, 0)).toBe(3);
      setClock(new Date(midnight + 60_000));
      expect((await days()).at(-1)).toBe(1);
    } finally {
      setClock();
    }
  });
});

describe('the mail server\'s routes', () => {
  it('When the token is sent with more space after its scheme, then it is taken, as bearer and as basic auth; under another scheme, refused with a basic-auth challenge', async () => {
    const basic = (password: string) => Buffer.from(`maildesk:${password}`).toString('base64');
    const map = await inject('GET', '/api/mail-server/spam/settings.map', `Basic   ${basic(TOKEN)}`);
    expect(map.statusCode).toBe(200);
    expect(map.headers['content-type']).toBe('text/plain; charset=utf-8');
    // rspamd must ask again each time (with the ETag) to see a change within its minute.
    expect(map.headers['cache-control']).toBe('no-cache');
    expect((await inject('POST', '/api/mail-server/spam/report', `Bearer   ${TOKEN}`, { direction: 'in', recipients: [], action: 'no action', verdict: 'inbox', score: 0 })).statusCode).toBe(200);
    const other = await inject('GET', '/api/mail-server/spam/settings.map', `Other ${basic(TOKEN)}`);
    expect(other.statusCode).toBe(401);
    expect(other.headers['www-authenticate']).toBe('Basic realm="maildesk"');
    expect(other.json()).toEqual({ code: 20000, data: null, message: 'error.session' });
  });

  it('When no mail-server token is configured, then the routes are not there', async () => {
    const without = await startTestApp();
    try {
      const answer = await without.app.inject({ method: 'GET', url: '/api/mail-server/spam/lists.map', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ code: 40400, data: null, message: 'error.not_found' });
    } finally {
      await without.close();
    }
  });
});

describe('sender lists', () => {
  it('When a sender is not an address or a domain, names no domain, or is listed already, then the entry is refused with the field and the sender named', async () => {
    const owner = await mailboxOwner(t);
    const create = (body: Record<string, unknown>) => t.post('/api/admin/spam_list/create', { action: 'block', ...body }, { token: owner.customer.token });
    expect(await create({ domain_id: owner.domainId, sender: 'a@b@c.example' })).toMatchObject({ status: 400, errors: { sender: { message: 'validation.spam_sender' } } });
    expect(await create({ sender: 'offers@spammer.example' })).toMatchObject({ status: 400, errors: { domain_id: { message: 'validation.required' } } });
    expect((await create({ domain_id: owner.domainId, sender: 'Offers@Spammer.example' })).code).toBe(0);
    expect(await create({ domain_id: owner.domainId, sender: 'offers@spammer.example' })).toMatchObject({ status: 409, message: 'error.spam_sender_listed', params: { sender: 'offers@spammer.example' } });
  });
});
