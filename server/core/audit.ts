/** The audit trail. Every change through the API and every sign-in attempt is one row. */
import type { Db } from '../db/index.js';
import { namingFields } from '../../resources/audit_log.js';
import { actorForLog, type Actor, type SystemActor } from './actor.js';
import { now } from './time.js';

/** Whoever makes a request, and from where. */
export interface RequestOrigin {
  actor: Actor | SystemActor;
  ip: string;
  userAgent: string;
}

/** Work the app does by itself (jobs, schedules), logged as the system doing `work`. */
export const systemOrigin = (work: string): RequestOrigin => ({ actor: { kind: 'system', work }, ip: '', userAgent: '' });

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: number | null;
  /** The customer the change concerns (what the customer's own log shows). */
  userId?: number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

// Never written to the log, whatever a record or input contains.
const secretKeys = new Set(['password', 'password_hash', 'old_password', 'token', 'token_hash', 'code', 'code_hash']);

export function redact(record: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!record) return null;
  return redactValue(record) as Record<string, unknown>;
}

/** Also inside nested objects and lists: a secret is a secret at any depth. */
function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !secretKeys.has(key)).map(([key, v]) => [key, redactValue(v)]));
}

export async function audit(db: Db, origin: RequestOrigin, entry: AuditEntry): Promise<void> {
  const before = redact(entry.before);
  const after = redact(entry.after);
  await db
    .insertInto('log')
    .values({
      ...actorForLog(origin.actor),
      user_id: entry.userId ?? null,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId ?? null,
      before: before ? JSON.stringify(before) : null,
      after: after ? JSON.stringify(after) : null,
      ip: origin.ip,
      user_agent: origin.userAgent.slice(0, 500),
      created_at: now(),
    })
    .execute();
}

/**
 * The fields an update changed, before and after; with a change, also the field that names the
 * record, the same on both sides (the log's sentence names it; its table of changes leaves it out).
 */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const keys = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  const naming = namingFields.find((field) => typeof after[field] === 'string' && after[field] !== '');
  if (keys.length > 0 && naming && !keys.includes(naming)) keys.push(naming);
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key]])),
    after: Object.fromEntries(keys.map((key) => [key, after[key]])),
  };
}
