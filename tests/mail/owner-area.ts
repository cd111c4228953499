/**
 * The mailbox owners' area (issue 21) as the mail suite uses it: the panel's /api/mail calls of
 * design-21.md. Until the panel serves them (branch i21), the same effects are written straight
 * into the tables the calls write (mailbox_sieve, app_password, mailbox), with the Sieve script and
 * id server/mail/rules.ts makes; `viaApi` says which is used.
 */
import crypto from 'node:crypto';
import { hashMailboxPassword } from '../../server/mail/mailbox-password.js';
import { noRules, scriptIdOf, sieveScript } from '../../server/mail/rules.js';
import type { MailStack } from './mail-stack.js';
import { panelApi } from './panel.js';

export interface OutOfOffice {
  enabled: boolean;
  starts_at?: string | null;
  ends_at?: string | null;
  time_zone: string;
  subject: string;
  body: string;
  interval_days: number;
}
export interface Forwarding {
  enabled: boolean;
  addresses: string[];
  keep_copy: boolean;
}

export async function ownerArea(stack: MailStack) {
  const { api, ok } = panelApi(() => stack.baseUrl, () => '');
  const spec = (await (await fetch(`${stack.baseUrl}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
  const viaApi = ['/api/mail/login/login', '/api/mail/rules/update_out_of_office', '/api/mail/app_password/create', '/api/mail/me/update_password'].every((p) => p in spec.paths);
  if (viaApi) {
    return {
      viaApi,
      /** A session of the mail area: the token. */
      login: async (email: string, password: string) => (await ok('/api/mail/login/login', { email, password }, '')).token as string,
      loginAnswer: (email: string, password: string) => api('/api/mail/login/login', { email, password }, ''),
      setOutOfOffice: (token: string, _address: string, rules: OutOfOffice) => ok('/api/mail/rules/update_out_of_office', { ...rules }, token),
      setForwarding: (token: string, _address: string, rules: Forwarding) => ok('/api/mail/rules/update_forwarding', { ...rules }, token),
      createAppPassword: async (token: string, _address: string, name: string) => (await ok('/api/mail/app_password/create', { name }, token)) as { id: number; password: string },
      listAppPasswords: async (token: string, _address: string) => (await ok('/api/mail/app_password/list', {}, token, 'GET')).list as AppPasswordRow[],
      deleteAppPassword: (token: string, _address: string, id: number) => ok('/api/mail/app_password/delete', { id }, token),
      setAppPasswordsOnly: (token: string, _address: string, on: boolean) => ok('/api/mail/me/update_settings', { app_passwords_only: on ? 1 : 0 }, token),
      updatePassword: (token: string, _address: string, old_password: string, password: string) => ok('/api/mail/me/update_password', { old_password, password }, token),
    };
  }
  const mailboxId = async (address: string) => Number((await stack.query<{ id: number }>('SELECT id FROM mailbox WHERE address = ?', [address]))[0].id);
  const now = () => new Date().toISOString();
  /** Rules → the Sieve script and its id, in the same table the panel writes. */
  async function writeRules(address: string, change: { ooo?: OutOfOffice; fwd?: Forwarding }) {
    const id = await mailboxId(address);
    const state = (fallbackRules.get(address) ?? {}) as { ooo?: OutOfOffice; fwd?: Forwarding };
    Object.assign(state, change);
    fallbackRules.set(address, state);
    const script = sieveScript(
      { out_of_office: { ...noRules.out_of_office, ...state.ooo, starts_at: state.ooo?.starts_at ?? null, ends_at: state.ooo?.ends_at ?? null }, forwarding: state.fwd ?? noRules.forwarding },
      [address],
    );
    await stack.query('DELETE FROM mailbox_sieve WHERE mailbox_id = ?', [id]);
    if (script) await stack.query('INSERT INTO mailbox_sieve (mailbox_id, script_id, script, updated_at) VALUES (?, ?, ?, ?)', [id, scriptIdOf(id, script), script, now()]);
  }
  const fallbackRules = new Map<string, unknown>();
  return {
    viaApi,
    login: async (email: string, _password: string) => email,
    loginAnswer: async (email: string, _password: string) => ({ code: 0, data: { token: email }, message: '' }),
    setOutOfOffice: (_token: string, address: string, rules: OutOfOffice) => writeRules(address, { ooo: rules }),
    setForwarding: (_token: string, address: string, rules: Forwarding) => writeRules(address, { fwd: rules }),
    async createAppPassword(_token: string, address: string, name: string) {
      const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
      const chars = Array.from(crypto.randomBytes(16), (b) => alphabet[b % alphabet.length]).join('');
      const password = chars.match(/.{4}/g)!.join('-');
      await stack.query('INSERT INTO app_password (mailbox_id, name, selector, password_hash, created_at, created_ip) VALUES (?, ?, ?, ?, ?, ?)', [
        await mailboxId(address), name, password.slice(0, 4), await hashMailboxPassword(password), now(), '127.0.0.1',
      ]);
      const [{ id }] = await stack.query<{ id: number }>('SELECT id FROM app_password WHERE mailbox_id = ? AND selector = ?', [await mailboxId(address), password.slice(0, 4)]);
      return { id: Number(id), password };
    },
    listAppPasswords: async (_token: string, address: string) =>
      (await stack.query<AppPasswordRow>('SELECT id, name, created_at, created_ip, last_used_at, last_used_ip FROM app_password WHERE mailbox_id = ? ORDER BY id', [await mailboxId(address)])).map((r) => ({ ...r, id: Number(r.id) })),
    deleteAppPassword: (_token: string, _address: string, id: number) => stack.query('DELETE FROM app_password WHERE id = ?', [id]),
    setAppPasswordsOnly: async (_token: string, address: string, on: boolean) => stack.query('UPDATE mailbox SET app_passwords_only = ? WHERE address = ?', [on ? 1 : 0, address]),
    updatePassword: async (_token: string, address: string, _old: string, password: string) =>
      stack.query('UPDATE mailbox SET password_hash = ? WHERE address = ?', [await hashMailboxPassword(password), address]),
  };
}

export interface AppPasswordRow {
  id: number;
  name: string;
  created_at: string;
  created_ip: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}
