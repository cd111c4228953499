/** Alias domains: both domains the same customer's, no chains (Postfix resolves one step). */
import { fieldError, forbidden } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { usableDomain } from './domain-of.js';

export const aliasDomainBehaviour: ResourceBehaviour = {
  async toRow(input, change, ctx) {
    if (change.op !== 'create') return {};
    const aliasDomain = await usableDomain(ctx, input.alias_domain_id);
    return { owner_id: aliasDomain.owner_id };
  },
  async check(change, ctx) {
    if (change.op === 'delete') return;
    const row = change.after!;
    const target = await usableDomain(ctx, row.target_domain_id);
    if (target.owner_id !== Number(row.owner_id)) throw fieldError('target_domain_id', 'validation.other_owner');
    if (target.id === Number(row.alias_domain_id)) throw fieldError('target_domain_id', 'validation.same_domain');
    // A team member maps only between domains they manage.
    if (ctx.actor.kind === 'customer' && ctx.actor.domainIds && !ctx.actor.domainIds.includes(target.id)) throw forbidden();
    const chained = await ctx.trx
      .selectFrom('alias_domain')
      .select('id')
      .where('id', '!=', Number(row.id ?? 0))
      .where((eb) => eb.or([eb('alias_domain_id', '=', target.id), eb('target_domain_id', '=', Number(row.alias_domain_id))]))
      .executeTakeFirst();
    if (chained) throw fieldError('target_domain_id', 'validation.alias_domain_chain');
  },
};
