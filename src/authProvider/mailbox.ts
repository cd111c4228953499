/**
 * The mailbox owners' area's authProvider: the session under "mailbox" (id, address, token); a
 * visitor without one is sent to /mail/login and back afterwards. The area has pages only, all
 * of them the signed-in mailbox's own, so every page is open to its owner.
 */
import type { AuthProvider } from 'ra-core';
import { mailboxSession, type MailboxSession } from './session';
import { sessionAuth, type AuthProviderOptions } from './sessionAuth';
import { mailboxSignIn } from './signIn';

export const MAILBOX_LOGIN_PATH = '/mail/login';

export interface SignIn {
  at: string;
  ip: string | null;
  user_agent: string | null;
}

/** GET /api/mail/me/info: the signed-in mailbox. */
export interface MailboxInfo {
  id: number;
  address: string;
  address_unicode?: string;
  name: string | null;
  domain: string;
  quota: number;
  used_bytes: number;
  used_messages: number;
  /** Addresses that deliver to this mailbox. */
  aliases: string[];
  app_passwords_only: boolean | number;
  recent_sign_ins: SignIn[];
}

export function createMailboxAuthProvider(options: AuthProviderOptions<MailboxSession>): AuthProvider {
  const { api, publicApi } = options;
  const session = options.session ?? mailboxSession;
  const { fresh, checks } = sessionAuth<MailboxInfo>({
    api,
    session,
    infoPath: '/api/mail/me/info',
    infoMethod: 'GET',
    logoutPath: '/api/mail/login/logout',
    loginPage: MAILBOX_LOGIN_PATH,
  });

  return {
    async login({ email, password }) {
      return fresh(await mailboxSignIn(publicApi, { email, password }, session));
    },
    ...checks,
    async getIdentity() {
      const { id, address } = session.get();
      return { id, fullName: address };
    },
    async getPermissions() {
      return session.isLoggedIn() ? { mailbox: true } : undefined;
    },
    async canAccess() {
      return session.isLoggedIn();
    },
  };
}
