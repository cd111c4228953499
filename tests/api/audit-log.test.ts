/** The audit trail: /api/admin/log/list (a customer's own) and /api/manage/log/* (everything). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../server/core/audit.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, someIp, teamMemberOf, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
});
afterAll(() => t.close());

interface Entry {
  id: number;
  user_id: number | null;
  actor_type: string;
  actor_id: number | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string;
  user_agent: string;
  created_at: string;
}

/** A call from a client with its own address and browser. */
async function callFrom(client: { ip: string; userAgent: string }, url: string, body: unknown, token = '') {
  const response = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: client.ip,
    headers: { authentication: token, 'content-type': 'application/json', 'user-agent': client.userAgent, 'accept-language': 'en' },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, ...response.json() };
}

/** Every entry the operators' log holds, page by page. */
async function wholeLog(): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (let page = 1; ; page++) {
    const reply = await t.post('/api/manage/log/list', { page, page_size: 100, sort: 'created_at', order: 'asc' }, { token: root });
    entries.push(...reply.data.list);
    if (entries.length >= reply.data.total || reply.data.list.length === 0) return entries;
  }
}

const entriesFor = async (filter: Record<string, unknown>) =>
  (await t.post('/api/manage/log/list', { filter, page_size: 100, sort: 'created_at', order: 'asc' }, { token: root })).data.list as Entry[];

describe('what is recorded', () => {
  it('When a customer changes their name, then the entry names actor, action, target, before/after, IP and user agent', async () => {
    const customer = await signUpCustomer(t);
    const client = { ip: someIp(), userAgent: 'AuditBrowser/1.0 (test)' };
    const oldName = (await t.post('/api/admin/me/info', {}, { token: customer.token })).data.username;
    expect((await callFrom(client, '/api/admin/me/update_username', { username: 'Logged Name' }, customer.token)).code).toBe(0);

    const mine = await t.post('/api/admin/log/list', { filter: { action: 'update_username' } }, { token: customer.token });
    expect(mine.data.total).toBe(1);
    const entry: Entry = mine.data.list[0];
    expect(entry).toMatchObject({
      user_id: customer.id,
      actor_type: 'customer',
      actor_id: customer.id,
      actor_name: customer.email,
      action: 'update_username',
      target_type: 'user',
      target_id: customer.id,
      before: { username: oldName },
      after: { username: 'Logged Name' },
      ip: client.ip,
    });
    expect(Date.parse(entry.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const full = await t.get('/api/manage/log/get', { id: entry.id }, { token: root });
    expect(full).toMatchObject({ code: 0, data: { id: entry.id, user_agent: 'AuditBrowser/1.0 (test)', ip: client.ip } });
  });

  it('When an operator creates, updates and deletes a record, then each is an entry with the operator as actor and only the changed fields, with the field that names the record', async () => {
    const client = { ip: someIp(), userAgent: 'OperatorConsole/2.0' };
    const email = uniqueEmail();
    const created = await callFrom(client, '/api/manage/user/create', { email, password: 'secret-pass-1', username: 'Audited' }, root);
    expect(created.code).toBe(0);
    const id = created.data.id;
    await callFrom(client, '/api/manage/user/update', { id, username: 'Audited Again', storage_max: 2 * 1024 ** 2 }, root);
    await callFrom(client, '/api/manage/user/delete', { id }, root);

    const entries = await entriesFor({ target_type: 'customer', target_id: id });
    expect(entries.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    for (const e of entries) expect(e).toMatchObject({ actor_type: 'operator', actor_name: 'root', user_id: id, ip: client.ip, user_agent: client.userAgent });
    expect(entries[0].after).toMatchObject({ id, email, username: 'Audited', status: 'active' });
    // What changed, and what names the record (unchanged, so the log's sentence can say which customer).
    expect(entries[1].before).toEqual({ email, username: 'Audited', storage_max: 1024 ** 3, updated_at: expect.any(String) });
    expect(entries[1].after).toEqual({ email, username: 'Audited Again', storage_max: 2 * 1024 ** 2, updated_at: expect.any(String) });
    expect(entries[2].before).toMatchObject({ id, email, username: 'Audited Again' });
  });

  it('When a customer signs in, fails to, and logs out, then each attempt is recorded, the sign-in as the customer’s own (not a visitor’s)', async () => {
    const customer = await signUpCustomer(t);
    const client = { ip: someIp(), userAgent: 'SignInAgent/3' };
    expect((await callFrom(client, '/api/admin/login/login', { email: customer.email, password: 'wrong-password' })).code).toBe(40101);
    const session = await callFrom(client, '/api/admin/login/login', { email: customer.email, password: customer.password });
    expect(session.code).toBe(0);
    await callFrom(client, '/api/admin/login/logout', {}, session.data.token);

    const entries = (await entriesFor({ user_id: customer.id, ip: client.ip })).map((e) => ({ action: e.action, actor_type: e.actor_type, ...(e.action === 'login' ? { actor_id: e.actor_id, actor_name: e.actor_name } : {}), after: e.after, ua: e.user_agent }));
    expect(entries).toEqual([
      { action: 'login_failed', actor_type: 'anonymous', after: { email: customer.email, method: 'password' }, ua: client.userAgent },
      { action: 'login', actor_type: 'customer', actor_id: customer.id, actor_name: customer.email, after: { method: 'password' }, ua: client.userAgent },
      { action: 'logout', actor_type: 'customer', after: null, ua: client.userAgent },
    ]);
  });

  it('When an operator signs in or fails to, then it is recorded', async () => {
    const client = { ip: someIp(), userAgent: 'OperatorLogin/1' };
    expect((await callFrom(client, '/api/manage/login/login', { username: 'root', password: 'wrong-password' })).code).toBe(40101);
    expect((await callFrom(client, '/api/manage/login/login', { username: 'root', password: 'root-password-1' })).code).toBe(0);
    const entries = await entriesFor({ ip: client.ip });
    expect(entries.map((e) => [e.action, e.target_type])).toEqual([
      ['login_failed', 'operator'],
      ['login', 'operator'],
    ]);
    expect(entries[0].after).toEqual({ username: 'root' });
    // The sign-in is the operator's own, not a visitor's (the log reads "Operator root signed in").
    expect(entries[1]).toMatchObject({ actor_type: 'operator', actor_name: 'root', target_id: entries[1].actor_id });
  });

  it('When operators change templates, delete send log entries or guest messages, then each change is recorded', async () => {
    const client = { ip: someIp(), userAgent: 'Housekeeping/1' };
    const template = (await t.get('/api/manage/email_template/list', { filter: { key: 'login_code', locale: 'en' } }, { token: root })).data.list[0];
    await callFrom(client, '/api/manage/email_template/update', { id: template.id, subject: 'Sign-in code {{code}}' }, root);
    await callFrom(client, '/api/message/send', { name: 'Vis', email: uniqueEmail('v'), content: 'Bye' });
    const message = (await t.get('/api/manage/guest_message/list', { filter: { ip: client.ip } }, { token: root })).data.list[0];
    await callFrom(client, '/api/manage/guest_message/delete', { id: message.id }, root);
    await t.outbox();
    const sendLog = (await t.get('/api/manage/email_send_log/list', { page_size: 1 }, { token: root })).data.list[0];
    await callFrom(client, '/api/manage/email_send_log/delete', { id: sendLog.id }, root);

    const entries = await entriesFor({ ip: client.ip, actor_type: 'operator' });
    expect(entries.map((e) => [e.action, e.target_type, e.target_id])).toEqual([
      ['update', 'email_template', template.id],
      ['delete', 'guest_message', message.id],
      ['delete', 'email_send_log', sendLog.id],
    ]);
    expect(entries[0].after).toMatchObject({ subject: 'Sign-in code {{code}}' });
    expect(entries[1].before).toMatchObject({ content: 'Bye' });
  });

  it('When a visitor writes through the contact form, then it is recorded as anonymous', async () => {
    const client = { ip: someIp(), userAgent: 'Visitor/1' };
    await callFrom(client, '/api/message/send', { name: 'Vis', email: uniqueEmail('v'), content: 'Hi' });
    expect(await entriesFor({ ip: client.ip })).toMatchObject([{ action: 'create', target_type: 'guest_message', actor_type: 'anonymous', user_id: null }]);
  });
});

describe('no secrets', () => {
  it('When passwords, codes and tokens go through the API, then none of them, nor any secret field, is anywhere in the log', async () => {
    const secrets: string[] = [];
    const customer = await signUpCustomer(t, uniqueEmail(), 'first-secret-pass');
    secrets.push(customer.password, customer.token);

    // Password changes of every kind.
    await t.post('/api/admin/me/update_password', { old_password: 'first-secret-pass', password: 'second-secret-pass' }, { token: customer.token });
    secrets.push('second-secret-pass');
    await t.post('/api/admin/login/forgot_password_send_email', { email: customer.email }, { ip: someIp() });
    const resetCode = await t.lastCode(customer.email);
    await t.post('/api/admin/login/forgot_password', { email: customer.email, code: resetCode, password: 'third-secret-pass' }, { ip: someIp() });
    secrets.push(resetCode, 'third-secret-pass');
    const session = await t.post('/api/admin/login/login', { email: customer.email, password: 'third-secret-pass' }, { ip: someIp() });
    secrets.push(session.data.token);

    // A sign-in by code, an e-mail change by code.
    await t.post('/api/admin/login/send_code', { email: customer.email, purpose: 'login' }, { ip: someIp() });
    const loginCode = await t.lastCode(customer.email);
    const byCode = await t.post('/api/admin/login/login_by_verify_code', { email: customer.email, code: loginCode }, { ip: someIp() });
    secrets.push(loginCode, byCode.data.token);
    const newEmail = uniqueEmail('moved');
    await t.post('/api/admin/me/update_email', { email: newEmail }, { token: session.data.token });
    const changeCode = await t.lastCode(newEmail);
    expect((await t.post('/api/admin/me/update_email', { email: newEmail, code: changeCode }, { token: session.data.token })).code).toBe(0);
    secrets.push(changeCode);

    // Team members, customers and operators made and changed with passwords.
    const member = await teamMemberOf(t, { ...customer, token: session.data.token });
    secrets.push(member.password, member.token, member.invitationToken);
    await t.post('/api/admin/user/update', { id: member.id, password: 'member-secret-2' }, { token: session.data.token });
    secrets.push('member-secret-2');
    const made = await t.post('/api/manage/user/create', { email: uniqueEmail(), password: 'operator-made-secret' }, { token: root });
    await t.post('/api/manage/user/update', { id: made.data.id, password: 'operator-reset-secret' }, { token: root });
    const op = await t.post('/api/manage/admin/create', { username: 'audited-op', password: 'op-secret-pass-1', role: 'billing' }, { token: root });
    await t.post('/api/manage/admin/update', { id: op.data.id, password: 'op-secret-pass-2' }, { token: root });
    const opToken = await operatorLogin(t, 'audited-op', 'op-secret-pass-2');
    await t.post('/api/manage/me/update_password', { old_password: 'op-secret-pass-2', password: 'op-secret-pass-3' }, { token: opToken });
    secrets.push('operator-made-secret', 'operator-reset-secret', 'op-secret-pass-1', 'op-secret-pass-2', 'op-secret-pass-3', opToken, root);
    // A failed sign-in with a password that is someone else's.
    await t.post('/api/admin/login/login', { email: customer.email, password: 'guessed-secret-pass' }, { ip: someIp() });
    secrets.push('guessed-secret-pass');

    const log = await wholeLog();
    const actions = new Set(log.map((e) => e.action));
    for (const action of ['update_password', 'password_reset', 'update_email', 'update_with_password', 'login', 'login_failed', 'create']) expect(actions).toContain(action);

    const forbiddenKeys = new Set(['password', 'password_hash', 'old_password', 'token', 'token_hash', 'code', 'code_hash']);
    const keysOf = (value: unknown): string[] =>
      value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]) : [];
    const text = JSON.stringify(log);
    for (const entry of log) {
      const bad = keysOf(entry).filter((k) => forbiddenKeys.has(k));
      expect(bad, `entry ${entry.id} (${entry.action})`).toEqual([]);
    }
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/\$argon2/);
  });
});

describe('no secrets, whatever a record holds', () => {
  it('When an entry is written for a record that carries secret fields, at any depth, then the log keeps none of them', async () => {
    // No call hands secrets to the log today; this proves the net that catches one that would.
    const origin = { actor: { kind: 'anonymous' as const }, ip: someIp(), userAgent: 'Net/1' };
    const record = { name: 'kept', password: 'net-pass', password_hash: '$argon2id$net', token: 'net-token', nested: { code: '123456', list: [{ code_hash: 'net-hash', old_password: 'net-old', kept: 1 }] } };
    await audit(t.services.db, origin, { action: 'net_check', targetType: 'test', before: record, after: record });
    const [entry] = await entriesFor({ action: 'net_check' });
    expect(entry.before).toEqual({ name: 'kept', nested: { list: [{ kept: 1 }] } });
    expect(entry.after).toEqual(entry.before);
  });
});

describe('what a customer sees of operators', () => {
  it('When an operator changes a customer\'s account, then the customer\'s log says "an operator" and nothing about them — in list, get, filters, search and counts', async () => {
    const customer = await signUpCustomer(t);
    const client = { ip: someIp(), userAgent: 'OperatorBrowser/9' };
    expect((await callFrom(client, '/api/manage/user/update', { id: customer.id, username: 'Changed by staff' }, root)).code).toBe(0);
    const rootId = (await t.post('/api/manage/me/info', {}, { token: root })).data.id;

    const list = await t.post('/api/admin/log/list', { filter: { actor_type: 'operator' } }, { token: customer.token });
    expect(list.data.total).toBe(1);
    const [seen] = list.data.list as Entry[];
    expect(seen).toMatchObject({ actor_type: 'operator', actor_id: null, actor_name: '', ip: '', action: 'update', after: { username: 'Changed by staff' } });
    const one = await t.get('/api/admin/log/get', { id: seen.id }, { token: customer.token });
    expect(one.data).toMatchObject({ actor_type: 'operator', actor_id: null, actor_name: '', ip: '', user_agent: '' });
    expect(JSON.stringify([list.data, one.data])).not.toMatch(/root|OperatorBrowser/);
    expect(JSON.stringify([list.data, one.data])).not.toContain(client.ip);
    // Nothing to learn by counting either.
    for (const probe of [{ filter: { actor_id: rootId } }, { filter: { ip: client.ip } }, { q: 'root' }]) {
      expect((await t.post('/api/admin/log/list', probe, { token: customer.token })).data.total, JSON.stringify(probe)).toBe(0);
    }
    // Operators still see who it was.
    const [full] = await entriesFor({ target_type: 'customer', target_id: customer.id, action: 'update' });
    expect(full).toMatchObject({ actor_type: 'operator', actor_id: rootId, actor_name: 'root', ip: client.ip, user_agent: client.userAgent });
  });
});

describe('who sees what', () => {
  it('When customers read their log, then each sees only entries about their own account and team', async () => {
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    const memberA = await teamMemberOf(t, a);
    await t.post('/api/admin/me/update_username', { username: 'A name' }, { token: a.token });
    await t.post('/api/admin/me/update_username', { username: 'B name' }, { token: b.token });
    await t.post('/api/admin/me/update_username', { username: 'Member name' }, { token: memberA.token });

    const listA = await t.post('/api/admin/log/list', { page_size: 100 }, { token: a.token });
    expect(listA.data.total).toBe(listA.data.list.length);
    expect(listA.data.list.every((e: Entry) => e.user_id === a.id)).toBe(true);
    const actorsA = new Set(listA.data.list.map((e: Entry) => e.actor_name));
    expect(actorsA).toContain(a.email);
    expect(actorsA).toContain(memberA.email);
    expect(actorsA).not.toContain(b.email);
    expect(listA.data.list.map((e: Entry) => e.action)).toEqual(expect.arrayContaining(['register', 'verify', 'login', 'invite', 'accept_invitation', 'update_username']));

    // Asking for B's entries by filter or by id finds nothing.
    expect((await t.post('/api/admin/log/list', { filter: { user_id: b.id } }, { token: a.token })).data.total).toBe(0);
    const entryOfB = (await t.post('/api/admin/log/list', { filter: { action: 'update_username' } }, { token: b.token })).data.list[0];
    expect(entryOfB.user_id).toBe(b.id);
    expect(await t.get('/api/admin/log/get', { id: entryOfB.id }, { token: a.token })).toMatchObject({ status: 404, code: 40400 });
  });

  it('When operators read the log, then they see every customer\'s and operator\'s entries, one by one too', async () => {
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    const support = await t.post('/api/manage/admin/create', { username: 'log-reader', password: 'log-reader-pass', role: 'support' }, { token: root });
    expect(support.code).toBe(0);
    const token = await operatorLogin(t, 'log-reader', 'log-reader-pass');
    const reply = await t.post('/api/manage/log/list', { page_size: 100, sort: 'created_at', order: 'desc' }, { token });
    expect(reply.code).toBe(0);
    const users = new Set(reply.data.list.map((e: Entry) => e.user_id));
    expect(users).toContain(a.id);
    expect(users).toContain(b.id);
    expect(reply.data.list.some((e: Entry) => e.actor_type === 'operator' && e.action === 'create' && e.target_type === 'operator')).toBe(true);

    const one = reply.data.list[0];
    expect(await t.get('/api/manage/log/get', { id: one.id }, { token })).toMatchObject({ code: 0, data: { id: one.id, action: one.action } });
    expect(await t.get('/api/manage/log/get', { id: 99_999_999 }, { token })).toMatchObject({ status: 404, code: 40400 });
    // Nobody edits history.
    expect(await t.post('/api/manage/log/delete', { id: one.id }, { token: root })).toMatchObject({ status: 404, code: 40400, message: 'error.no_such_call' });
  });
});
