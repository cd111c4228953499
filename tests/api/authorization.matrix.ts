/**
 * Who may make which call: one row per call of the API, one expected outcome per caller.
 * authorization.test.ts generates a test for every (call × caller) from this file, and fails
 * when the app serves a call that has no row here. Records that calls read or change belong
 * to customer A, so customer B's tries are always cross-tenant. Mailboxes A and B are two mailboxes of
 * customer A's: what the mail area's calls read or change is mailbox A's, so mailbox B's tries reach
 * another mailbox's records.
 *
 * Outcomes: ok (code 0), session (20000: not a session of this area), forbidden (40300),
 * not_found (40400: another customer's record), public (answered without a session).
 */
import crypto from 'node:crypto';
import type { Fixture } from './authorization.fixture.js';

export const callers = ['anonymous', 'customerA', 'customerB', 'memberA', 'superadmin', 'support', 'billing', 'mailboxA', 'mailboxB'] as const;
export type Caller = (typeof callers)[number];
export type Outcome = 'ok' | 'session' | 'forbidden' | 'not_found' | 'public';

export interface MatrixRow {
  /** "METHOD /path", exactly as served. */
  call: string;
  /** The body or query of one try; may create the records it needs (owned by customer A). */
  input: (fx: Fixture, caller: Caller) => Promise<Record<string, unknown>> | Record<string, unknown>;
  expect: Record<Caller, Outcome>;
  /** The call ends the caller's session or sets a password: it gets a session of its own. */
  usesOwnSession?: boolean;
  /** For lists: the id of customer A's record that must be listed for A and never for B. */
  listed?: (fx: Fixture) => Promise<number> | number;
}

const everyone = (outcome: Outcome) => Object.fromEntries(callers.map((c) => [c, outcome])) as Record<Caller, Outcome>;

/** Customer-area calls: operators' and visitors' tokens are no session there. */
function customerArea(who: { member: Outcome; otherCustomer: Outcome }): Record<Caller, Outcome> {
  return { ...everyone('session'), customerA: 'ok', customerB: who.otherCustomer, memberA: who.member };
}

/** Operator-area calls: the roles named may, the others are forbidden; customers have no session there. */
function operatorArea(...roles: ('superadmin' | 'support' | 'billing')[]): Record<Caller, Outcome> {
  const allowed = new Set(['superadmin', ...roles]);
  return {
    ...everyone('session'),
    superadmin: 'ok',
    support: allowed.has('support') ? 'ok' : 'forbidden',
    billing: allowed.has('billing') ? 'ok' : 'forbidden',
  };
}

const ownAccount = customerArea({ member: 'ok', otherCustomer: 'ok' });
const ownerOnlyOwnAccount = customerArea({ member: 'forbidden', otherCustomer: 'ok' });
const ownerOnlyRecord = customerArea({ member: 'forbidden', otherCustomer: 'not_found' });
const ownerOnlyList = customerArea({ member: 'forbidden', otherCustomer: 'ok' });
const allStaff = operatorArea('support', 'billing');
const teamRecord = customerArea({ member: 'ok', otherCustomer: 'not_found' });
const teamList = customerArea({ member: 'ok', otherCustomer: 'ok' });
/** The mailbox owners' area: customers', team members' and operators' tokens are no session there. */
const mailboxArea = (otherMailbox: Outcome): Record<Caller, Outcome> => ({ ...everyone('session'), mailboxA: 'ok', mailboxB: otherMailbox });
const ownMailbox = mailboxArea('ok');
/** An old IMAP server for mail copies (a closed port: the copy fails at once). */
const oldServer = { source_host: '127.0.0.1', source_port: 1, source_tls: 'starttls', source_user: 'old', password: 'old-password' };
const refusedToCustomers: Record<Caller, Outcome> = { ...everyone('session'), customerA: 'forbidden', customerB: 'forbidden', memberA: 'forbidden' };

/**
 * Second factors, the same calls in each area: the sign-in steps are public (a made-up pending
 * sign-in answers 40102); a person's own factors are theirs in their own area, and a passkey of
 * the area's first person (customer A, superadmin, mailbox A) is nobody else's. The rows run in
 * order: TOTP on, recovery codes, TOTP off.
 */
function secondFactorRows(area: 'admin' | 'manage' | 'mail'): MatrixRow[] {
  const own = area === 'admin' ? ownAccount : area === 'manage' ? allStaff : ownMailbox;
  const firstOnly: Record<Caller, Outcome> =
    area === 'admin'
      ? { ...own, customerB: 'not_found', memberA: 'not_found' }
      : area === 'manage'
        ? { ...own, support: 'not_found', billing: 'not_found' }
        : { ...own, mailboxB: 'not_found' };
  const madeUp = { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'e30' } };
  return [
    { call: `POST /api/${area}/login/second_factor`, input: () => ({ token: 'made-up', code: '123456' }), expect: everyone('public') },
    { call: `POST /api/${area}/login/passkey_options`, input: () => ({}), expect: everyone('public') },
    { call: `POST /api/${area}/login/passkey`, input: () => ({ challenge_token: 'made-up', response: madeUp }), expect: everyone('public') },
    { call: `POST /api/${area}/login/enrol_totp`, input: () => ({ token: 'made-up' }), expect: everyone('public') },
    { call: `POST /api/${area}/login/enrol_totp_confirm`, input: () => ({ token: 'made-up', code: '123456' }), expect: everyone('public') },
    { call: `POST /api/${area}/login/enrol_passkey_options`, input: () => ({ token: 'made-up' }), expect: everyone('public') },
    { call: `POST /api/${area}/login/enrol_passkey`, input: () => ({ token: 'made-up', challenge_token: 'made-up', name: 'Laptop', response: madeUp }), expect: everyone('public') },
    { call: `GET /api/${area}/second_factor/info`, input: () => ({}), expect: own },
    { call: `POST /api/${area}/second_factor/totp_start`, input: () => ({}), expect: own },
    { call: `POST /api/${area}/second_factor/totp_confirm`, input: async (fx, caller) => ({ code: await fx.totpEnrolmentCode(caller, area) }), expect: own },
    // Asked again for the caller's password (issue 33, 3.5).
    { call: `POST /api/${area}/second_factor/recovery_codes`, input: (fx, caller) => ({ confirmation: fx.passwordOf(caller) || 'none' }), expect: own },
    { call: `POST /api/${area}/second_factor/totp_disable`, input: (fx, caller) => ({ confirmation: fx.passwordOf(caller) || 'none' }), expect: own },
    { call: `POST /api/${area}/second_factor/passkey_options`, input: () => ({}), expect: own },
    { call: `POST /api/${area}/second_factor/passkey_add`, input: async (fx, caller) => ({ name: 'Laptop', ...(await fx.passkeyAnswer(caller, area)) }), expect: own },
    { call: `POST /api/${area}/second_factor/passkey_delete`, input: async (fx) => ({ id: await fx.passkeyOfFirst(area) }), expect: firstOnly },
  ];
}

export const matrix: MatrixRow[] = [
  // Public calls: answered for anyone, whatever token comes along.
  { call: 'POST /api/message/send', input: () => ({ name: 'Visitor', email: 'visitor@example.com', content: 'Hello' }), expect: everyone('public') },
  { call: 'POST /api/admin/login/register', input: (fx) => ({ email: fx.newEmail(), password: 'password-123' }), expect: everyone('public') },
  { call: 'POST /api/admin/login/send_code', input: (fx) => ({ email: fx.newEmail(), purpose: 'login' }), expect: everyone('public') },
  { call: 'POST /api/admin/login/verify', input: (fx) => ({ email: fx.newEmail(), code: '123456' }), expect: everyone('public') },
  { call: 'POST /api/admin/login/login', input: (fx) => ({ email: fx.newEmail(), password: 'password-123' }), expect: everyone('public') },
  { call: 'POST /api/admin/login/login_by_verify_code', input: (fx) => ({ email: fx.newEmail(), code: '123456' }), expect: everyone('public') },
  { call: 'POST /api/admin/login/forgot_password_send_email', input: (fx) => ({ email: fx.newEmail() }), expect: everyone('public') },
  { call: 'POST /api/admin/login/forgot_password', input: (fx) => ({ email: fx.newEmail(), code: '123456', password: 'password-123' }), expect: everyone('public') },
  // Team-member invitations (issue 8): the link is the credential, whatever token comes along.
  { call: 'POST /api/admin/login/accept_invitation', input: async (fx) => ({ token: await fx.invitationLink(), password: 'password-123' }), expect: everyone('public') },
  { call: 'POST /api/manage/login/login', input: () => ({ username: 'nobody', password: 'password-123' }), expect: everyone('public') },
  { call: 'POST /api/mail/login/login', input: (fx) => ({ email: fx.newEmail(), password: 'password-123' }), expect: everyone('public') },

  // Mailbox owners' own area (issue 21): their mailbox, rules and app passwords only.
  { call: 'POST /api/mail/login/logout', input: () => ({}), expect: ownMailbox, usesOwnSession: true },
  { call: 'GET /api/mail/me/info', input: () => ({}), expect: ownMailbox },
  { call: 'GET /api/mail/me/client_settings', input: () => ({}), expect: ownMailbox },
  {
    call: 'POST /api/mail/me/update_password',
    input: (fx, caller) => ({ old_password: fx.passwordOf(caller), password: fx.passwordOf(caller) }),
    expect: ownMailbox,
    usesOwnSession: true,
  },
  { call: 'POST /api/mail/me/update_settings', input: () => ({ app_passwords_only: 0 }), expect: ownMailbox },
  { call: 'GET /api/mail/rules/info', input: () => ({}), expect: ownMailbox },
  { call: 'POST /api/mail/rules/update_out_of_office', input: () => ({ enabled: true, subject: 'Away', body: 'Back on Monday.' }), expect: ownMailbox },
  { call: 'POST /api/mail/rules/update_forwarding', input: () => ({ enabled: false, addresses: [] }), expect: ownMailbox },
  { call: 'GET /api/mail/app_password/list', input: () => ({}), expect: ownMailbox, listed: (fx) => fx.appPasswordOfMailboxA() },
  { call: 'POST /api/mail/app_password/create', input: () => ({ name: 'Phone' }), expect: ownMailbox },
  { call: 'POST /api/mail/app_password/delete', input: async (fx) => ({ id: await fx.appPasswordOfMailboxA() }), expect: mailboxArea('not_found') },
  // Where you are signed in (issue 22): each person their own sessions, never with an API key.
  { call: 'GET /api/mail/session/list', input: () => ({}), expect: ownMailbox },
  { call: 'POST /api/mail/session/end', input: async (fx) => ({ id: await fx.sessionOf('mailboxA') }), expect: mailboxArea('not_found') },
  { call: 'POST /api/mail/session/end_others', input: () => ({}), expect: ownMailbox },
  { call: 'GET /api/admin/session/list', input: () => ({}), expect: ownAccount },
  { call: 'POST /api/admin/session/end', input: async (fx) => ({ id: await fx.sessionOf('customerA') }), expect: customerArea({ member: 'not_found', otherCustomer: 'not_found' }) },
  { call: 'POST /api/admin/session/end_others', input: () => ({}), expect: ownAccount },
  { call: 'GET /api/manage/session/list', input: () => ({}), expect: allStaff },
  { call: 'POST /api/manage/session/end', input: async (fx) => ({ id: await fx.sessionOf('superadmin') }), expect: { ...operatorArea('support', 'billing'), support: 'not_found', billing: 'not_found' } },
  { call: 'POST /api/manage/session/end_others', input: () => ({}), expect: allStaff },
  // API keys (issue 22): a team member's keys are theirs and their customer's; operators' each their own.
  { call: 'GET /api/admin/api_key/list', input: () => ({}), expect: teamList, listed: (fx) => fx.apiKeyOf('memberA') },
  { call: 'POST /api/admin/api_key/create', input: (fx, caller) => ({ name: 'Script', access: 'write', confirmation: fx.passwordOf(caller) || 'none' }), expect: teamList },
  { call: 'POST /api/admin/api_key/delete', input: async (fx) => ({ id: await fx.apiKeyOf('memberA') }), expect: teamRecord },
  { call: 'GET /api/manage/api_key/list', input: () => ({}), expect: allStaff },
  { call: 'POST /api/manage/api_key/create', input: (fx, caller) => ({ name: 'Script', access: 'read', confirmation: fx.passwordOf(caller) || 'none' }), expect: allStaff },
  { call: 'POST /api/manage/api_key/delete', input: async (fx) => ({ id: await fx.apiKeyOf('superadmin') }), expect: { ...operatorArea('support', 'billing'), support: 'not_found', billing: 'not_found' } },
  // A mailbox's rules on its record, for the customer's team and operators.
  { call: 'GET /api/admin/email/rules', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/email/update_out_of_office', input: async (fx) => ({ id: await fx.mailboxOfA(), enabled: true, subject: 'Away', body: 'Back on Monday.' }), expect: teamRecord },
  { call: 'POST /api/admin/email/update_forwarding', input: async (fx) => ({ id: await fx.mailboxOfA(), enabled: true, addresses: ['elsewhere@example.com'] }), expect: teamRecord },
  { call: 'GET /api/manage/email/rules', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: allStaff },
  { call: 'POST /api/manage/email/update_out_of_office', input: async (fx) => ({ id: await fx.mailboxOfA(), enabled: false }), expect: operatorArea('support') },
  { call: 'POST /api/manage/email/update_forwarding', input: async (fx) => ({ id: await fx.mailboxOfA(), enabled: false }), expect: operatorArea('support') },

  // Spam (issue 23): the operators' defaults; a domain's and a mailbox's settings, held mailboxes and
  // figures for the customer's team and operators; the owner's own; sender lists in the three areas.
  { call: 'GET /api/manage/spam/defaults', input: () => ({}), expect: allStaff },
  { call: 'POST /api/manage/spam/update_defaults', input: () => ({ filter: 'on', junk_score: 6, reject_score: 15, hourly_floor: 200, rate_factor: 10 }), expect: operatorArea('support') },
  { call: 'GET /api/admin/spam/domain', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/spam/update_domain', input: async (fx) => ({ id: await fx.domainOfA(), filter: 'on', junk_score: 5, reject_score: 12 }), expect: teamRecord },
  { call: 'GET /api/admin/spam/mailbox', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/spam/update_mailbox', input: async (fx) => ({ id: await fx.mailboxOfA(), filter: 'off' }), expect: teamRecord },
  { call: 'GET /api/admin/spam/held', input: () => ({}), expect: teamList },
  { call: 'POST /api/admin/spam/release', input: async (fx) => ({ mailbox_id: await fx.heldMailboxOfA() }), expect: teamRecord },
  { call: 'GET /api/admin/spam/stats', input: async (fx) => ({ domain_id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'GET /api/manage/spam/domain', input: async (fx) => ({ id: await fx.domainOfA() }), expect: allStaff },
  { call: 'POST /api/manage/spam/update_domain', input: async (fx) => ({ id: await fx.domainOfA(), filter: 'inherit' }), expect: operatorArea('support') },
  { call: 'GET /api/manage/spam/mailbox', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: allStaff },
  { call: 'POST /api/manage/spam/update_mailbox', input: async (fx) => ({ id: await fx.mailboxOfA(), filter: 'on', junk_score: 4, reject_score: 20 }), expect: operatorArea('support') },
  { call: 'GET /api/manage/spam/held', input: () => ({}), expect: allStaff },
  { call: 'POST /api/manage/spam/release', input: async (fx) => ({ mailbox_id: await fx.heldMailboxOfA() }), expect: operatorArea('support') },
  { call: 'GET /api/manage/spam/stats', input: async (fx) => ({ domain_id: await fx.domainOfA() }), expect: allStaff },
  { call: 'GET /api/admin/reports/dmarc', input: async (fx) => ({ domain_id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'GET /api/admin/reports/tls', input: async (fx) => ({ domain_id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/reports/update_policy', input: async (fx) => ({ domain_id: await fx.domainOfA(), policy: 'quarantine' }), expect: teamRecord },
  { call: 'GET /api/manage/reports/dmarc', input: async (fx) => ({ domain_id: await fx.domainOfA() }), expect: allStaff },
  { call: 'GET /api/manage/reports/tls', input: async (fx) => ({ domain_id: await fx.domainOfA() }), expect: allStaff },
  { call: 'POST /api/manage/reports/update_policy', input: async (fx) => ({ domain_id: await fx.domainOfA(), policy: 'quarantine' }), expect: operatorArea('support') },
  { call: 'GET /api/manage/reports/summary', input: () => ({}), expect: allStaff },
  { call: 'GET /api/mail/spam/info', input: () => ({}), expect: ownMailbox },
  { call: 'POST /api/mail/spam/update', input: () => ({ filter: 'on', junk_score: 3, reject_score: 30 }), expect: ownMailbox },
  // Bringing the mail (issue 25): copies from another IMAP server.
  { call: 'GET /api/admin/mail_copy/list', input: () => ({}), expect: teamList, listed: (fx) => fx.mailCopyOfA() },
  { call: 'GET /api/admin/mail_copy/get', input: async (fx) => ({ id: await fx.mailCopyOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/mail_copy/create', input: async (fx) => ({ mailbox_id: await fx.mailboxOfA(), ...oldServer }), expect: teamRecord },
  { call: 'POST /api/admin/mail_copy/create_for_domain', input: async (fx) => ({ domain_id: await fx.domainOfA(), source_host: '127.0.0.1', source_port: 1, accounts: [{ mailbox_id: await fx.mailboxOfA(), source_user: 'old', password: 'old-password' }] }), expect: teamRecord },
  { call: 'GET /api/manage/mail_copy/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/mail_copy/get', input: async (fx) => ({ id: await fx.mailCopyOfA() }), expect: allStaff },
  { call: 'POST /api/manage/mail_copy/create', input: async (fx) => ({ mailbox_id: await fx.mailboxOfA(), ...oldServer }), expect: operatorArea('support') },
  { call: 'POST /api/manage/mail_copy/create_for_domain', input: async (fx) => ({ domain_id: await fx.domainOfA(), source_host: '127.0.0.1', source_port: 1, accounts: [{ mailbox_id: await fx.mailboxOfA(), source_user: 'old', password: 'old-password' }] }), expect: operatorArea('support') },
  { call: 'GET /api/mail/mail_copy/list', input: () => ({}), expect: ownMailbox, listed: (fx) => fx.mailCopyOfMailboxA() },
  { call: 'GET /api/mail/mail_copy/get', input: async (fx) => ({ id: await fx.mailCopyOfMailboxA() }), expect: mailboxArea('not_found') },
  { call: 'GET /api/admin/spam_list/list', input: () => ({}), expect: teamList, listed: (fx) => fx.spamListOfA() },
  { call: 'GET /api/admin/spam_list/get', input: async (fx) => ({ id: await fx.spamListOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/spam_list/create', input: async (fx) => ({ domain_id: await fx.domainOfA(), sender: `${fx.newName()}.example`, action: 'block' }), expect: teamRecord },
  { call: 'POST /api/admin/spam_list/delete', input: async (fx) => ({ id: await fx.spamListOfA() }), expect: teamRecord },
  { call: 'GET /api/manage/spam_list/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/spam_list/get', input: async (fx) => ({ id: await fx.spamListOfA() }), expect: allStaff },
  { call: 'POST /api/manage/spam_list/create', input: async (fx) => ({ domain_id: await fx.domainOfA(), sender: `${fx.newName()}.example`, action: 'block' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/spam_list/delete', input: async (fx) => ({ id: await fx.spamListOfA() }), expect: operatorArea('support') },
  { call: 'GET /api/mail/spam_list/list', input: () => ({}), expect: ownMailbox, listed: (fx) => fx.spamListOfMailboxA() },
  { call: 'POST /api/mail/spam_list/create', input: (fx) => ({ sender: `${fx.newName()}.example`, action: 'allow' }), expect: ownMailbox },
  { call: 'POST /api/mail/spam_list/delete', input: async (fx) => ({ id: await fx.spamListOfMailboxA() }), expect: mailboxArea('not_found') },

  // The customer's own account.
  { call: 'POST /api/admin/login/logout', input: () => ({}), expect: ownAccount, usesOwnSession: true },
  { call: 'POST /api/admin/me/info', input: () => ({}), expect: ownAccount },
  { call: 'POST /api/admin/me/update_username', input: () => ({ username: 'Renamed' }), expect: ownAccount },
  {
    call: 'POST /api/admin/me/update_password',
    input: (fx, caller) => ({ old_password: fx.passwordOf(caller), password: fx.passwordOf(caller) }),
    expect: ownAccount,
    usesOwnSession: true,
  },
  { call: 'POST /api/admin/me/update_email', input: (fx) => ({ email: fx.newEmail() }), expect: ownAccount },
  { call: 'POST /api/admin/me/update_locale', input: () => ({ locale: 'en' }), expect: ownAccount },
  { call: 'POST /api/admin/me/update_storage_max', input: () => ({ storage_max: 2 * 1024 ** 3 }), expect: ownerOnlyOwnAccount },

  // Team members: the customer account alone manages them.
  { call: 'POST /api/admin/user/list', input: () => ({}), expect: ownerOnlyList, listed: (fx) => fx.teamMemberOfA() },
  { call: 'GET /api/admin/user/get', input: async (fx) => ({ id: await fx.teamMemberOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/user/create', input: (fx) => ({ email: fx.newEmail() }), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/admin/user/update', input: async (fx) => ({ id: await fx.teamMemberOfA(), username: 'Changed' }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/user/delete', input: async (fx) => ({ id: await fx.teamMemberOfA() }), expect: ownerOnlyRecord },
  // Team-member invitations (issue 8): pending ones are the customer account's alone.
  { call: 'POST /api/admin/team_invitation/list', input: () => ({}), expect: ownerOnlyList, listed: (fx) => fx.invitationOfA() },
  { call: 'GET /api/admin/team_invitation/get', input: async (fx) => ({ id: await fx.invitationOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/team_invitation/resend', input: async (fx) => ({ id: await fx.invitationOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/team_invitation/delete', input: async (fx) => ({ id: await fx.invitationOfA() }), expect: ownerOnlyRecord },

  // The customer's audit log.
  { call: 'POST /api/admin/log/list', input: () => ({}), expect: ownerOnlyList, listed: (fx) => fx.logEntryOfA() },
  { call: 'GET /api/admin/log/get', input: async (fx) => ({ id: await fx.logEntryOfA() }), expect: ownerOnlyRecord },

  // Operators' own session and profile.
  { call: 'POST /api/manage/login/logout', input: () => ({}), expect: allStaff, usesOwnSession: true },
  { call: 'POST /api/manage/me/info', input: () => ({}), expect: allStaff },
  {
    call: 'POST /api/manage/me/update_password',
    input: (fx, caller) => ({ old_password: fx.passwordOf(caller), password: fx.passwordOf(caller) }),
    expect: allStaff,
    usesOwnSession: true,
  },
  { call: 'POST /api/manage/index/stat', input: () => ({}), expect: allStaff },

  // Operators (superadmin only).
  { call: 'POST /api/manage/admin/list', input: () => ({}), expect: operatorArea() },
  { call: 'GET /api/manage/admin/get', input: async (fx) => ({ id: await fx.operator() }), expect: operatorArea() },
  { call: 'POST /api/manage/admin/create', input: (fx) => ({ username: fx.newName(), password: 'operator-pass-1', role: 'support' }), expect: operatorArea() },
  { call: 'POST /api/manage/admin/update', input: async (fx) => ({ id: await fx.operator(), role: 'billing' }), expect: operatorArea() },
  { call: 'POST /api/manage/admin/delete', input: async (fx) => ({ id: await fx.operator() }), expect: operatorArea() },

  // Customers.
  { call: 'POST /api/manage/user/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/user/get', input: async (fx) => ({ id: await fx.customer() }), expect: allStaff },
  { call: 'POST /api/manage/user/create', input: (fx) => ({ email: fx.newEmail(), password: 'customer-pass-1' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/user/update', input: async (fx) => ({ id: await fx.customer(), username: 'Changed' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/user/delete', input: async (fx) => ({ id: await fx.customer() }), expect: operatorArea() },

  // The whole audit log.
  { call: 'POST /api/manage/log/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/log/get', input: async (fx) => ({ id: await fx.logEntryOfA() }), expect: allStaff },

  // E-mail templates and the send log.
  { call: 'GET /api/manage/email_template/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/email_template/get', input: async (fx) => ({ id: await fx.template() }), expect: allStaff },
  { call: 'POST /api/manage/email_template/create', input: (fx) => ({ key: fx.newName(), locale: 'en', subject: 'S', body: 'B' }), expect: operatorArea() },
  { call: 'POST /api/manage/email_template/update', input: async (fx) => ({ id: await fx.template(), subject: 'Changed' }), expect: operatorArea() },
  { call: 'POST /api/manage/email_template/delete', input: async (fx) => ({ id: await fx.template() }), expect: operatorArea() },
  { call: 'GET /api/manage/email_send_log/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/email_send_log/get', input: async (fx) => ({ id: await fx.sendLogEntry() }), expect: allStaff },
  { call: 'POST /api/manage/email_send_log/delete', input: async (fx) => ({ id: await fx.sendLogEntry() }), expect: operatorArea() },
  { call: 'POST /api/manage/outbox/settings', input: () => ({}), expect: allStaff },
  { call: 'POST /api/manage/outbox/send_test', input: () => ({ to: 'postmaster@example.com' }), expect: operatorArea() },
  { call: 'POST /api/manage/mail_server/settings', input: () => ({}), expect: allStaff },

  // Durable jobs: every operator sees them; only a superadmin retries or discards one.
  { call: 'POST /api/manage/job/summary', input: () => ({}), expect: allStaff },
  { call: 'POST /api/manage/job/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/job/get', input: async (fx) => ({ id: await fx.queuedJob() }), expect: allStaff },
  // No failed job here (jobs.test.ts and job-screen tests retry real ones): an unknown id proves who may ask.
  { call: 'POST /api/manage/job/retry', input: () => ({ id: '999999999' }), expect: { ...operatorArea(), superadmin: 'not_found' } },
  { call: 'POST /api/manage/job/discard', input: async (fx) => ({ id: await fx.queuedJob() }), expect: operatorArea() },

  // Hosted mail in the customer area: member A manages the domains the tries use.
  { call: 'POST /api/admin/domain/list', input: () => ({}), expect: teamList, listed: (fx) => fx.domainOfA() },
  { call: 'GET /api/admin/domain/get', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/domain/create', input: (fx) => ({ name: fx.newDomainName() }), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/admin/domain/update', input: async (fx) => ({ id: await fx.domainOfA(), note: 'Changed' }), expect: teamRecord },
  { call: 'POST /api/admin/domain/delete', input: async (fx) => ({ id: await fx.deletableDomainOfA() }), expect: ownerOnlyRecord },
  { call: 'GET /api/admin/domain/dns', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/domain/verify', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  // DKIM key rotation (mail server): the first step on a fresh domain makes the next key.
  { call: 'POST /api/admin/domain/dkim_rotate', input: async (fx) => ({ id: await fx.emptyDomainOfA() }), expect: teamRecord },
  // Domain health: the DNS watch's picture and history, a check now, the MTA-STS mode.
  { call: 'GET /api/admin/domain/dns_watch', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'GET /api/admin/domain/dns_history', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/domain/dns_check', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/domain/mta_sts_mode', input: async (fx) => ({ id: await fx.domainOfA(), mode: 'enforce' }), expect: teamRecord },
  { call: 'POST /api/admin/email/list', input: () => ({}), expect: teamList, listed: (fx) => fx.mailboxOfA() },
  { call: 'GET /api/admin/email/get', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/email/create', input: async (fx) => ({ domain_id: await fx.domainOfA(), local_part: fx.newLocalPart(), password: 'mailbox-pass-1', quota: 1024 ** 2 }), expect: teamRecord },
  { call: 'POST /api/admin/email/update', input: async (fx) => ({ id: await fx.mailboxOfA(), name: 'Changed' }), expect: teamRecord },
  { call: 'POST /api/admin/email/update_password', input: async (fx) => ({ id: await fx.mailboxOfA(), password: 'mailbox-pass-2' }), expect: teamRecord },
  { call: 'POST /api/admin/email/send_verify_code', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/email/delete', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: teamRecord },
  { call: 'GET /api/admin/alias/list', input: () => ({}), expect: teamList, listed: (fx) => fx.aliasOfA() },
  { call: 'GET /api/admin/alias/get', input: async (fx) => ({ id: await fx.aliasOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/alias/create', input: async (fx) => ({ domain_id: await fx.domainOfA(), local_part: fx.newLocalPart(), goto: 'someone@example.org' }), expect: teamRecord },
  { call: 'POST /api/admin/alias/update', input: async (fx) => ({ id: await fx.aliasOfA(), goto: ['one@example.org', 'two@example.org'] }), expect: teamRecord },
  { call: 'POST /api/admin/alias/delete', input: async (fx) => ({ id: await fx.aliasOfA() }), expect: teamRecord },
  { call: 'GET /api/admin/alias_domain/list', input: () => ({}), expect: teamList, listed: (fx) => fx.aliasDomainOfA() },
  { call: 'GET /api/admin/alias_domain/get', input: async (fx) => ({ id: await fx.aliasDomainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/alias_domain/create', input: async (fx) => ({ alias_domain_id: await fx.emptyDomainOfA(), target_domain_id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/alias_domain/update', input: async (fx) => ({ id: await fx.aliasDomainOfA(), active: 0 }), expect: teamRecord },
  { call: 'POST /api/admin/alias_domain/delete', input: async (fx) => ({ id: await fx.aliasDomainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/storage/list', input: () => ({}), expect: ownerOnlyList, listed: (fx) => fx.storageOfA() },
  { call: 'GET /api/admin/storage/get', input: async (fx) => ({ id: await fx.storageOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/storage/update', input: async (fx) => ({ id: await fx.storageOfA(), label: 'Mine' }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/storage/summary', input: () => ({}), expect: ownerOnlyOwnAccount },
  // Capacity is granted or bought, never made or removed by the customer: refused for every customer.
  { call: 'POST /api/admin/storage/create', input: () => ({ size: 1024 ** 3 }), expect: refusedToCustomers },
  { call: 'POST /api/admin/storage/delete', input: async (fx) => ({ id: await fx.storageOfA() }), expect: refusedToCustomers },

  // Hosted mail in the operator area.
  { call: 'POST /api/manage/domain/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/domain/get', input: async (fx) => ({ id: await fx.domainOfA() }), expect: allStaff },
  { call: 'POST /api/manage/domain/create', input: (fx) => ({ name: fx.newDomainName(), owner_id: fx.customerAId }), expect: operatorArea('support') },
  { call: 'POST /api/manage/domain/update', input: async (fx) => ({ id: await fx.domainOfA(), max_mailboxes: 0 }), expect: operatorArea('support') },
  { call: 'POST /api/manage/domain/delete', input: async (fx) => ({ id: await fx.deletableDomainOfA() }), expect: operatorArea() },
  { call: 'GET /api/manage/domain/dns', input: async (fx) => ({ id: await fx.domainOfA() }), expect: allStaff },
  { call: 'POST /api/manage/domain/verify', input: async (fx) => ({ id: await fx.domainOfA() }), expect: operatorArea('support') },
  // DKIM key rotation (mail server)
  { call: 'POST /api/manage/domain/dkim_rotate', input: async (fx) => ({ id: await fx.emptyDomainOfA() }), expect: operatorArea('support') },
  // Domain health
  { call: 'GET /api/manage/domain/dns_watch', input: async (fx) => ({ id: await fx.domainOfA() }), expect: allStaff },
  { call: 'GET /api/manage/domain/dns_history', input: async (fx) => ({ id: await fx.domainOfA() }), expect: allStaff },
  { call: 'POST /api/manage/domain/dns_check', input: async (fx) => ({ id: await fx.domainOfA() }), expect: operatorArea('support') },
  { call: 'POST /api/manage/domain/mta_sts_mode', input: async (fx) => ({ id: await fx.domainOfA(), mode: 'testing' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/email/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/email/get', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: allStaff },
  { call: 'POST /api/manage/email/create', input: async (fx) => ({ domain_id: await fx.domainOfA(), local_part: fx.newLocalPart(), password: 'mailbox-pass-1', quota: 1024 ** 2 }), expect: operatorArea('support') },
  { call: 'POST /api/manage/email/update', input: async (fx) => ({ id: await fx.mailboxOfA(), active: 0 }), expect: operatorArea('support') },
  { call: 'POST /api/manage/email/delete', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: operatorArea('support') },
  // Mailbox deletion (issue 12): deleted mailboxes, only in the operators' area; restoring is for those who may delete.
  { call: 'POST /api/manage/deleted_email/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/deleted_email/get', input: async (fx) => ({ id: await fx.deletedMailboxOfA() }), expect: allStaff },
  { call: 'POST /api/manage/deleted_email/restore', input: async (fx) => ({ id: await fx.deletedMailboxOfA() }), expect: operatorArea('support') },
  { call: 'GET /api/manage/alias/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/alias/get', input: async (fx) => ({ id: await fx.aliasOfA() }), expect: allStaff },
  { call: 'POST /api/manage/alias/create', input: async (fx) => ({ domain_id: await fx.domainOfA(), local_part: fx.newLocalPart(), goto: 'someone@example.org' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/alias/update', input: async (fx) => ({ id: await fx.aliasOfA(), active: 0 }), expect: operatorArea('support') },
  { call: 'POST /api/manage/alias/delete', input: async (fx) => ({ id: await fx.aliasOfA() }), expect: operatorArea('support') },
  { call: 'GET /api/manage/alias_domain/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/alias_domain/get', input: async (fx) => ({ id: await fx.aliasDomainOfA() }), expect: allStaff },
  { call: 'POST /api/manage/alias_domain/create', input: async (fx) => ({ alias_domain_id: await fx.emptyDomainOfA(), target_domain_id: await fx.domainOfA() }), expect: operatorArea('support') },
  { call: 'POST /api/manage/alias_domain/update', input: async (fx) => ({ id: await fx.aliasDomainOfA(), active: 0 }), expect: operatorArea('support') },
  { call: 'POST /api/manage/alias_domain/delete', input: async (fx) => ({ id: await fx.aliasDomainOfA() }), expect: operatorArea('support') },
  { call: 'POST /api/manage/storage/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/storage/get', input: async (fx) => ({ id: await fx.storageOfA() }), expect: allStaff },
  { call: 'POST /api/manage/storage/create', input: (fx) => ({ owner_id: fx.customerAId, size: 1024 ** 3 }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/storage/update', input: async (fx) => ({ id: await fx.storageOfA(), label: 'Changed' }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/storage/delete', input: async (fx) => ({ id: await fx.storageOfA() }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/storage/summary', input: (fx) => ({ user_id: fx.customerAId }), expect: allStaff },

  // Guest messages.
  { call: 'GET /api/manage/guest_message/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/guest_message/get', input: async (fx) => ({ id: await fx.guestMessage() }), expect: allStaff },
  { call: 'POST /api/manage/guest_message/delete', input: async (fx) => ({ id: await fx.guestMessage() }), expect: operatorArea('support') },

  // Shop: products and promotions are the provider's; orders and the ledger are customer A's.
  { call: 'POST /api/product/list', input: () => ({}), expect: everyone('public') },
  { call: 'POST /api/admin/product/list', input: () => ({}), expect: ownAccount },
  { call: 'GET /api/admin/product/get', input: async (fx) => ({ id: await fx.productId() }), expect: ownAccount },
  { call: 'POST /api/admin/order/create', input: async (fx) => ({ product_id: await fx.productId() }), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/admin/order/list', input: () => ({}), expect: ownerOnlyList, listed: (fx) => fx.pendingOrderOfA() },
  { call: 'GET /api/admin/order/get', input: async (fx) => ({ id: await fx.pendingOrderOfA() }), expect: ownerOnlyRecord },
  { call: 'GET /api/admin/order/history', input: async (fx) => ({ id: await fx.pendingOrderOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/order/create_payment_checkouturl', input: async (fx) => ({ id: await fx.pendingOrderOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/order/pay_points', input: async (fx) => ({ id: await fx.payableOrderOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/order/cancel', input: async (fx) => ({ id: await fx.pendingOrderOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/points/balance', input: () => ({}), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/admin/points/list', input: () => ({}), expect: ownerOnlyList, listed: (fx) => fx.ledgerEntryOfA() },
  { call: 'GET /api/admin/points/get', input: async (fx) => ({ id: await fx.ledgerEntryOfA() }), expect: ownerOnlyRecord },
  { call: 'POST /api/manage/product/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/product/get', input: async (fx) => ({ id: await fx.productId() }), expect: allStaff },
  { call: 'POST /api/manage/product/create', input: () => ({ kind: 'points', name_zh: '积分', name_en: 'Points', price: 100, points_granted: 100 }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/product/update', input: async (fx) => ({ id: await fx.newProduct(), sort_order: 5 }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/product/delete', input: async (fx) => ({ id: await fx.newProduct() }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/activity/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/activity/get', input: async (fx) => ({ id: await fx.activity() }), expect: allStaff },
  {
    call: 'POST /api/manage/activity/create',
    input: async (fx) => ({ name_zh: '活动', name_en: 'Sale', kind: 'amount', value: 1, product_ids: [await fx.productId()], starts_at: '2020-01-01T00:00:00Z', ends_at: '2020-01-02T00:00:00Z' }),
    expect: operatorArea('billing'),
  },
  { call: 'POST /api/manage/activity/update', input: async (fx) => ({ id: await fx.activity(), name_en: 'Changed' }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/activity/end', input: async (fx) => ({ id: await fx.activity() }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/order/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/order/get', input: async (fx) => ({ id: await fx.pendingOrderOfA() }), expect: allStaff },
  { call: 'GET /api/manage/order/history', input: async (fx) => ({ id: await fx.pendingOrderOfA() }), expect: allStaff },
  { call: 'POST /api/manage/order/cancel', input: async (fx) => ({ id: await fx.pendingOrderOfA(), reason: 'Asked by phone' }), expect: operatorArea('billing') },
  // Support does not refund.
  { call: 'POST /api/manage/order/refund', input: async (fx) => ({ id: await fx.paidOrderOfA(), to: 'points' }), expect: operatorArea('billing') },
  { call: 'POST /api/manage/points/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/points/get', input: async (fx) => ({ id: await fx.ledgerEntryOfA() }), expect: allStaff },
  { call: 'POST /api/manage/user/add_points', input: (fx) => ({ user_id: fx.customerAId, points: 1, note: 'Goodwill' }), expect: operatorArea('billing') },

  // Storage over time (issue 10): renewing a block is the owner's; extending or ending one is billing's.
  { call: 'POST /api/admin/storage/renewal', input: async (fx) => ({ id: await fx.expiringStorageOfA() }), expect: ownerOnlyRecord },
  {
    call: 'POST /api/manage/storage/extend',
    input: async (fx) => ({ id: await fx.expiringStorageOfA(), expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString(), reason: 'Goodwill' }),
    expect: operatorArea('billing'),
  },
  { call: 'POST /api/manage/storage/end', input: async (fx) => ({ id: await fx.expiringStorageOfA(), reason: 'Chargeback' }), expect: operatorArea('billing') },
  // Support (tickets): tickets member A opened, so that A and member A may and B may not.
  { call: 'POST /api/admin/ticket/list', input: () => ({}), expect: teamList, listed: (fx) => fx.ticketOfMemberA() },
  { call: 'GET /api/admin/ticket/get', input: async (fx) => ({ id: await fx.ticketOfMemberA() }), expect: teamRecord },
  { call: 'POST /api/admin/ticket/create', input: () => ({ subject: 'Help', category: 'other', message: 'Hello' }), expect: teamList },
  { call: 'POST /api/admin/ticket/update', input: async (fx) => ({ id: await fx.ticketOfMemberA(), priority: 'high' }), expect: teamRecord },
  { call: 'POST /api/admin/ticket/delete', input: async (fx) => ({ id: await fx.newTicketOfMemberA() }), expect: teamRecord },
  { call: 'POST /api/admin/ticket/append_message', input: async (fx) => ({ id: await fx.ticketOfMemberA(), body: 'More' }), expect: teamRecord },
  { call: 'GET /api/admin/ticket/attachment', input: async (fx) => ({ id: await fx.attachmentOfMemberA() }), expect: teamRecord },
  { call: 'POST /api/manage/ticket/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/ticket/get', input: async (fx) => ({ id: await fx.ticketOfMemberA() }), expect: allStaff },
  { call: 'POST /api/manage/ticket/create', input: (fx) => ({ owner_id: fx.customerAId, subject: 'Notice', category: 'account', message: 'Hello' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/ticket/update', input: async (fx) => ({ id: await fx.ticketOfMemberA(), priority: 'urgent' }), expect: allStaff },
  { call: 'POST /api/manage/ticket/delete', input: async (fx) => ({ id: await fx.newTicketOfMemberA() }), expect: operatorArea() },
  { call: 'POST /api/manage/ticket/append_message', input: async (fx) => ({ id: await fx.ticketOfMemberA(), body: 'Note', internal: true }), expect: allStaff },
  { call: 'GET /api/manage/ticket/attachment', input: async (fx) => ({ id: await fx.attachmentOfMemberA() }), expect: allStaff },
  // Mail stores: every operator reads them; only superadmins register, change or remove one.
  { call: 'POST /api/manage/mail_store/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/mail_store/get', input: async (fx) => ({ id: await fx.mailStore() }), expect: allStaff },
  { call: 'POST /api/manage/mail_store/create', input: () => ({ name: `n${crypto.randomBytes(4).toString('hex')}`, address: '10.1.2.3' }), expect: operatorArea() },
  { call: 'POST /api/manage/mail_store/update', input: async (fx) => ({ id: await fx.mailStore(), note: 'rack 4' }), expect: operatorArea() },
  { call: 'POST /api/manage/mail_store/delete', input: async (fx) => ({ id: await fx.mailStore() }), expect: operatorArea() },
  { call: 'POST /api/manage/canned_reply/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/canned_reply/get', input: async (fx) => ({ id: await fx.cannedReply() }), expect: allStaff },
  { call: 'POST /api/manage/canned_reply/create', input: () => ({ title: 'Hello', body: 'Hello!' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/canned_reply/update', input: async (fx) => ({ id: await fx.cannedReply(), title: 'Changed' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/canned_reply/delete', input: async (fx) => ({ id: await fx.cannedReply() }), expect: operatorArea('support') },
  // Mail-client settings of a mailbox (issue 14).
  { call: 'GET /api/admin/email/client_settings', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: teamRecord },
  { call: 'GET /api/admin/email/apple_profile', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: teamRecord },
  { call: 'GET /api/manage/email/client_settings', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: allStaff },

  // Guest message replies and handled state (issue 14).
  { call: 'POST /api/manage/guest_message/reply', input: async (fx) => ({ id: await fx.guestMessage(), subject: 'Re: Hello', body: 'Hello to you' }), expect: operatorArea('support') },
  { call: 'POST /api/manage/guest_message/handle', input: async (fx) => ({ id: await fx.guestMessage(), handled: 1 }), expect: operatorArea('support') },
  { call: 'GET /api/manage/guest_message/replies', input: async (fx) => ({ id: await fx.guestMessage() }), expect: allStaff },

  // Second factors (TOTP, recovery codes, passkeys) in the three areas, and who must have one.
  // Last: the callers keep the passkeys they add, and would sign in in two steps after this.
  ...secondFactorRows('admin'),
  ...secondFactorRows('manage'),
  ...secondFactorRows('mail'),
  { call: 'GET /api/manage/second_factor/policy', input: () => ({}), expect: allStaff },
  { call: 'POST /api/manage/second_factor/update_policy', input: () => ({ operators_required: false }), expect: operatorArea() },
  { call: 'GET /api/admin/second_factor/team_policy', input: () => ({}), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/admin/second_factor/update_team_policy', input: () => ({ required: false }), expect: ownerOnlyOwnAccount },
  { call: 'GET /api/admin/second_factor/mailbox_policy', input: () => ({}), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/admin/second_factor/update_mailbox_policy', input: () => ({ required: false }), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/manage/user/reset_second_factor', input: async (fx) => ({ id: await fx.customer(), reason: 'Lost phone' }), expect: operatorArea('support') },
  // Imports (issue 25): PostfixAdmin for the superadmin; CSV in both areas; runs a customer's own (a team member's: theirs).
  { call: 'POST /api/manage/imports/postfixadmin/inspect', input: async (fx) => ({ source: await fx.postfixAdminSource() }), expect: operatorArea() },
  { call: 'POST /api/manage/imports/postfixadmin/dry_run', input: async (fx) => ({ source: await fx.postfixAdminSource(), mapping: [] }), expect: operatorArea() },
  { call: 'POST /api/manage/imports/postfixadmin/start', input: async (fx) => ({ source: await fx.postfixAdminSource(), mapping: [] }), expect: operatorArea() },
  { call: 'GET /api/manage/imports/weak_hashes', input: () => ({}), expect: allStaff },
  { call: 'GET /api/admin/imports/csv_template', input: () => ({}), expect: teamList },
  { call: 'POST /api/admin/imports/csv_dry_run', input: (fx, caller) => fx.importCsv(caller), expect: teamList },
  { call: 'POST /api/admin/imports/csv_start', input: (fx, caller) => fx.importCsv(caller), expect: teamList },
  { call: 'GET /api/admin/imports/csv_export', input: () => ({}), expect: teamList },
  { call: 'GET /api/admin/imports/list', input: () => ({}), expect: teamList, listed: (fx) => fx.importRunOfA() },
  { call: 'GET /api/admin/imports/get', input: async (fx) => ({ id: await fx.importRunOfA() }), expect: teamRecord },
  { call: 'GET /api/manage/imports/csv_template', input: () => ({}), expect: allStaff },
  { call: 'POST /api/manage/imports/csv_dry_run', input: (fx) => fx.importCsv('superadmin'), expect: operatorArea('support') },
  { call: 'POST /api/manage/imports/csv_start', input: (fx) => fx.importCsv('superadmin'), expect: operatorArea('support') },
  { call: 'GET /api/manage/imports/csv_export', input: (fx) => ({ customer_id: fx.customerAId }), expect: operatorArea('support') },
  { call: 'GET /api/manage/imports/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/imports/get', input: async (fx) => ({ id: await fx.importRunOfA() }), expect: allStaff },
];
