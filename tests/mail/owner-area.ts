/** The mailbox owners' area as the mail suite uses it: the panel's /api/mail calls, with a mailbox's token. */
import type { MailStack } from './mail-stack.js';
import { panelApi } from './panel.js';
import type { Forwarding, OutOfOffice as Rule } from '../../resources/mailbox_rule.js';

/** What the calls take: the dates may be left out. */
export type OutOfOffice = Omit<Rule, 'starts_at' | 'ends_at'> & Partial<Pick<Rule, 'starts_at' | 'ends_at'>>;
export type { Forwarding };
export interface AppPasswordRow {
  id: number;
  name: string;
  created_at: string;
  created_ip: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}

export function ownerArea(stack: MailStack) {
  const { api, ok } = panelApi(() => stack.baseUrl, () => '', () => stack.panelErrors());
  return {
    /** Signs in to the mail area: the session's token. */
    login: async (email: string, password: string) => (await ok('/api/mail/login/login', { email, password }, '')).token as string,
    loginAnswer: (email: string, password: string) => api('/api/mail/login/login', { email, password }, ''),
    setOutOfOffice: (token: string, rules: OutOfOffice) => ok('/api/mail/rules/update_out_of_office', { ...rules }, token),
    setForwarding: (token: string, rules: Forwarding) => ok('/api/mail/rules/update_forwarding', { ...rules }, token),
    createAppPassword: async (token: string, name: string) => (await ok('/api/mail/app_password/create', { name }, token)) as { id: number; password: string },
    listAppPasswords: async (token: string) => (await ok('/api/mail/app_password/list', {}, token, 'GET')).list as AppPasswordRow[],
    deleteAppPassword: (token: string, id: number) => ok('/api/mail/app_password/delete', { id }, token),
    setAppPasswordsOnly: (token: string, on: boolean) => ok('/api/mail/me/update_settings', { app_passwords_only: on ? 1 : 0 }, token),
    updatePassword: (token: string, old_password: string, password: string) => ok('/api/mail/me/update_password', { old_password, password }, token),
  };
}
