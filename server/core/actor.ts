/** Who is calling. Customer calls carry the customer (tenant) id, also for team members. */
import type { Selectable } from 'kysely';
import type { OperatorRole } from '../../resources/define.js';
import type { UserRow } from '../db/schema.js';

/** A customer login's own columns, read with its session on every request; me/info answers with them. */
export const accountColumns = ['id', 'owner_id', 'email', 'username', 'is_verified', 'status', 'points', 'storage_max', 'locale', 'last_login_at', 'created_at'] as const;
export type AccountInfo = Pick<Selectable<UserRow>, (typeof accountColumns)[number]>;

/** The API key a script calls with (server/api-keys/): it acts with its creator's rights, within its own. */
export interface ApiKeyOfCall {
  id: number;
  name: string;
  access: 'read' | 'write';
}

export type Actor =
  | { kind: 'anonymous' }
  | {
      kind: 'customer';
      sessionId: number;
      accountId: number;
      /** The customer account the data belongs to: the account itself, or a team member's owner. */
      customerId: number;
      isOwner: boolean;
      email: string;
      isVerified: boolean;
      /** A team member's domains (the only ones they may see and manage); absent for the customer account. */
      domainIds?: number[];
      /** The login as its session read it: what me/info answers with, at no second query. */
      account?: AccountInfo;
      /** Set when the call came with an API key instead of a session (sessionId is then 0). */
      apiKey?: ApiKeyOfCall;
    }
  | { kind: 'operator'; sessionId: number; id: number; username: string; role: OperatorRole; apiKey?: ApiKeyOfCall }
  | {
      /** A mailbox owner, signed in to /api/mail with the mailbox's address and password. */
      kind: 'mailbox';
      sessionId: number;
      mailboxId: number;
      /** The customer the mailbox belongs to. */
      customerId: number;
      domainId: number;
      address: string;
    };

export type CustomerActor = Extract<Actor, { kind: 'customer' }>;
export type OperatorActor = Extract<Actor, { kind: 'operator' }>;
export type MailboxActor = Extract<Actor, { kind: 'mailbox' }>;

export const anonymous: Actor = { kind: 'anonymous' };

/** The app itself, doing work nobody asked for just now (a job, a schedule); never a caller of the API. */
export type SystemActor = { kind: 'system'; work: string };

/** How the audit log names the actor, and the API key it called with. */
export function actorForLog(actor: Actor | SystemActor) {
  const key = 'apiKey' in actor && actor.apiKey ? { api_key_id: actor.apiKey.id, api_key_name: actor.apiKey.name } : {};
  return { ...actorOnly(actor), ...key };
}

function actorOnly(actor: Actor | SystemActor): { actor_type: string; actor_id: number | null; actor_name: string } {
  switch (actor.kind) {
    case 'system':
      return { actor_type: 'system', actor_id: null, actor_name: actor.work };
    case 'customer':
      return { actor_type: actor.isOwner ? 'customer' : 'team_member', actor_id: actor.accountId, actor_name: actor.email };
    case 'operator':
      return { actor_type: 'operator', actor_id: actor.id, actor_name: actor.username };
    case 'mailbox':
      return { actor_type: 'mailbox', actor_id: actor.mailboxId, actor_name: actor.address };
    default:
      return { actor_type: 'anonymous', actor_id: null, actor_name: '' };
  }
}
