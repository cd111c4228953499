/**
 * Sessions: random opaque tokens, stored only as their SHA-256, with an idle and an absolute
 * expiry. Logout revokes one; a password change or a disabled account revokes the others.
 * Every new session notes its device; the first sign-in from a new one is e-mailed to the person.
 */
import crypto from 'node:crypto';
import { accountColumns, type AccountInfo } from '../core/actor.js';
import type { CallContext } from '../core/calls.js';
import { inMinutes, now, nowMs as clockMs } from '../core/time.js';
import type { DatabaseHandle, Db } from '../db/index.js';
import type { SessionRow } from '../db/schema.js';
import { noticeNewDevice, type SigningIn } from './new-device.js';

export type SessionActor = SessionRow['actor'];

export interface SessionPolicy {
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

export async function createSession(ctx: CallContext, actor: SessionActor, person: SigningIn): Promise<string> {
  const { db, config: policy } = ctx.services;
  const client = { ip: ctx.ip, userAgent: ctx.userAgent };
  const accountId = person.id;
  const token = crypto.randomBytes(32).toString('base64url');
  const at = now();
  await db
    .insertInto('session')
    .values({
      token_hash: sha256(token),
      actor,
      account_id: accountId,
      created_at: at,
      last_seen_at: at,
      expires_at: inMinutes(policy.sessionAbsoluteHours * 60),
      ip: client.ip,
      user_agent: client.userAgent.slice(0, 500),
    })
    .execute();
  await noticeNewDevice(ctx, actor, person);
  return token;
}


// One query per authenticated request: the session and the account it belongs to (and a team
// member's customer), written once as SQL so that no query is built per request.
const signedInSql = {
  customer: `select s.id as session_id, s.last_seen_at, s.expires_at, ${accountColumns.map((c) => `u.${c}`).join(', ')}, o.status as owner_status
    from session s join "user" u on u.id = s.account_id left join "user" o on o.id = u.owner_id
    where s.token_hash = ? and s.actor = 'customer' and s.revoked_at is null`,
  operator: `select s.id as session_id, s.last_seen_at, s.expires_at, a.id, a.username, a.role, a.status
    from session s join admin a on a.id = s.account_id
    where s.token_hash = ? and s.actor = 'operator' and s.revoked_at is null`,
  // A mailbox owner signs in only while the mailbox, its domain (active, verified, area on) and its customer are active.
  mailbox: `select s.id as session_id, s.last_seen_at, s.expires_at, m.id, m.address, m.owner_id, m.domain_id, 'active' as status
    from session s join mailbox m on m.id = s.account_id join domain d on d.id = m.domain_id join "user" u on u.id = m.owner_id
    where s.token_hash = ? and s.actor = 'mailbox' and s.revoked_at is null
      and m.active = 1 and d.status = 'active' and d.verified_at is not null and d.mailbox_area = 1 and u.status = 'active'`,
} as const;
const forPostgres = (text: string) => text.replace('?', '$1');
const compiled = {
  sqlite: signedInSql,
  postgres: { customer: forPostgres(signedInSql.customer), operator: forPostgres(signedInSql.operator), mailbox: forPostgres(signedInSql.mailbox) },
};

interface LiveSession {
  session_id: number;
  last_seen_at: string;
  expires_at: string;
  id: number;
  status: string;
}
export interface SignedInCustomer extends LiveSession, AccountInfo {
  owner_status: string | null;
}
export interface SignedInOperator extends LiveSession {
  username: string;
  role: string;
}
export interface SignedInMailbox extends LiveSession {
  address: string;
  owner_id: number;
  domain_id: number;
}

/** The live session a token names with its account, or undefined. Refreshes its idle clock at most once a minute. */
export async function findSignedIn(database: DatabaseHandle, policy: SessionPolicy, actor: 'customer', token: string): Promise<SignedInCustomer | undefined>;
export async function findSignedIn(database: DatabaseHandle, policy: SessionPolicy, actor: 'operator', token: string): Promise<SignedInOperator | undefined>;
export async function findSignedIn(database: DatabaseHandle, policy: SessionPolicy, actor: 'mailbox', token: string): Promise<SignedInMailbox | undefined>;
export async function findSignedIn({ db, dialect, read }: DatabaseHandle, policy: SessionPolicy, actor: SessionActor, token: string): Promise<LiveSession | undefined> {
  if (!token) return undefined;
  const [session] = await read<LiveSession>(compiled[dialect][actor], [sha256(token)]);
  if (!session) return undefined;
  const nowMs = clockMs();
  const lastSeen = Date.parse(session.last_seen_at);
  if (Date.parse(session.expires_at) <= nowMs || lastSeen + policy.sessionIdleMinutes * 60_000 <= nowMs) return undefined;
  if (nowMs - lastSeen > 60_000) {
    await db.updateTable('session').set({ last_seen_at: now() }).where('id', '=', session.session_id).execute();
  }
  return session;
}

export async function revokeSession(db: Db, sessionId: number): Promise<void> {
  await db.updateTable('session').set({ revoked_at: now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Revokes every session of an account, except the one making the change when given. */
export async function revokeSessionsOf(db: Db, actor: SessionActor, accountIds: number[], exceptSessionId?: number) {
  if (accountIds.length === 0) return;
  let query = db
    .updateTable('session')
    .set({ revoked_at: now() })
    .where('actor', '=', actor)
    .where('account_id', 'in', accountIds)
    .where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}

/** A person's live sessions, most recently used first: where they are signed in. */
export async function liveSessionsOf(db: Db, policy: SessionPolicy, actor: SessionActor, accountId: number) {
  const at = now();
  return db
    .selectFrom('session')
    .select(['id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
    .where('actor', '=', actor)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .where('last_seen_at', '>', new Date(clockMs() - policy.sessionIdleMinutes * 60_000).toISOString())
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
