/** Aliases: address (or catch-all @domain) at the customer's domain, normalised destinations. */
import { fieldError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { checkLimit, usableDomain } from './domain-of.js';
import { mailAddress } from './names.js';
import { refuseUnavailableAddress } from './mailbox.js';

/** Destinations as Postfix reads them: punycode addresses, comma-separated, each once. */
export function destinations(input: unknown): string {
  const items = (Array.isArray(input) ? input : String(input).split(/[\s,;]+/)).map((s) => String(s).trim()).filter(Boolean);
  if (items.length === 0) throw fieldError('goto', 'validation.required');
  if (items.length > 100) throw fieldError('goto', 'validation.too_many', { max: 100, smart_count: 100 });
  const addresses = items.map((item) => {
    const address = mailAddress(item);
    if (!address) throw fieldError('goto', 'validation.invalid_destination', { address: item });
    return address.ascii;
  });
  return [...new Set(addresses)].join(',');
}

export const aliasBehaviour: ResourceBehaviour = {
  async toRow(input, change, ctx) {
    const goto = input.goto !== undefined ? { goto: destinations(input.goto) } : {};
    if (change.op !== 'create') return goto;
    const domain = await usableDomain(ctx, input.domain_id);
    const local = String(input.local_part);
    return {
      ...goto,
      owner_id: domain.owner_id,
      address: `${local}@${domain.name}`,
      address_unicode: `${local}@${domain.name_unicode}`,
    };
  },
  async check(change, ctx) {
    if (change.op !== 'create') return;
    const row = change.after!;
    if (row.local_part !== '') {
      // Restoring the deleted mailbox of this address must stay possible.
      await refuseUnavailableAddress(ctx.trx, String(row.address), 'mailbox');
    }
    const domain = await ctx.trx.selectFrom('domain').selectAll().where('id', '=', Number(row.domain_id)).executeTakeFirstOrThrow();
    await checkLimit(ctx.trx, 'alias', domain.id, domain.max_aliases, 'error.alias_limit', domain.name_unicode);
  },
};
