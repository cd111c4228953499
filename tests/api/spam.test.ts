/**
 * Spam settings and sender lists through the API in the three areas, what rspamd reads of them
 * (the maps, with their token) and what it reports (figures, held mailboxes, notices).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, teamMemberOf } from '../helpers/fixtures.js';
import { GiB, mailboxOwner, mailFixtures } from '../helpers/mail-fixtures.js';

const TOKEN = 'mail-server-token-0123456789';
let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
beforeAll(async () => {
  t = await startTestApp({ MAIL_SERVER_TOKEN: TOKEN });
  mail = mailFixtures(t);
});
afterAll(() => t.close());

/** What rspamd reads: a map through HTTP basic auth (the token as password). */
async function map(name: 'settings' | 'lists', password = TOKEN, etag?: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/mail-server/spam/${name}.map`,
    headers: { authorization: `Basic ${Buffer.from(`maildesk:${password}`).toString('base64')}`, ...(etag ? { 'if-none-match': etag } : {}) },
  });
  return { status: response.statusCode, text: response.body, etag: String(response.headers.etag ?? '') };
}
const report = (body: Record<string, unknown>, token = TOKEN) =>
  t.app.inject({ method: 'POST', url: '/api/mail-server/spam/report', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

describe('spam settings', () => {
  it('When nothing is set, then a mailbox and its domain follow the operators\' default; the default map says so', async () => {
    const owner = await mailboxOwner(t);
    const info = await t.get('/api/mail/spam/info', {}, { token: owner.token });
    expect(info).toMatchObject({ code: 0, data: { filter: 'inherit', junk_score: null, effective: { filter: 'on', junk_score: 6, reject_score: 15, from: 'default' } } });
    expect((await map('settings')).text).toMatch(/^default on:6\.0:15\.0$/m);
  });

  it('When a customer sets the domain and the owner the mailbox, then the mailbox\'s applies, both appear in the map, and inherit removes it again', async () => {
    const owner = await mailboxOwner(t);
    const domain = await t.get('/api/admin/domain/get', { id: owner.domainId }, { token: owner.customer.token });
    const before = await map('settings');
    const set = await t.post('/api/admin/spam/update_domain', { id: owner.domainId, filter: 'on', junk_score: 4.5, reject_score: 9 }, { token: owner.customer.token });
    expect(set).toMatchObject({ code: 0, data: { filter: 'on', junk_score: 4.5, reject_score: 9, effective: { from: 'domain' } } });
    expect((await t.get('/api/mail/spam/info', {}, { token: owner.token })).data.effective).toEqual({ filter: 'on', junk_score: 4.5, reject_score: 9, from: 'domain' });
    const own = await t.post('/api/mail/spam/update', { filter: 'off' }, { token: owner.token });
    expect(own.data).toMatchObject({ filter: 'off', effective: { filter: 'off', from: 'mailbox' } });
    const after = await map('settings', TOKEN, before.etag);
    expect(after.status).toBe(200);
    expect(after.text).toContain(`\n${domain.data.name} on:4.5:9.0\n`);
    expect(after.text).toContain(`\n${owner.address} off\n`);
    // Unchanged since: rspamd's next look costs a 304.
    expect((await map('settings', TOKEN, after.etag)).status).toBe(304);
    await t.post('/api/mail/spam/update', { filter: 'inherit' }, { token: owner.token });
    expect((await map('settings')).text).not.toContain(owner.address);
    // Who changed what is in the customer's activity log.
    const log = await t.post('/api/admin/log/list', { page_size: 50 }, { token: owner.customer.token });
    expect(log.data.list.map((e: { target_type: string }) => e.target_type)).toEqual(expect.arrayContaining(['domain_spam', 'email_spam']));
  });

  it('When scores are wrong, then a clear translated error with a 4xxxx code is answered, never a 500', async () => {
    const owner = await mailboxOwner(t);
    const tries = [
      [{ filter: 'on', junk_score: 9, reject_score: 5 }, 'junk_score', 'validation.spam_junk_below_reject'],
      [{ filter: 'on', junk_score: 5 }, 'reject_score', 'validation.required'],
      [{ filter: 'on', junk_score: 5.25, reject_score: 9 }, 'junk_score', 'validation.spam_score_decimals'],
      [{ filter: 'on', junk_score: 5, reject_score: 1000 }, 'reject_score', undefined],
      [{ filter: 'sometimes' }, 'filter', undefined],
    ] as const;
    for (const [body, field, message] of tries) {
      const reply = await t.post('/api/mail/spam/update', body, { token: owner.token });
      expect(reply, JSON.stringify(body)).toMatchObject({ status: 400, code: 40000 });
      expect(reply.errors?.[field], JSON.stringify(reply)).toBeDefined();
      if (message) expect(reply.errors?.[field]?.message).toBe(message);
    }
    const zh = await t.post('/api/mail/spam/update', tries[0][0], { token: owner.token, locale: 'zh' });
    expect(zh.code).toBe(40000);
  });

  it('When operators change the default, then it applies to every domain without its own', async () => {
    const root = await mail.operator();
    const set = await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 5, reject_score: 12, hourly_floor: 100, rate_factor: 10 }, { token: root });
    expect(set).toMatchObject({ code: 0, data: { junk_score: 5, reject_score: 12, updated_by: 'operator:root' } });
    expect((await map('settings')).text).toMatch(/^default on:5\.0:12\.0$/m);
    await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 }, { token: root });
  });
});

describe('sender lists', () => {
  it('When a customer, a team member and an owner list senders, then each sees only theirs, duplicates and bad senders are refused, and the lists map names them', async () => {
    const owner = await mailboxOwner(t);
    const domain = (await t.get('/api/admin/domain/get', { id: owner.domainId }, { token: owner.customer.token })).data;
    const byCustomer = await t.post('/api/admin/spam_list/create', { domain_id: owner.domainId, sender: 'News.Example.ORG', action: 'block' }, { token: owner.customer.token });
    expect(byCustomer).toMatchObject({ code: 0, data: { sender: 'news.example.org', action: 'block', mailbox_id: null, owner_id: owner.customer.id } });
    const byOwner = await t.post('/api/mail/spam_list/create', { sender: 'friend@partner.example', action: 'allow' }, { token: owner.token });
    expect(byOwner).toMatchObject({ code: 0, data: { sender: 'friend@partner.example', mailbox_id: owner.id, domain_id: owner.domainId } });
    expect(await t.post('/api/mail/spam_list/create', { sender: 'friend@partner.example', action: 'block' }, { token: owner.token })).toMatchObject({ code: 40900, message: 'error.spam_sender_listed' });
    expect(await t.post('/api/mail/spam_list/create', { sender: 'not a sender', action: 'block' }, { token: owner.token })).toMatchObject({ code: 40000, errors: { sender: { message: 'validation.spam_sender' } } });
    expect(await t.post('/api/admin/spam_list/create', { sender: 'x.example', action: 'block' }, { token: owner.customer.token })).toMatchObject({ code: 40000, errors: { domain_id: { message: 'validation.required' } } });

    const ownList = await t.get('/api/mail/spam_list/list', {}, { token: owner.token });
    expect(ownList.data.list.map((r: { sender: string }) => r.sender)).toEqual(['friend@partner.example']);
    const customerList = await t.get('/api/admin/spam_list/list', { filter: { domain_id: owner.domainId } }, { token: owner.customer.token });
    expect(customerList.data.total).toBe(2);

    // Another customer neither sees nor adds to these lists.
    const other = await signUpCustomer(t);
    expect((await t.get('/api/admin/spam_list/list', {}, { token: other.token })).data.total).toBe(0);
    expect((await t.post('/api/admin/spam_list/create', { domain_id: owner.domainId, sender: 'x.example', action: 'block' }, { token: other.token })).code).toBe(40400);
    expect((await t.post('/api/admin/spam_list/delete', { id: byOwner.data.id }, { token: other.token })).code).toBe(40400);
    // A team member without the domain does not either.
    const member = await teamMemberOf(t, owner.customer, { domain_ids: [] });
    expect((await t.post('/api/admin/spam_list/create', { domain_id: owner.domainId, sender: 'x.example', action: 'block' }, { token: member.token })).code).toBe(40300);

    const lists = (await map('lists')).text;
    expect(lists).toContain(`\n${domain.name}|news.example.org block\n`);
    expect(lists).toContain(`\n${owner.address}|friend@partner.example allow\n`);
    expect((await t.post('/api/mail/spam_list/delete', { id: byOwner.data.id }, { token: owner.token })).code).toBe(0);
    expect((await map('lists')).text).not.toContain('friend@partner.example');
  });

  it('When the maps or the report are asked for without the token, then they are refused', async () => {
    expect((await map('settings', 'wrong-token-0000000000')).status).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/mail-server/spam/lists.map' })).statusCode).toBe(401);
    expect((await report({ direction: 'in', recipients: [], action: 'no action', verdict: 'inbox', score: 0 }, 'wrong')).statusCode).toBe(401);
  });
});

describe('what rspamd reports', () => {
  it('When mail from outside is scored, then the domain\'s day counts received, junked and rejected', async () => {
    const owner = await mailboxOwner(t);
    const domain = (await t.get('/api/admin/domain/get', { id: owner.domainId }, { token: owner.customer.token })).data;
    const to = [`x@${domain.name}`];
    for (const [action, verdict] of [['no action', 'inbox'], ['add header', 'junk'], ['reject', 'reject'], ['reject', 'reject']]) {
      expect((await report({ direction: 'in', recipients: to, action, verdict, score: 1 })).statusCode).toBe(200);
    }
    const stats = await t.get('/api/admin/spam/stats', { domain_id: owner.domainId, days: 7 }, { token: owner.customer.token });
    expect(stats.data.days).toHaveLength(7);
    expect(stats.data.days.at(-1)).toMatchObject({ received: 4, junked: 1, rejected: 2 });
    expect((await t.get('/api/admin/spam/stats', { domain_id: owner.domainId }, { token: (await signUpCustomer(t)).token })).code).toBe(40400);
  });

  it('When a mailbox submits spam, then it is held, the customer and operators are told, and the customer releases it', async () => {
    const owner = await mailboxOwner(t);
    expect((await report({ direction: 'out', user: owner.address, recipients: ['a@b.example'], action: 'reject', verdict: 'reject', score: 15 })).statusCode).toBe(200);
    const held = await t.get('/api/admin/spam/held', {}, { token: owner.customer.token });
    expect(held.data.list).toEqual([expect.objectContaining({ mailbox_id: owner.id, address: owner.address, reason: 'spam' })]);
    expect((await t.get('/api/manage/spam/held', {}, { token: await mail.operator() })).data.list.map((h: { mailbox_id: number }) => h.mailbox_id)).toContain(owner.id);
    const sent = (await t.outbox()).filter((m) => m.to === owner.customer.email);
    expect(sent.at(-1)?.subject).toContain(owner.address);
    expect((await t.post('/api/admin/spam/release', { mailbox_id: owner.id }, { token: (await signUpCustomer(t)).token })).code).toBe(40400);
    expect(await t.post('/api/admin/spam/release', { mailbox_id: owner.id }, { token: owner.customer.token })).toMatchObject({ code: 0, data: { released: true } });
    expect((await t.get('/api/admin/spam/held', {}, { token: owner.customer.token })).data.list).toEqual([]);
    expect((await t.post('/api/admin/spam/release', { mailbox_id: owner.id }, { token: owner.customer.token })).code).toBe(40400);
  });

  it('When a mailbox submits far more than its floor and usual rate in an hour, then it is held for its rate', async () => {
    const root = await mail.operator();
    await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 3, rate_factor: 10 }, { token: root });
    const owner = await mailboxOwner(t);
    for (let i = 0; i < 4; i++) await report({ direction: 'out', user: owner.address, recipients: ['a@b.example'], action: 'no action', verdict: 'inbox', score: 0 });
    const held = await t.get('/api/manage/spam/held', {}, { token: root });
    expect(held.data.list.find((h: { mailbox_id: number }) => h.mailbox_id === owner.id)).toMatchObject({ reason: 'rate' });
    await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 }, { token: root });
    expect((await t.post('/api/manage/spam/release', { mailbox_id: owner.id }, { token: root })).code).toBe(0);
  });
});

void GiB;
