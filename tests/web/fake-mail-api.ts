/**
 * The mail area's API as the contract (design-21.md) describes it, kept in memory: a stand-in
 * for the server in screen tests, answering through fake-fetch and recording every request.
 */
import { fakeFetch, type Sent } from './fake-fetch';

const ok = (data: unknown) => ({ body: { code: 0, data, message: 'success' } });
const refused = (code: number, message: string, errors?: Record<string, { message: string }>) => ({ status: code === 20000 ? 401 : 400, body: { code, data: null, message, errors } });

export function fakeMailApi(options: { password?: string } = {}) {
  let password = options.password ?? 'secret-pass-1';
  let token = 'mailbox-token-1';
  let nextId = 1;
  const state = {
    me: {
      id: 7,
      address: 'ann@example.com',
      address_unicode: 'ann@example.com',
      name: 'Ann',
      domain: 'example.com',
      quota: 1024 * 1024 * 1024,
      used_bytes: 256 * 1024 * 1024,
      used_messages: 42,
      aliases: ['sales@example.com', 'ann@example.org'],
      app_passwords_only: 0 as number,
      recent_sign_ins: [{ at: '2026-11-26T08:00:00.000Z', ip: '203.0.113.9', user_agent: 'Firefox on Linux' }],
    },
    rules: {
      out_of_office: { enabled: false, starts_at: null as string | null, ends_at: null as string | null, time_zone: 'Asia/Shanghai', subject: '', body: '', interval_days: 7 },
      forwarding: { enabled: false, addresses: [] as string[], keep_copy: true },
      updated_at: null as string | null,
      updated_by: null as string | null,
    },
    spam: { filter: 'inherit' as string, junk_score: null as number | null, reject_score: null as number | null, effective: { filter: 'on', junk_score: 6, reject_score: 15, from: 'default' }, updated_at: null, updated_by: null },
    senders: [] as { id: number; sender: string; action: string; domain_id: number; mailbox_id: number; created_at: string }[],
    appPasswords: [] as { id: number; name: string; created_at: string; created_ip: string | null; last_used_at: string | null; last_used_ip: string | null }[],
  };
  const changed = () => {
    state.rules.updated_at = '2026-11-27T02:00:00.000Z';
    state.rules.updated_by = `mailbox:${state.me.address}`;
  };

  const answer = (request: Sent) => {
    const path = request.url.split('?')[0];
    const body = (request.body ?? {}) as Record<string, any>;
    if (path === '/api/mail/login/login') {
      if (body.email !== state.me.address || body.password !== password) return refused(10001, 'error.bad_credentials');
      return ok({ id: state.me.id, email: state.me.address, address_unicode: state.me.address_unicode, name: state.me.name, token });
    }
    if (request.headers.Authentication !== token) return refused(20000, 'error.session_expired');
    switch (path) {
      case '/api/mail/login/logout':
        token = `mailbox-token-${++nextId}`;
        return ok(null);
      case '/api/mail/me/info':
        return ok(state.me);
      case '/api/mail/me/client_settings':
        return ok({
          address: state.me.address,
          username: state.me.address,
          incoming: [{ protocol: 'imap', host: 'mail.example.net', port: 993, security: 'ssl' }],
          outgoing: [{ protocol: 'smtp', host: 'mail.example.net', port: 465, security: 'ssl' }],
          in_service: true,
        });
      case '/api/mail/me/update_password':
        if (body.old_password !== password) return refused(10002, 'validation.wrong_password', { old_password: { message: 'validation.wrong_password' } });
        password = body.password;
        return ok(state.me);
      case '/api/mail/me/update_settings':
        state.me.app_passwords_only = body.app_passwords_only ? 1 : 0;
        return ok(state.me);
      case '/api/mail/rules/info':
        return ok(state.rules);
      case '/api/mail/rules/update_out_of_office':
        state.rules.out_of_office = { ...state.rules.out_of_office, ...body };
        changed();
        return ok(state.rules);
      case '/api/mail/rules/update_forwarding':
        if ((body.addresses as string[]).includes(state.me.address)) return refused(10003, 'error.forward_loop', { addresses: { message: 'error.forward_loop' } });
        state.rules.forwarding = { ...state.rules.forwarding, ...body };
        changed();
        return ok(state.rules);
      case '/api/mail/app_password/list':
        return ok({ list: state.appPasswords, total: state.appPasswords.length });
      case '/api/mail/app_password/create': {
        const item = { id: ++nextId, name: body.name, created_at: '2026-11-27T02:10:00.000Z', created_ip: '198.51.100.7', last_used_at: null, last_used_ip: null };
        state.appPasswords.push(item);
        return ok({ id: item.id, name: item.name, created_at: item.created_at, password: 'abcd-efgh-jkmn-pqrs' });
      }
      case '/api/mail/app_password/delete':
        state.appPasswords = state.appPasswords.filter((p) => p.id !== body.id);
        return ok(null);
      case '/api/mail/spam/info':
        return ok(state.spam);
      case '/api/mail/spam/update':
        if (body.filter === 'on' && body.junk_score >= body.reject_score) return refused(40000, 'error.validation', { junk_score: { message: 'validation.spam_junk_below_reject' } });
        state.spam = { ...state.spam, filter: body.filter, junk_score: body.junk_score ?? null, reject_score: body.reject_score ?? null, effective: body.filter === 'on' ? { filter: 'on', junk_score: body.junk_score, reject_score: body.reject_score, from: 'mailbox' } : state.spam.effective };
        return ok(state.spam);
      case '/api/mail/spam_list/list':
        return ok({ list: state.senders, total: state.senders.length });
      case '/api/mail/spam_list/create': {
        const entry = { id: ++nextId, sender: String(body.sender).toLowerCase(), action: body.action, domain_id: 3, mailbox_id: state.me.id, created_at: '2026-11-27T02:20:00.000Z' };
        state.senders.push(entry);
        return ok(entry);
      }
      case '/api/mail/spam_list/delete':
        state.senders = state.senders.filter((e) => e.id !== body.id);
        return ok(null);
      default:
        return refused(404, 'error.no_such_call');
    }
  };
  const { fetch, sent } = fakeFetch(answer);
  return {
    fetch,
    sent,
    state,
    token: () => token,
    /** The server ends the session (revoked elsewhere). */
    endSession: () => (token = 'revoked'),
    calls: (path: string) => sent.filter((r) => r.url.split('?')[0] === path),
  };
}
