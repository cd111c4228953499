/**
 * The operator area's authProvider: the session under "admin" (id, username, token); a
 * visitor without one is sent to /login-manage and back afterwards. The role comes from
 * /api/manage/me/info and decides which screens and buttons are shown.
 */
import type { AuthProvider } from 'ra-core';
import type { OperatorRole } from '../../resources/define';
import type { HttpClient } from '../api/client';
import type { Screen } from '../screens/registry';
import { canAccess } from './canAccess';
import { isSessionError } from './customer';
import { operatorSession, type OperatorSession, type SessionStore } from './session';
import { operatorSignIn } from './signIn';

export const OPERATOR_LOGIN_PATH = '/login-manage';

export interface OperatorInfo {
  id: number;
  username: string;
  role: OperatorRole;
  status: string;
  last_login_at: string | null;
  created_at: string;
}

export function createOperatorAuthProvider(options: {
  api: HttpClient;
  publicApi: HttpClient;
  screens: Screen[];
  session?: SessionStore<OperatorSession>;
}): AuthProvider {
  const { api, publicApi, screens } = options;
  const session = options.session ?? operatorSession;
  let info: { token: string; promise: Promise<OperatorInfo> } | undefined;

  const me = () => {
    const token = session.token();
    if (!info || info.token !== token) info = { token, promise: api<OperatorInfo>({ method: 'POST', path: '/api/manage/me/info' }) };
    info.promise.catch(() => (info = undefined));
    return info.promise;
  };
  const redirect = { redirectTo: OPERATOR_LOGIN_PATH, message: false };

  return {
    async login({ username, password }) {
      const signedIn = await operatorSignIn(publicApi, { username, password }, session);
      info = undefined;
      return signedIn;
    },
    async logout() {
      if (session.isLoggedIn()) await api({ method: 'POST', path: '/api/manage/login/logout', silent: true }).catch(() => undefined);
      session.reset();
      info = undefined;
      return OPERATOR_LOGIN_PATH;
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
      const { id, username } = session.get();
      return { id, fullName: username };
    },
    async getPermissions() {
      if (!session.isLoggedIn()) return undefined;
      return { role: (await me()).role };
    },
    async canAccess({ resource, action }) {
      if (!session.isLoggedIn()) return false;
      return canAccess(screens, { area: 'manage', role: (await me()).role }, resource, action);
    },
  };
}
