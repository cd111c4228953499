/**
 * The stored sessions of the specification: the customer's under "user" (id, email,
 * is_verified, token) and the operator's under "admin" (id, username, token); ours of the
 * mailbox owner under "mailbox" (id, address, token). Logged in means a token that is neither
 * empty nor zero; a reset stores the empty values.
 */
export interface CustomerSession {
  id: number;
  email: string;
  is_verified: 0 | 1;
  token: string;
}

export interface OperatorSession {
  id: number;
  username: string;
  token: string;
}

export interface MailboxSession {
  id: number;
  address: string;
  token: string;
}

export interface SessionStore<S> {
  key: string;
  get(): S;
  set(session: S): void;
  reset(): void;
  isLoggedIn(): boolean;
  token(): string;
}

function storage(): Storage | undefined {
  return typeof window === 'undefined' ? undefined : window.localStorage;
}

function sessionStore<S extends { token: string }>(key: string, empty: S, pick: (value: Record<string, unknown>) => S): SessionStore<S> {
  const get = (): S => {
    try {
      const raw = storage()?.getItem(key);
      return raw ? pick({ ...empty, ...JSON.parse(raw) }) : { ...empty };
    } catch {
      return { ...empty };
    }
  };
  return {
    key,
    get,
    set: (session) => storage()?.setItem(key, JSON.stringify(pick(session as unknown as Record<string, unknown>))),
    reset: () => storage()?.setItem(key, JSON.stringify(empty)),
    isLoggedIn: () => {
      const token = String(get().token ?? '');
      return token !== '' && token !== '0';
    },
    token: () => String(get().token ?? ''),
  };
}

export const customerSession = sessionStore<CustomerSession>('user', { id: 0, email: '', is_verified: 0, token: '' }, (v) => ({
  id: Number(v.id) || 0,
  email: String(v.email ?? ''),
  is_verified: Number(v.is_verified) === 1 ? 1 : 0,
  token: String(v.token ?? ''),
}));

export const operatorSession = sessionStore<OperatorSession>('admin', { id: 0, username: '', token: '' }, (v) => ({
  id: Number(v.id) || 0,
  username: String(v.username ?? ''),
  token: String(v.token ?? ''),
}));

export const mailboxSession = sessionStore<MailboxSession>('mailbox', { id: 0, address: '', token: '' }, (v) => ({
  id: Number(v.id) || 0,
  address: String(v.address ?? ''),
  token: String(v.token ?? ''),
}));
