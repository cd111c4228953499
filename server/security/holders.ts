/**
 * Whose second factor: a customer login (customer or team member), an operator, or a mailbox
 * owner. Each kind signs in to its own area, and its second factors work only there.
 */
import type { Actor } from '../core/actor.js';
import type { AuditEntry } from '../core/audit.js';
import { forbidden } from '../core/errors.js';
import type { Db } from '../db/index.js';
import type { HolderKind } from '../db/schema.js';

export type { HolderKind };

export interface Holder {
  kind: HolderKind;
  id: number;
}

/** The area path each kind signs in to (/api/<area>). */
export const areaOf = { customer: 'admin', operator: 'manage', mailbox: 'mail' } as const satisfies Record<HolderKind, string>;
export type AreaPath = (typeof areaOf)[HolderKind];

export function holderOf(actor: Actor): Holder {
  switch (actor.kind) {
    case 'customer':
      return { kind: 'customer', id: actor.accountId };
    case 'operator':
      return { kind: 'operator', id: actor.id };
    case 'mailbox':
      return { kind: 'mailbox', id: actor.mailboxId };
    default:
      throw forbidden();
  }
}

/**
 * How the activity log and an authenticator app name the person: the record the entry is about
 * (their login, operator account or mailbox), the customer whose log shows it, and the name.
 */
export interface HolderRecord {
  targetType: 'user' | 'operator' | 'email';
  name: string;
  /** The customer the entry concerns (null for operators). */
  userId: number | null;
}

export async function holderRecord(db: Db, holder: Holder): Promise<HolderRecord | undefined> {
  switch (holder.kind) {
    case 'customer': {
      const row = await db.selectFrom('user').select(['email', 'owner_id']).where('id', '=', holder.id).executeTakeFirst();
      return row && { targetType: 'user', name: row.email, userId: row.owner_id ?? holder.id };
    }
    case 'operator': {
      const row = await db.selectFrom('admin').select('username').where('id', '=', holder.id).executeTakeFirst();
      return row && { targetType: 'operator', name: row.username, userId: null };
    }
    case 'mailbox': {
      const row = await db.selectFrom('mailbox').select(['address', 'owner_id']).where('id', '=', holder.id).executeTakeFirst();
      return row && { targetType: 'email', name: row.address, userId: Number(row.owner_id) };
    }
  }
}

const nameField = { user: 'email', operator: 'username', email: 'address' } as const;

/** An activity-log entry about a holder's second factors: the sentence names their account. */
export function holderEntry(holder: Holder, record: HolderRecord, action: string, details: Record<string, unknown> = {}): AuditEntry {
  return {
    action,
    targetType: record.targetType,
    targetId: holder.id,
    userId: record.userId,
    after: { [nameField[record.targetType]]: record.name, ...details },
  };
}
