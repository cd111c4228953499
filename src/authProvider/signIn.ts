/**
 * Signing in, as the public pages and the auth providers do it: the calls are public (empty
 * Authentication header) and the answer becomes the stored session.
 */
import type { HttpClient } from '../api/client';
import { customerSession, mailboxSession, operatorSession, type CustomerSession, type MailboxSession, type OperatorSession, type SessionStore } from './session';

export interface CustomerSignedIn {
  id: number;
  email: string;
  is_verified: number;
  username?: string;
  token: string;
}

export function customerSignIn(publicApi: HttpClient, session: SessionStore<CustomerSession> = customerSession) {
  const signIn = async (path: string, params: Record<string, unknown>) => {
    const signedIn = await publicApi<CustomerSignedIn>({ method: 'POST', path: `/api/admin/login/${path}`, params });
    session.set({ id: signedIn.id, email: signedIn.email, is_verified: signedIn.is_verified ? 1 : 0, token: signedIn.token });
    return signedIn;
  };
  return {
    withPassword: (params: { email: string; password: string }) => signIn('login', params),
    withCode: (params: { email: string; code: string }) => signIn('login_by_verify_code', params),
    verify: (params: { email: string; code: string }) => signIn('verify', params),
    /** A team invitation's link token and the invitee's own password: the member is made and signed in. */
    acceptInvitation: (params: { token: string; password: string }) => signIn('accept_invitation', params),
  };
}

export async function operatorSignIn(publicApi: HttpClient, params: { username: string; password: string }, session: SessionStore<OperatorSession> = operatorSession) {
  const signedIn = await publicApi<OperatorSession & { role: string }>({ method: 'POST', path: '/api/manage/login/login', params });
  session.set({ id: signedIn.id, username: signedIn.username, token: signedIn.token });
  return signedIn;
}

export interface MailboxSignedIn {
  id: number;
  /** The mailbox's address (punycode domain), as sign-ins answer with the e-mail they took. */
  email: string;
  address_unicode?: string;
  name?: string | null;
  token: string;
}

/** A mailbox owner signs in with the mailbox's address and its (main) password. */
export async function mailboxSignIn(publicApi: HttpClient, params: { email: string; password: string }, session: SessionStore<MailboxSession> = mailboxSession) {
  const signedIn = await publicApi<MailboxSignedIn>({ method: 'POST', path: '/api/mail/login/login', params });
  session.set({ id: signedIn.id, address: signedIn.email, token: signedIn.token });
  return signedIn;
}
