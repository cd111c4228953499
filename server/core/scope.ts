/**
 * The one rule of who sees what of a resource: its own condition (`where`), in the customer
 * area the caller's customer (`owner`), and for a team member only their domains' records
 * (`teamScope`) or the records they made (`authorScope`); in the mailbox owners' area the caller's
 * mailbox's records (`mailboxScope`); in the operators' area an operator's own (`operatorScope`). Lists, reads, writes and hand-written
 * calls all bound themselves with it.
 */
import type { Area, ResourceDeclaration } from '../../resources/define.js';
import type { Db } from '../db/index.js';
import type { Actor } from './actor.js';
import type { CallContext } from './calls.js';
import { notFound } from './errors.js';
import { resourceStore, type Row } from './resource-store.js';

/** The column values every record the caller may reach has (and a new record gets). */
export function scopeOf(resource: ResourceDeclaration, area: Area, actor: Actor): Record<string, string | number | null> {
  const scope = { ...resource.where };
  if (area === 'admin' && resource.owner && actor.kind === 'customer') scope[resource.owner] = actor.customerId;
  // A mailbox owner reaches their mailbox's records only; anyone else in that area, none.
  if (area === 'mail' && resource.mailboxScope) scope[resource.mailboxScope] = actor.kind === 'mailbox' ? actor.mailboxId : 0;
  if (area === 'manage' && resource.operatorScope) scope[resource.operatorScope] = actor.kind === 'operator' ? actor.id : 0;
  return scope;
}

/** A team member's extra bound: their domains' records, or their own. */
export function teamScopeOf(resource: ResourceDeclaration, area: Area, actor: Actor): Record<string, number[]> {
  if (area !== 'admin' || actor.kind !== 'customer' || actor.isOwner) return {};
  if (resource.teamScope) return { [resource.teamScope]: actor.domainIds ?? [] };
  if (resource.authorScope) return { [resource.authorScope]: [actor.accountId] };
  return {};
}

/** Everything that bounds the caller's view of a resource. */
export const visibleScope = (resource: ResourceDeclaration, area: Area, actor: Actor) => ({ ...scopeOf(resource, area, actor), ...teamScopeOf(resource, area, actor) });

/** The record with that id if the caller may see it, else not found. */
export async function findVisible(resource: ResourceDeclaration, area: Area, ctx: CallContext, id: number, db: Db = ctx.services.db): Promise<Row> {
  const row = await resourceStore(resource, area).find(db, visibleScope(resource, area, ctx.actor), id);
  if (!row) throw notFound();
  return row;
}
