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

/** The areas' paths in the API (/api/admin, /api/manage, /api/mail). */
export type SignInArea = 'admin' | 'manage' | 'mail';

/** The session an area's sign-in answered, stored as that area's (the first step's answer and the second step's are alike). */
export function storeSession(area: SignInArea, signedIn: CustomerSignedIn | (OperatorSession & { role?: string }) | MailboxSignedIn) {
  if (area === 'admin') {
    const customer = signedIn as CustomerSignedIn;
    customerSession.set({ id: customer.id, email: customer.email, is_verified: customer.is_verified ? 1 : 0, token: customer.token });
  } else if (area === 'manage') {
    const operator = signedIn as OperatorSession;
    operatorSession.set({ id: operator.id, username: operator.username, token: operator.token });
  } else {
    const box = signedIn as MailboxSignedIn;
    mailboxSession.set({ id: box.id, address: box.email, token: box.token });
  }
}

/** A later step of a sign-in (second factor, passkey, enrolment): a public call of the area whose answer is the session. */
export async function signInStep<T extends { token: string }>(publicApi: HttpClient, area: SignInArea, path: string, params: Record<string, unknown>): Promise<T> {
  const signedIn = await publicApi<T>({ method: 'POST', path: `/api/${area}/login/${path}`, params });
  storeSession(area, signedIn as never);
  return signedIn;
}
