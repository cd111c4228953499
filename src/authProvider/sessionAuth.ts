/**
 * What both areas' authProviders share: the signed-in account's info (fetched once per
 * token), sign-out, and the session checks that send a visitor to the area's sign-in page.
 */
import type { AuthProvider } from 'ra-core';
import type { HttpClient } from '../api/client';
import { SESSION_CODE } from '../api/errors';
import type { Screen } from '../screens/screen';
import type { SessionStore } from './session';

/** What an area gives its authProvider: its API client, the public one (sign-in), its screens (who may do what), and where the session is kept when not in the usual place. */
export interface AuthProviderOptions<S> {
  api: HttpClient;
  publicApi: HttpClient;
  screens: Screen[];
  session?: SessionStore<S>;
}

/** Whether an error from the data provider or a call means the session is gone. */
export const isSessionError = (error: unknown) => {
  const e = error as { status?: number; code?: number; body?: { code?: number } } | undefined;
  return e?.code === SESSION_CODE || e?.body?.code === SESSION_CODE;
};

/** The sign-in pages' query parameter saying the previous session was ended by the server. */
export const SESSION_ENDED_PARAM = 'session_ended';

export function sessionAuth<Info>(options: {
  api: HttpClient;
  session: SessionStore<{ token: string }>;
  infoPath: string;
  /** How the area's me/info is called (the specification's areas post it; the mailbox owners' area gets it). */
  infoMethod?: 'GET' | 'POST';
  logoutPath: string;
  loginPage: string;
}) {
  const { api, session } = options;
  let info: { token: string; promise: Promise<Info> } | undefined;
  /**
   * The server ended the session (expired, revoked, signed out elsewhere): the sign-in page says
   * so. Kept until the next sign-in, since the failed calls of the page being left each send the
   * visitor to the sign-in page again, and the last of them must not drop the reason.
   */
  let endedByServer = false;
  const signInPage = () => (endedByServer ? `${options.loginPage}?${SESSION_ENDED_PARAM}=1` : options.loginPage);
  const redirect = { redirectTo: options.loginPage, message: false };

  /** The account behind the current token; asked again when the token changes or the call failed. */
  const me = () => {
    const token = session.token();
    if (!info || info.token !== token) info = { token, promise: api<Info>({ method: options.infoMethod ?? 'POST', path: options.infoPath }) };
    info.promise.catch(() => (info = undefined));
    return info.promise;
  };
  /** Forgets the cached info (after a sign-in). */
  const fresh = <T,>(signedIn: T) => {
    info = undefined;
    endedByServer = false;
    return signedIn;
  };
  const checks: Pick<AuthProvider, 'logout' | 'checkAuth' | 'checkError'> = {
    async logout() {
      if (session.isLoggedIn()) await api({ method: 'POST', path: options.logoutPath, silent: true }).catch(() => undefined);
      session.reset();
      info = undefined;
      return signInPage();
    },
    async checkAuth() {
      if (!session.isLoggedIn()) throw { ...redirect, redirectTo: signInPage() };
    },
    async checkError(error) {
      if (isSessionError(error)) {
        session.reset();
        endedByServer = true;
        throw { ...redirect, redirectTo: signInPage() };
      }
    },
  };
  return { me, fresh, checks };
}
