/**
 * Sessions: random opaque tokens, stored only as their SHA-256, with an idle and an absolute
 * expiry. Logout revokes one; a password change or a disabled account revokes the others.
 */
import crypto from 'node:crypto';
import type { Db } from '../db/index.js';
import type { SessionRow } from '../db/schema.js';
import { inMinutes, now } from './time.js';

export type SessionActor = SessionRow['actor'];

export interface SessionPolicy {
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

export async function createSession(
  db: Db,
  policy: SessionPolicy,
  actor: SessionActor,
  accountId: number,
  client: { ip: string; userAgent: string },
): Promise<string> {
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
  return token;
}

/** The live session a token names, or undefined. Refreshes its idle clock at most once a minute. */
export async function findLiveSession(db: Db, policy: SessionPolicy, actor: SessionActor, token: string) {
  if (!token) return undefined;
  const session = await db
    .selectFrom('session')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .where('actor', '=', actor)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!session) return undefined;
  const nowMs = Date.now();
  const idleLimit = Date.parse(session.last_seen_at) + policy.sessionIdleMinutes * 60_000;
  if (Date.parse(session.expires_at) <= nowMs || idleLimit <= nowMs) return undefined;
  if (nowMs - Date.parse(session.last_seen_at) > 60_000) {
    await db.updateTable('session').set({ last_seen_at: now() }).where('id', '=', session.id).execute();
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
