/** A team member's domains (domain_ids): only the customer's own, kept in team_member_domain. */
import { fieldError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import type { Db } from '../db/index.js';

/** Of the given domain ids, those the customer owns (each once). */
export async function ownDomainIds(db: Db, customerId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const owned = await db.selectFrom('domain').select('id').where('owner_id', '=', customerId).where('id', 'in', [...new Set(ids)]).execute();
  return owned.map((d) => Number(d.id));
}

/** Refuses domain ids that are not all the customer's own. */
export async function checkOwnDomains(db: Db, customerId: number, ids: number[] | undefined): Promise<void> {
  if (!ids || ids.length === 0) return;
  if ((await ownDomainIds(db, customerId, ids)).length !== new Set(ids).size) throw fieldError('domain_ids', 'validation.unknown_domain');
}

/** Gives the member exactly these domains. */
export async function setTeamDomains(db: Db, memberId: number, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)];
  await db.deleteFrom('team_member_domain').where('member_id', '=', memberId).execute();
  if (unique.length) await db.insertInto('team_member_domain').values(unique.map((domain_id) => ({ member_id: memberId, domain_id }))).execute();
}

export const teamDomainsBehaviour: Required<Pick<ResourceBehaviour, 'check' | 'after'>> = {
  async check(change, ctx) {
    const ids = change.op === 'delete' ? undefined : (change.after?.domain_ids as number[] | undefined);
    if (ctx.actor.kind !== 'customer') return;
    await checkOwnDomains(ctx.trx, ctx.actor.customerId, ids);
  },
  async after(change, ctx) {
    // The given list replaces the member's domains; absent means unchanged.
    if (change.op === 'delete' || !Array.isArray(change.requested?.domain_ids)) return;
    await setTeamDomains(ctx.trx, change.after!.id as number, change.requested.domain_ids as number[]);
  },
};
