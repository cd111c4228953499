/** Operators: /api/manage/admin/* (superadmins only), /api/manage/login/*, /api/manage/me/*. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, someIp } from '../helpers/fixtures.js';

let t: TestApp;
let root: string;
let rootId: number;
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
  rootId = (await t.post('/api/manage/me/info', {}, { token: root })).data.id;
});
afterAll(() => t.close());

let n = 0;
const username = (prefix = 'op') => `${prefix}-${Date.now().toString(36)}-${++n}`;
const login = (name: string, password: string, ip = someIp()) => t.post('/api/manage/login/login', { username: name, password }, { ip });

/** A new signed-in operator, made with root's one session (root's own sign-ins are rate limited too). */
async function operatorWithRole(_t: TestApp, role: 'superadmin' | 'support' | 'billing') {
  const name = username(role);
  const password = 'operator-pass-1';
  const created = await t.post('/api/manage/admin/create', { username: name, password, role }, { token: root });
  if (created.code !== 0) throw new Error(`operator create failed: ${JSON.stringify(created)}`);
  return { id: created.data.id as number, username: name, password, token: (await login(name, password)).data.token as string };
}

describe('operator CRUD', () => {
  it('When a superadmin creates an operator, then it can sign in with its role and is listed without its password', async () => {
    const name = username('support');
    const created = await t.post('/api/manage/admin/create', { username: name, password: 'operator-pass-1', role: 'support' }, { token: root });
    expect(created).toMatchObject({ status: 200, code: 0, data: { username: name, role: 'support', status: 'active' } });
    expect(created.data).not.toHaveProperty('password');
    expect(created.data).not.toHaveProperty('password_hash');

    expect(await login(name, 'operator-pass-1')).toMatchObject({ code: 0, data: { id: created.data.id, username: name, role: 'support' } });
    const list = await t.post('/api/manage/admin/list', { filter: { role: 'support' } }, { token: root });
    expect(list.data.list.map((o: { username: string }) => o.username)).toContain(name);
    expect(JSON.stringify(list.data)).not.toContain('password');
    expect(await t.get('/api/manage/admin/get', { id: created.data.id }, { token: root })).toMatchObject({ code: 0, data: { username: name, role: 'support' } });
  });

  it('When the input is bad, then each field says what is wrong', async () => {
    expect(await t.post('/api/manage/admin/create', { username: 'ab', password: 'short', role: 'king' }, { token: root })).toMatchObject({
      status: 400,
      code: 40000,
      errors: {
        username: { message: 'validation.too_short', params: { min: 3 } },
        password: { message: 'validation.too_short', params: { min: 8 } },
        role: { message: 'validation.invalid_choice' },
      },
    });
    expect(await t.post('/api/manage/admin/create', { username: ROOT.username, password: 'operator-pass-1', role: 'billing' }, { token: root })).toMatchObject({
      code: 40000,
      errors: { username: { message: 'validation.taken' } },
    });
  });

  it('When a superadmin changes an operator\'s role and deletes it, then the role applies and the operator is gone', async () => {
    const op = await operatorWithRole(t, 'billing');
    expect(await t.post('/api/manage/admin/update', { id: op.id, role: 'support' }, { token: root })).toMatchObject({ code: 0, data: { role: 'support' } });
    expect((await t.post('/api/manage/me/info', {}, { token: op.token })).data.role).toBe('support');

    expect(await t.post('/api/manage/admin/delete', { id: op.id }, { token: root })).toMatchObject({ code: 0, data: { id: op.id } });
    expect(await t.get('/api/manage/admin/get', { id: op.id }, { token: root })).toMatchObject({ status: 404, code: 40400, message: 'error.not_found' });
    expect((await t.post('/api/manage/me/info', {}, { token: op.token })).code).toBe(20000);
    expect((await login(op.username, op.password)).code).toBe(40101);
  });

  it('When a support or billing operator tries to manage operators, then it is forbidden', async () => {
    for (const role of ['support', 'billing'] as const) {
      const op = await operatorWithRole(t, role);
      expect(await t.post('/api/manage/admin/list', {}, { token: op.token })).toMatchObject({ status: 403, code: 40300, message: 'error.forbidden' });
      expect(await t.post('/api/manage/admin/update', { id: op.id, role: 'superadmin' }, { token: op.token })).toMatchObject({ status: 403, code: 40300 });
      expect((await t.post('/api/manage/me/info', {}, { token: op.token })).data.role).toBe(role);
    }
  });
});

describe('the last active superadmin', () => {
  const refused = { status: 409, code: 40900, message: 'error.last_superadmin' };

  it('When the only superadmin would be deleted, demoted or disabled, then it is refused and nothing changes', async () => {
    // Only they could try it, and nobody deletes or disables their own account.
    const own = { status: 403, code: 40300, message: 'error.own_account' };
    expect(await t.post('/api/manage/admin/delete', { id: rootId }, { token: root })).toMatchObject(own);
    expect(await t.post('/api/manage/admin/update', { id: rootId, role: 'support' }, { token: root })).toMatchObject(refused);
    expect(await t.post('/api/manage/admin/update', { id: rootId, status: 'disabled' }, { token: root })).toMatchObject(own);
    expect(await t.get('/api/manage/admin/get', { id: rootId }, { token: root })).toMatchObject({ data: { role: 'superadmin', status: 'active' } });
    expect((await t.post('/api/manage/me/info', {}, { token: root })).code).toBe(0);
    expect((await login(ROOT.username, ROOT.password)).code).toBe(0);
  });

  it('When a disabled superadmin exists, then it does not count: the active one is still protected', async () => {
    const other = await operatorWithRole(t, 'superadmin');
    expect((await t.post('/api/manage/admin/update', { id: other.id, status: 'disabled' }, { token: root })).code).toBe(0);
    expect(await t.post('/api/manage/admin/update', { id: rootId, role: 'billing' }, { token: root })).toMatchObject(refused);
    // Removing the disabled one is fine: it is not the last active superadmin.
    expect((await t.post('/api/manage/admin/delete', { id: other.id }, { token: root })).code).toBe(0);
  });

  it('When another active superadmin exists, then one of them may be demoted, but not the last', async () => {
    const other = await operatorWithRole(t, 'superadmin');
    expect(await t.post('/api/manage/admin/update', { id: other.id, role: 'support' }, { token: root })).toMatchObject({ code: 0, data: { role: 'support' } });
    expect(await t.post('/api/manage/admin/update', { id: rootId, role: 'support' }, { token: root })).toMatchObject(refused);
    await t.post('/api/manage/admin/delete', { id: other.id }, { token: root });
  });
});

describe('sessions', () => {
  it('When an operator is disabled, then their sessions end and sign-in is refused', async () => {
    const op = await operatorWithRole(t, 'support');
    const second = (await login(op.username, op.password)).data.token;
    expect(await t.post('/api/manage/admin/update', { id: op.id, status: 'disabled' }, { token: root })).toMatchObject({ code: 0, data: { status: 'disabled' } });
    expect(await t.post('/api/manage/me/info', {}, { token: op.token })).toMatchObject({ status: 401, code: 20000, message: 'error.session' });
    expect((await t.post('/api/manage/me/info', {}, { token: second })).code).toBe(20000);
    expect(await login(op.username, op.password)).toMatchObject({ status: 403, code: 40300, message: 'error.account_disabled' });
    // The superadmin who did it keeps working.
    expect((await t.post('/api/manage/me/info', {}, { token: root })).code).toBe(0);
  });

  it('When an operator logs out, then that token no longer works', async () => {
    const op = await operatorWithRole(t, 'billing');
    expect((await t.post('/api/manage/login/logout', {}, { token: op.token })).code).toBe(0);
    expect((await t.post('/api/manage/me/info', {}, { token: op.token })).code).toBe(20000);
  });

  it('When an operator token is sent to the customer area, then it is not a session there', async () => {
    expect((await t.post('/api/admin/me/info', {}, { token: root })).code).toBe(20000);
  });
});

describe('passwords', () => {
  it('When a superadmin sets an operator\'s password, then only the new one signs in and the old sessions end', async () => {
    const op = await operatorWithRole(t, 'support');
    expect((await t.post('/api/manage/admin/update', { id: op.id, password: 'reset-by-root-1' }, { token: root })).code).toBe(0);
    expect((await t.post('/api/manage/me/info', {}, { token: op.token })).code).toBe(20000);
    expect((await login(op.username, op.password)).code).toBe(40101);
    expect((await login(op.username, 'reset-by-root-1')).code).toBe(0);
  });

  it('When an operator changes their own password, then other sessions end, this one stays, and the new one signs in', async () => {
    const op = await operatorWithRole(t, 'billing');
    const other = (await login(op.username, op.password)).data.token;
    const reply = await t.post('/api/manage/me/update_password', { old_password: op.password, password: 'my-new-pass-1' }, { token: op.token });
    expect(reply).toMatchObject({ code: 0, data: { id: op.id, username: op.username, role: 'billing' } });
    expect((await t.post('/api/manage/me/info', {}, { token: op.token })).code).toBe(0);
    expect((await t.post('/api/manage/me/info', {}, { token: other })).code).toBe(20000);
    expect((await login(op.username, op.password)).code).toBe(40101);
    expect((await login(op.username, 'my-new-pass-1')).code).toBe(0);
  });

  it('When the old password is wrong, then the field says so and the password stays', async () => {
    const op = await operatorWithRole(t, 'billing');
    expect(await t.post('/api/manage/me/update_password', { old_password: 'not-it-at-all', password: 'my-new-pass-1' }, { token: op.token })).toMatchObject({
      status: 400,
      code: 40000,
      errors: { old_password: { message: 'validation.wrong_password' } },
    });
    expect((await login(op.username, op.password)).code).toBe(0);
  });
});

describe('sign-in', () => {
  it('When the password is wrong or the operator unknown, then the answer is the same', async () => {
    const wrong = await login(ROOT.username, 'wrong-password');
    const unknown = await login('nobody-here', 'wrong-password');
    // Operators sign in with a username: the message says "username", not "e-mail".
    expect(wrong).toMatchObject({ status: 401, code: 40101, message: 'error.bad_operator_credentials' });
    expect(unknown).toMatchObject({ status: 401, code: 40101, message: 'error.bad_operator_credentials' });
  });

  it('When one operator name keeps failing from one address, then that address waits (42900, even with the right password), while the operator gets in from another', async () => {
    const op = { username: username('limited'), password: 'operator-pass-1' };
    await t.post('/api/manage/admin/create', { ...op, role: 'support' }, { token: root });
    const attacker = someIp();
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await login(op.username, 'wrong-password', attacker));
    expect(replies.slice(0, 4).map((r) => r.code)).toEqual([40101, 40101, 40101, 40101]);
    // The fourth failure is the first beyond the three free ones: a wait of 1 s.
    expect(replies[4]).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited', params: { retry_after: 1 } });
    expect((await login(op.username, op.password, attacker)).code).toBe(42900);
    expect((await login(op.username, op.password)).code).toBe(0);
    // Other operators are not affected.
    expect((await login(ROOT.username, ROOT.password)).code).toBe(0);
  });
});

describe('me/info', () => {
  it('When an operator asks who they are, then they get their profile without secrets', async () => {
    const op = await operatorWithRole(t, 'billing');
    const info = await t.post('/api/manage/me/info', {}, { token: op.token });
    expect(info).toMatchObject({ status: 200, code: 0, data: { id: op.id, username: op.username, role: 'billing', status: 'active' } });
    expect(info.data.last_login_at).toEqual(expect.any(String));
    expect(info.data).not.toHaveProperty('password_hash');
    expect(await t.post('/api/manage/me/info', {})).toMatchObject({ status: 401, code: 20000 });
  });
});
