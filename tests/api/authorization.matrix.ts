/**
 * Who may make which call: one row per call of the API, one expected outcome per caller.
 * authorization.test.ts generates a test for every (call × caller) from this file, and fails
 * when the app serves a call that has no row here. Records that calls read or change belong
 * to customer A, so customer B's tries are always cross-tenant.
 *
 * Outcomes: ok (code 0), session (20000: not a session of this area), forbidden (40300),
 * not_found (40400: another customer's record), public (answered without a session).
 */
import type { Fixture } from './authorization.fixture.js';

export const callers = ['anonymous', 'customerA', 'customerB', 'memberA', 'superadmin', 'support', 'billing'] as const;
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
const refusedToCustomers: Record<Caller, Outcome> = { ...everyone('session'), customerA: 'forbidden', customerB: 'forbidden', memberA: 'forbidden' };

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
  { call: 'POST /api/manage/login/login', input: () => ({ username: 'nobody', password: 'password-123' }), expect: everyone('public') },

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
  { call: 'POST /api/admin/user/create', input: (fx) => ({ email: fx.newEmail(), password: 'member-pass-1' }), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/admin/user/update', input: async (fx) => ({ id: await fx.teamMemberOfA(), username: 'Changed' }), expect: ownerOnlyRecord },
  { call: 'POST /api/admin/user/delete', input: async (fx) => ({ id: await fx.teamMemberOfA() }), expect: ownerOnlyRecord },

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

  // Hosted mail in the customer area: member A manages the domains the tries use.
  { call: 'POST /api/admin/domain/list', input: () => ({}), expect: teamList, listed: (fx) => fx.domainOfA() },
  { call: 'GET /api/admin/domain/get', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/domain/create', input: (fx) => ({ name: fx.newDomainName() }), expect: ownerOnlyOwnAccount },
  { call: 'POST /api/admin/domain/update', input: async (fx) => ({ id: await fx.domainOfA(), note: 'Changed' }), expect: teamRecord },
  { call: 'POST /api/admin/domain/delete', input: async (fx) => ({ id: await fx.deletableDomainOfA() }), expect: ownerOnlyRecord },
  { call: 'GET /api/admin/domain/dns', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
  { call: 'POST /api/admin/domain/verify', input: async (fx) => ({ id: await fx.domainOfA() }), expect: teamRecord },
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
  { call: 'POST /api/manage/email/list', input: () => ({}), expect: allStaff },
  { call: 'GET /api/manage/email/get', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: allStaff },
  { call: 'POST /api/manage/email/create', input: async (fx) => ({ domain_id: await fx.domainOfA(), local_part: fx.newLocalPart(), password: 'mailbox-pass-1', quota: 1024 ** 2 }), expect: operatorArea('support') },
  { call: 'POST /api/manage/email/update', input: async (fx) => ({ id: await fx.mailboxOfA(), active: 0 }), expect: operatorArea('support') },
  { call: 'POST /api/manage/email/delete', input: async (fx) => ({ id: await fx.mailboxOfA() }), expect: operatorArea('support') },
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
];
