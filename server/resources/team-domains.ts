/** A team member's domains (domain_ids): only the customer's own, kept in team_member_domain. */
import { fieldError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';

export const teamDomainsBehaviour: Required<Pick<ResourceBehaviour, 'check' | 'after'>> = {
  async check(change, ctx) {
    const ids = change.op === 'delete' ? undefined : (change.after?.domain_ids as number[] | undefined);
    if (!ids || ids.length === 0 || ctx.actor.kind !== 'customer') return;
    const owned = await ctx.trx.selectFrom('domain').select('id').where('owner_id', '=', ctx.actor.customerId).where('id', 'in', ids).execute();
    if (owned.length !== new Set(ids).size) throw fieldError('domain_ids', 'validation.unknown_domain');
  },
  async after(change, ctx) {
    // The given list replaces the member's domains; absent means unchanged.
    if (change.op === 'delete' || !Array.isArray(change.requested?.domain_ids)) return;
    const memberId = change.after!.id as number;
    const ids = [...new Set(change.requested.domain_ids as number[])];
    await ctx.trx.deleteFrom('team_member_domain').where('member_id', '=', memberId).execute();
    if (ids.length) await ctx.trx.insertInto('team_member_domain').values(ids.map((domain_id) => ({ member_id: memberId, domain_id }))).execute();
  },
};
