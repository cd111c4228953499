/**
 * The customer area's authProvider. Sign-in calls are public (empty Authentication header);
 * the session lands in localStorage under "user". A visitor without a session is sent to
 * /login, and back to the page they wanted afterwards (react-admin passes it in the state).
 */
import type { AuthProvider } from 'ra-core';
import type { HttpClient } from '../api/client';
import { SESSION_CODE } from '../api/errors';
import type { Screen } from '../screens/registry';
import { canAccess } from './canAccess';
import { customerSession, type CustomerSession, type SessionStore } from './session';
import { customerSignIn, type CustomerSignedIn } from './signIn';

export const CUSTOMER_LOGIN_PATH = '/login';

export interface AccountInfo {
  id: number;
  email: string;
  username: string;
  is_verified: number;
  is_owner: number;
  points: number;
  storage_max: number;
  status: string;
  created_at: string;
  last_login_at: string | null;
}

export type CustomerAuthProvider = AuthProvider & {
  /** Sign in by e-mailed code (login_by_verify_code). */
  loginByCode(params: { email: string; code: string }): Promise<CustomerSignedIn>;
  /** Confirm the account with the registration code; signs in. */
  verify(params: { email: string; code: string }): Promise<CustomerSignedIn>;
};

/** Whether an error from the data provider or a call means the session is gone. */
export const isSessionError = (error: unknown) => {
  const e = error as { status?: number; code?: number; body?: { code?: number } } | undefined;
  return e?.code === SESSION_CODE || e?.body?.code === SESSION_CODE;
};

export function createCustomerAuthProvider(options: {
  api: HttpClient;
  publicApi: HttpClient;
  screens: Screen[];
  session?: SessionStore<CustomerSession>;
}): CustomerAuthProvider {
  const { api, publicApi, screens } = options;
  const session = options.session ?? customerSession;
  let info: { token: string; promise: Promise<AccountInfo> } | undefined;

  const accountInfo = () => {
    const token = session.token();
    if (!info || info.token !== token) info = { token, promise: api<AccountInfo>({ method: 'POST', path: '/api/admin/me/info' }) };
    info.promise.catch(() => (info = undefined));
    return info.promise;
  };
  const signIn = customerSignIn(publicApi, session);
  const fresh = <T,>(signedIn: T) => {
    info = undefined;
    return signedIn;
  };
  const redirect = { redirectTo: CUSTOMER_LOGIN_PATH, message: false };

  return {
    async login({ email, password }) {
      return fresh(await signIn.withPassword({ email, password }));
    },
    async loginByCode(params) {
      return fresh(await signIn.withCode(params));
    },
    async verify(params) {
      return fresh(await signIn.verify(params));
    },
    async logout() {
      if (session.isLoggedIn()) await api({ method: 'POST', path: '/api/admin/login/logout', silent: true }).catch(() => undefined);
      session.reset();
      info = undefined;
      return CUSTOMER_LOGIN_PATH;
    },
    async checkAuth() {
      if (!session.isLoggedIn()) throw redirect;
    },
    async checkError(error) {
      if (isSessionError(error)) {
        session.reset();
        throw redirect;
      }
    },
    async getIdentity() {
      const { id, email } = session.get();
      return { id, fullName: email };
    },
    async getPermissions() {
      if (!session.isLoggedIn()) return undefined;
      const account = await accountInfo();
      return { isOwner: account.is_owner === 1 };
    },
    async canAccess({ resource, action }) {
      if (!session.isLoggedIn()) return false;
      const account = await accountInfo();
      return canAccess(screens, { area: 'admin', isOwner: account.is_owner === 1 }, resource, action);
    },
  };
}
