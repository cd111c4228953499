/**
 * The customer area's authProvider. Sign-in calls are public (empty Authentication header);
 * the session lands in localStorage under "user". A visitor without a session is sent to
 * /login, and back to the page they wanted afterwards (react-admin passes it in the state).
 */
import type { AuthProvider } from 'ra-core';
import { canAccess } from './canAccess';
import { customerSession, type CustomerSession } from './session';
import { sessionAuth, type AuthProviderOptions } from './sessionAuth';
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

export function createCustomerAuthProvider(options: AuthProviderOptions<CustomerSession>): CustomerAuthProvider {
  const { api, publicApi, screens } = options;
  const session = options.session ?? customerSession;
  const { me: accountInfo, fresh, checks } = sessionAuth<AccountInfo>({
    api,
    session,
    infoPath: '/api/admin/me/info',
    logoutPath: '/api/admin/login/logout',
    loginPage: CUSTOMER_LOGIN_PATH,
  });
  const signIn = customerSignIn(publicApi, session);

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
    ...checks,
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
