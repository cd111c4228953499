/**
 * The operator area's authProvider: the session under "admin" (id, username, token); a
 * visitor without one is sent to /login-manage and back afterwards. The role comes from
 * /api/manage/me/info and decides which screens and buttons are shown.
 */
import type { AuthProvider } from 'ra-core';
import type { OperatorRole } from '../../resources/define';
import { canAccess } from './canAccess';
import { operatorSession, type OperatorSession } from './session';
import { sessionAuth, type AuthProviderOptions } from './sessionAuth';
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

export function createOperatorAuthProvider(options: AuthProviderOptions<OperatorSession>): AuthProvider {
  const { api, publicApi, screens } = options;
  const session = options.session ?? operatorSession;
  const { me, fresh, checks } = sessionAuth<OperatorInfo>({
    api,
    session,
    infoPath: '/api/manage/me/info',
    logoutPath: '/api/manage/login/logout',
    loginPage: OPERATOR_LOGIN_PATH,
  });

  return {
    async login({ username, password }) {
      return fresh(await operatorSignIn(publicApi, { username, password }, session));
    },
    ...checks,
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
