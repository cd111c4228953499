import { describe, expect, it } from 'vitest';
import type { HttpClient, Request } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { createCustomerAuthProvider } from '../../src/authProvider/customer';
import { createOperatorAuthProvider } from '../../src/authProvider/operator';
import { customerSession, operatorSession } from '../../src/authProvider/session';
import { screensOf } from './areas';

function fakeApi(answers: Record<string, unknown>, token: () => string) {
  const calls: (Request & { token: string })[] = [];
  const client = (async (request: Request) => {
    calls.push({ ...request, token: token() });
    const answer = answers[request.path];
    if (answer instanceof Error) throw answer;
    return answer;
  }) as HttpClient;
  return { client, calls };
}

describe('stored sessions', () => {
  it('the customer session is stored under "user" with id, email, is_verified and token, and reset to empty values', () => {
    customerSession.set({ id: 5, email: 'a@example.com', is_verified: 1, token: 'abc' });
    expect(JSON.parse(window.localStorage.getItem('user')!)).toEqual({ id: 5, email: 'a@example.com', is_verified: 1, token: 'abc' });
    expect(customerSession.isLoggedIn()).toBe(true);
    customerSession.reset();
    expect(JSON.parse(window.localStorage.getItem('user')!)).toEqual({ id: 0, email: '', is_verified: 0, token: '' });
    expect(customerSession.isLoggedIn()).toBe(false);
  });

  it('a token of "0" is no session', () => {
    window.localStorage.setItem('user', JSON.stringify({ id: 1, email: 'a@b.c', is_verified: 1, token: '0' }));
    expect(customerSession.isLoggedIn()).toBe(false);
    window.localStorage.setItem('user', JSON.stringify({ id: 1, email: 'a@b.c', is_verified: 1, token: 0 }));
    expect(customerSession.isLoggedIn()).toBe(false);
  });

  it('the operator session has id, username and token under its own key', () => {
    operatorSession.set({ id: 2, username: 'root', token: 't' });
    expect(JSON.parse(window.localStorage.getItem('admin')!)).toEqual({ id: 2, username: 'root', token: 't' });
    operatorSession.reset();
    expect(JSON.parse(window.localStorage.getItem('admin')!)).toEqual({ id: 0, username: '', token: '' });
  });
});

describe('customer auth provider', () => {
  const make = (answers: Record<string, unknown> = {}) => {
    const api = fakeApi(answers, customerSession.token);
    const publicApi = fakeApi(answers, () => '');
    const auth = createCustomerAuthProvider({ api: api.client, publicApi: publicApi.client, screens: screensOf('admin') });
    return { auth, api, publicApi };
  };
  const signedIn = { id: 9, email: 'c@example.com', is_verified: 1, username: 'c', token: 'tok-9' };

  it('login signs in through the public call and stores the session', async () => {
    const { auth, publicApi } = make({ '/api/admin/login/login': signedIn });
    await auth.login({ email: 'c@example.com', password: 'pw-123456' });
    expect(publicApi.calls[0]).toMatchObject({ path: '/api/admin/login/login', params: { email: 'c@example.com', password: 'pw-123456' }, token: '' });
    expect(customerSession.get()).toEqual({ id: 9, email: 'c@example.com', is_verified: 1, token: 'tok-9' });
  });

  it('sign-in by code and verification store the session too', async () => {
    const { auth } = make({ '/api/admin/login/login_by_verify_code': signedIn, '/api/admin/login/verify': { ...signedIn, token: 'tok-v' } });
    await auth.loginByCode({ email: 'c@example.com', code: '123456' });
    expect(customerSession.token()).toBe('tok-9');
    await auth.verify({ email: 'c@example.com', code: '123456' });
    expect(customerSession.token()).toBe('tok-v');
  });

  it('checkAuth sends a visitor without a session to /login', async () => {
    const { auth } = make();
    await expect(auth.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login' });
    customerSession.set({ id: 9, email: 'c@example.com', is_verified: 1, token: 'tok-9' });
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError resets the session on code 20000 and ignores other errors', async () => {
    const { auth } = make({ '/api/admin/login/login': signedIn, '/api/admin/login/logout': null });
    customerSession.set({ id: 9, email: 'c@example.com', is_verified: 1, token: 'tok-9' });
    await expect(auth.checkError({ status: 404, body: { code: 40400 } })).resolves.toBeUndefined();
    expect(customerSession.isLoggedIn()).toBe(true);
    await expect(auth.checkError(new ApiError(20000, 'error.session', 401))).rejects.toMatchObject({ redirectTo: '/login?session_ended=1' });
    expect(customerSession.isLoggedIn()).toBe(false);
    // react-admin then logs out, and the page's other failed calls and checks send the visitor to
    // the sign-in page again: each time, it still says why (until the next sign-in).
    await expect(auth.logout({})).resolves.toBe('/login?session_ended=1');
    await expect(auth.logout({})).resolves.toBe('/login?session_ended=1');
    await expect(auth.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login?session_ended=1' });
    // Signed in again, a sign-out of their own is a plain one.
    await auth.login({ email: 'c@example.com', password: 'pw-123456' });
    await expect(auth.logout({})).resolves.toBe('/login');
  });

  it('logout ends the session on the server, resets it and goes to /login', async () => {
    const { auth, api } = make({ '/api/admin/login/logout': null });
    customerSession.set({ id: 9, email: 'c@example.com', is_verified: 1, token: 'tok-9' });
    await expect(auth.logout({})).resolves.toBe('/login');
    expect(api.calls[0]).toMatchObject({ path: '/api/admin/login/logout', token: 'tok-9', silent: true });
    expect(customerSession.get().token).toBe('');
    await auth.logout({});
    expect(api.calls).toHaveLength(1);
  });

  it('canAccess follows the declarations: team members are managed by the customer account only', async () => {
    const info = { id: 9, is_owner: 1, email: 'c@example.com' };
    const owner = make({ '/api/admin/me/info': info });
    customerSession.set({ id: 9, email: 'c@example.com', is_verified: 1, token: 'tok-9' });
    await expect(owner.auth.canAccess!({ resource: 'admin', action: 'list' })).resolves.toBe(true);
    await expect(owner.auth.canAccess!({ resource: 'log', action: 'show' })).resolves.toBe(true);
    await expect(owner.auth.canAccess!({ resource: 'log', action: 'delete' })).resolves.toBe(false);
    const member = make({ '/api/admin/me/info': { ...info, is_owner: 0 } });
    await expect(member.auth.canAccess!({ resource: 'admin', action: 'list' })).resolves.toBe(false);
    await expect(member.auth.getPermissions!({})).resolves.toEqual({ isOwner: false });
    expect(member.api.calls.filter((c) => c.path === '/api/admin/me/info')).toHaveLength(1);
  });

  it('getIdentity is the stored session', async () => {
    const { auth } = make();
    customerSession.set({ id: 9, email: 'c@example.com', is_verified: 1, token: 'tok-9' });
    await expect(auth.getIdentity!()).resolves.toEqual({ id: 9, fullName: 'c@example.com' });
  });
});

describe('operator auth provider', () => {
  const make = (role = 'support', extra: Record<string, unknown> = {}) => {
    const answers = {
      '/api/manage/login/login': { id: 2, username: 'sam', role, token: 'op-tok' },
      '/api/manage/me/info': { id: 2, username: 'sam', role },
      '/api/manage/login/logout': null,
      ...extra,
    };
    const api = fakeApi(answers, operatorSession.token);
    const publicApi = fakeApi(answers, () => '');
    return { auth: createOperatorAuthProvider({ api: api.client, publicApi: publicApi.client, screens: screensOf('manage') }), api, publicApi };
  };

  it('login stores id, username and token; checkAuth then passes', async () => {
    const { auth, publicApi } = make();
    await expect(auth.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login-manage' });
    await auth.login({ username: 'sam', password: 'pw' });
    expect(publicApi.calls[0].token).toBe('');
    expect(operatorSession.get()).toEqual({ id: 2, username: 'sam', token: 'op-tok' });
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
  });

  it('a revoked session sends the operator to /login-manage', async () => {
    const { auth } = make();
    operatorSession.set({ id: 2, username: 'sam', token: 'op-tok' });
    await expect(auth.checkError({ status: 401, body: { code: 20000 } })).rejects.toMatchObject({ redirectTo: '/login-manage?session_ended=1' });
    expect(operatorSession.isLoggedIn()).toBe(false);
  });

  it('logout resets the session and goes to /login-manage', async () => {
    const { auth, api } = make();
    operatorSession.set({ id: 2, username: 'sam', token: 'op-tok' });
    await expect(auth.logout({})).resolves.toBe('/login-manage');
    expect(api.calls[0].path).toBe('/api/manage/login/logout');
    expect(operatorSession.token()).toBe('');
  });

  it('canAccess follows the roles of the declarations', async () => {
    operatorSession.set({ id: 2, username: 'sam', token: 'op-tok' });
    const support = make('support').auth;
    await expect(support.canAccess!({ resource: 'admin', action: 'list' })).resolves.toBe(false);
    await expect(support.canAccess!({ resource: 'user', action: 'edit' })).resolves.toBe(true);
    await expect(support.canAccess!({ resource: 'user', action: 'delete' })).resolves.toBe(false);
    await expect(support.canAccess!({ resource: 'guest_message', action: 'delete' })).resolves.toBe(true);
    const billing = make('billing').auth;
    await expect(billing.canAccess!({ resource: 'user', action: 'edit' })).resolves.toBe(false);
    await expect(billing.canAccess!({ resource: 'log', action: 'show' })).resolves.toBe(true);
    const superadmin = make('superadmin').auth;
    await expect(superadmin.canAccess!({ resource: 'admin', action: 'delete' })).resolves.toBe(true);
    await expect(superadmin.canAccess!({ resource: 'log', action: 'edit' })).resolves.toBe(false);
    await expect(superadmin.getPermissions!({})).resolves.toEqual({ role: 'superadmin' });
  });
});
