/**
 * Spam settings and sender lists through the API in the three areas, what rspamd reads of them
 * (the maps, with their token) and what it reports (figures, held mailboxes, notices).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMs } from '../../server/core/time.js';
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
/** rspamd's report of a message the mailbox submitted that passed. */
const submit = async (address: string) => expect((await report({ direction: 'out', user: address, recipients: ['a@b.example'], action: 'no action', verdict: 'inbox', score: 0 })).statusCode).toBe(200);

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
      [{ filter: 'on', junk_score: 9, reject_score: 9 }, 'junk_score', 'validation.spam_junk_below_reject'],
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

  it('When junk is a tenth below reject, then the scores are kept; equal, they are refused, for a mailbox, a domain and the operators\' default alike', async () => {
    const owner = await mailboxOwner(t);
    const root = await mail.operator();
    const equal = { filter: 'on', junk_score: 9, reject_score: 9 };
    const below = { filter: 'on', junk_score: 8.9, reject_score: 9 };
    const refusal = { status: 400, code: 40000, errors: { junk_score: { message: 'validation.spam_junk_below_reject' } } };
    expect(await t.post('/api/mail/spam/update', equal, { token: owner.token })).toMatchObject(refusal);
    expect(await t.post('/api/mail/spam/update', below, { token: owner.token })).toMatchObject({ code: 0, data: { filter: 'on', junk_score: 8.9, reject_score: 9 } });
    expect(await t.post('/api/admin/spam/update_domain', { id: owner.domainId, ...equal }, { token: owner.customer.token })).toMatchObject(refusal);
    expect(await t.post('/api/admin/spam/update_domain', { id: owner.domainId, ...below }, { token: owner.customer.token })).toMatchObject({ code: 0, data: { junk_score: 8.9, reject_score: 9 } });
    const limits = { hourly_floor: 200, rate_factor: 10 };
    expect(await t.post('/api/manage/spam/update_defaults', { ...equal, ...limits }, { token: root })).toMatchObject(refusal);
    expect((await map('settings')).text).toMatch(/^default on:6\.0:15\.0$/m);
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

  it('When an entry names a mailbox, then the mailbox must be of the entry\'s domain: of another of the customer\'s domains it is refused, of another customer\'s not found', async () => {
    const owner = await mailboxOwner(t);
    const elsewhere = await mailboxOwner(t, owner.customer);
    const stranger = await mailboxOwner(t);
    const entry = (mailboxId: number) => t.post('/api/admin/spam_list/create', { domain_id: owner.domainId, mailbox_id: mailboxId, sender: 'promo.example', action: 'block' }, { token: owner.customer.token });
    expect(elsewhere.domainId).not.toBe(owner.domainId);
    expect(await entry(elsewhere.id)).toMatchObject({ status: 400, code: 40000, errors: { mailbox_id: { message: 'validation.spam_mailbox_of_domain' } } });
    expect(await entry(stranger.id)).toMatchObject({ code: 40400 });
    expect((await t.get('/api/admin/spam_list/list', {}, { token: owner.customer.token })).data.total).toBe(0);
    expect(await entry(owner.id)).toMatchObject({ code: 0, data: { domain_id: owner.domainId, mailbox_id: owner.id, sender: 'promo.example' } });
    expect((await map('lists')).text).toContain(`\n${owner.address}|promo.example block\n`);
    expect((await map('lists')).text).not.toContain(`${elsewhere.address}|promo.example`);
  });

  it('When the maps or the report are asked for without the token, then they are refused', async () => {
    expect((await map('settings', 'wrong-token-0000000000')).status).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/mail-server/spam/lists.map' })).statusCode).toBe(401);
    expect((await report({ direction: 'in', recipients: [], action: 'no action', verdict: 'inbox', score: 0 }, 'wrong')).statusCode).toBe(401);
  });
});

describe('allowed senders in the mailbox\'s spam script', () => {
  /** The script Pigeonhole runs before the owner's own (the mail_sieve view Dovecot reads). */
  const spamScript = async (address: string) =>
    (await sql<{ script_id: string; script: string }>`SELECT script_id, script FROM mail_sieve WHERE address = ${address} AND name = 'spam'`.execute(t.services.db)).rows[0];

  it('When a mailbox or its domain allows a sender, then the mailbox\'s spam script leaves that sender\'s mail out of Junk (another recipient may have it scored), and its id changes with the list', async () => {
    const owner = await mailboxOwner(t);
    const neighbour = await mailboxOwner(t, owner.customer, { domainId: owner.domainId, localPart: 'neighbour' });
    const before = await spamScript(owner.address);
    expect(before.script).toContain('"X-Maildesk-Spam-Score" "60") {');
    expect(before.script).not.toContain('anyof');

    const own = await t.post('/api/mail/spam_list/create', { sender: 'friend@partner.example', action: 'allow' }, { token: owner.token });
    await t.post('/api/admin/spam_list/create', { domain_id: owner.domainId, sender: 'supplier.example', action: 'allow' }, { token: owner.customer.token });
    await t.post('/api/admin/spam_list/create', { domain_id: owner.domainId, sender: 'pest.example', action: 'block' }, { token: owner.customer.token });
    const after = await spamScript(owner.address);
    expect(after.script_id).not.toBe(before.script_id);
    expect(after.script).toContain(
      'not anyof (envelope :all :is "from" ["friend@partner.example"], address :all :is "from" ["friend@partner.example"], envelope :domain :is "from" ["supplier.example"], address :domain :is "from" ["supplier.example"])',
    );
    // A blocked sender never reaches the script (rspamd takes the recipient off); the neighbour has the domain's entry, not this mailbox's.
    expect(after.script).not.toContain('pest.example');
    const theirs = await spamScript(neighbour.address);
    expect(theirs.script).toContain('not anyof (envelope :domain :is "from" ["supplier.example"], address :domain :is "from" ["supplier.example"])');
    expect(theirs.script).not.toContain('friend@partner.example');

    // Taken off the list: out of the script, under yet another id (Pigeonhole compiles it again).
    await t.post('/api/mail/spam_list/delete', { id: own.data.id }, { token: owner.token });
    const removed = await spamScript(owner.address);
    expect(removed.script).not.toContain('friend@partner.example');
    expect(new Set([before.script_id, after.script_id, removed.script_id]).size).toBe(3);
    // Filtering off: no script to leave anything out of.
    await t.post('/api/mail/spam/update', { filter: 'off' }, { token: owner.token });
    expect((await spamScript(owner.address)).script).not.toContain('Junk');
  });
});

describe('alias domains', () => {
  it('When a domain has an alias domain, then its mailboxes\' settings and every list entry apply at their alias-domain addresses too (the maps name them there)', async () => {
    const owner = await mailboxOwner(t);
    const target = (await t.get('/api/admin/domain/get', { id: owner.domainId }, { token: owner.customer.token })).data;
    const alias = await mail.activeDomain(owner.customer);
    const made = await t.post('/api/admin/alias_domain/create', { alias_domain_id: alias.id, target_domain_id: owner.domainId }, { token: owner.customer.token });
    expect(made.code).toBe(0);
    const elsewhere = `${owner.address.split('@')[0]}@${alias.name}`;
    await t.post('/api/admin/spam/update_domain', { id: owner.domainId, filter: 'on', junk_score: 4, reject_score: 8 }, { token: owner.customer.token });
    expect((await t.post('/api/mail/spam/update', { filter: 'off' }, { token: owner.token })).code).toBe(0);
    expect((await t.post('/api/admin/spam_list/create', { domain_id: owner.domainId, sender: 'blocked.example', action: 'block' }, { token: owner.customer.token })).code).toBe(0);
    expect((await t.post('/api/mail/spam_list/create', { sender: 'friend@partner.example', action: 'allow' }, { token: owner.token })).code).toBe(0);

    const settings = (await map('settings')).text;
    expect(settings).toContain(`\n${target.name} on:4.0:8.0\n`);
    expect(settings).toContain(`\n${alias.name} on:4.0:8.0\n`);
    expect(settings).toContain(`\n${owner.address} off\n`);
    expect(settings).toContain(`\n${elsewhere} off\n`);
    const lists = (await map('lists')).text;
    expect(lists).toContain(`\n${target.name}|blocked.example block\n`);
    expect(lists).toContain(`\n${alias.name}|blocked.example block\n`);
    expect(lists).toContain(`\n${owner.address}|friend@partner.example allow\n`);
    expect(lists).toContain(`\n${elsewhere}|friend@partner.example allow\n`);

    // The alias domain removed, nothing of it is left in either map.
    expect((await t.post('/api/admin/alias_domain/delete', { id: made.data.id }, { token: owner.customer.token })).code).toBe(0);
    expect((await map('settings')).text).not.toContain(alias.name);
    expect((await map('lists')).text).not.toContain(alias.name);
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

  it('When a message to two domains was taken off one domain\'s recipients (their lists or reject score), then that domain counts it refused and the other received', async () => {
    const first = await mailboxOwner(t);
    const second = await mailboxOwner(t, first.customer);
    const name = async (id: number) => (await t.get('/api/admin/domain/get', { id }, { token: first.customer.token })).data.name as string;
    const [a, b] = [`x@${await name(first.domainId)}`, `y@${await name(second.domainId)}`];
    expect((await report({ direction: 'in', recipients: [a, b], refused: [a], action: 'no action', verdict: 'inbox', score: 4 })).statusCode).toBe(200);
    const today = async (domainId: number) => (await t.get('/api/admin/spam/stats', { domain_id: domainId, days: 1 }, { token: first.customer.token })).data.days.at(-1);
    expect(await today(first.domainId)).toMatchObject({ received: 1, junked: 0, rejected: 1 });
    expect(await today(second.domainId)).toMatchObject({ received: 1, junked: 0, rejected: 0 });
  });

  it('When rspamd sends a report again a day after it scored the message (the panel was down), then it counts on the day it was scored', async () => {
    const owner = await mailboxOwner(t);
    const domain = (await t.get('/api/admin/domain/get', { id: owner.domainId }, { token: owner.customer.token })).data;
    const yesterday = Math.floor(nowMs() / 1000) - 86_400;
    expect((await report({ direction: 'in', recipients: [`x@${domain.name}`], action: 'reject', verdict: 'reject', score: 20, at: yesterday })).statusCode).toBe(200);
    const days = (await t.get('/api/admin/spam/stats', { domain_id: owner.domainId, days: 7 }, { token: owner.customer.token })).data.days;
    expect(days.at(-2)).toMatchObject({ received: 1, rejected: 1 });
    expect(days.at(-1)).toMatchObject({ received: 0, rejected: 0 });
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

  it('When a mailbox submits its floor in an hour, then it sends on; one more is held; released, this hour\'s count starts again and it sends on', async () => {
    const root = await mail.operator();
    await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 3, rate_factor: 10 }, { token: root });
    // A minute into an hour, so that every message of the test is counted in the same one.
    await t.moveClock(3_600_000 - (nowMs() % 3_600_000) + 60_000);
    try {
      const owner = await mailboxOwner(t);
      const held = async () => (await t.get('/api/admin/spam/held', {}, { token: owner.customer.token })).data.list.map((h: { mailbox_id: number }) => h.mailbox_id);
      for (let i = 0; i < 3; i++) await submit(owner.address);
      expect(await held()).toEqual([]);
      await submit(owner.address);
      expect(await held()).toEqual([owner.id]);
      expect((await t.post('/api/admin/spam/release', { mailbox_id: owner.id }, { token: owner.customer.token })).code).toBe(0);
      await submit(owner.address);
      expect(await held()).toEqual([]);
    } finally {
      await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 }, { token: root });
      t.resetClock();
    }
  });

  it('When a mailbox usually sends much in an hour, then past the floor it is held only above rate_factor times its busiest hour of the week', async () => {
    const root = await mail.operator();
    await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 3, rate_factor: 2 }, { token: root });
    await t.moveClock(3_600_000 - (nowMs() % 3_600_000) + 60_000);
    try {
      const owner = await mailboxOwner(t);
      const held = async () => (await t.get('/api/admin/spam/held', {}, { token: owner.customer.token })).data.list.map((h: { mailbox_id: number }) => h.mailbox_id);
      // Its busiest hour: 3 messages. The next hour, 2 × 3 = 6 pass; the seventh is held.
      for (let i = 0; i < 3; i++) await submit(owner.address);
      await t.moveClock(3_600_000);
      for (let i = 0; i < 6; i++) await submit(owner.address);
      expect(await held()).toEqual([]);
      await submit(owner.address);
      expect(await held()).toEqual([owner.id]);
    } finally {
      await t.post('/api/manage/spam/update_defaults', { filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 }, { token: root });
      t.resetClock();
    }
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
