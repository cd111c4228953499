/**
 * Renewing a block: the same block is extended by a storage product of its size, at today's
 * price and promotions (the shop's pricing), by an ordinary order with renew_storage_id whose
 * fulfilment extends it (server/shop/fulfil.ts grantStorage).
 */
import type { Selectable } from 'kysely';
import type { ProductRow } from '../db/schema.js';
import { now } from '../core/time.js';
import type { Services } from '../core/services.js';
import { addMonths } from './fulfil.js';
import { offersFor } from './pricing.js';

/** How the customer's block `blockId` (found visible to them) can be renewed today. */
export async function renewalOptions(services: Pick<Services, 'db' | 'config'>, blockId: number, customerId: number) {
  const { db, config } = services;
  const at = now();
  const block = await db.selectFrom('storage').select(['id', 'order_id', 'size', 'expires_at']).where('id', '=', blockId).where('owner_id', '=', customerId).executeTakeFirstOrThrow();
  const bought = block.order_id === null ? undefined : await db.selectFrom('shop_order').select('product_id').where('id', '=', block.order_id).executeTakeFirst();
  const products = await db
    .selectFrom('product')
    .selectAll()
    .where('visible', '=', 1)
    .where('kind', '=', 'storage')
    .where('storage_size', '=', block.size)
    .where('period_months', 'is not', null)
    .orderBy('sort_order')
    .orderBy('id')
    .limit(20)
    .execute();
  // The product the block was bought as comes first: renewing means buying it again.
  products.sort((a, b) => Number(b.id === bought?.product_id) - Number(a.id === bought?.product_id));
  const offers = await offersFor(db, products as Selectable<ProductRow>[], { customerId, at });
  // A lapsed block restarts from now, as fulfilment does; a block that never expires needs no renewal.
  const from = block.expires_at && block.expires_at > at ? block.expires_at : at;
  return {
    storage_id: block.id,
    expires_at: block.expires_at,
    renewable: block.expires_at !== null && products.length > 0,
    currency: config.shopCurrency,
    card_available: Boolean(config.stripe),
    options:
      block.expires_at === null
        ? []
        : products.map((p) => ({
            product_id: p.id,
            name_zh: p.name_zh,
            name_en: p.name_en,
            period_months: p.period_months,
            offer: offers.get(Number(p.id))!,
            expires_at_after: addMonths(from, Number(p.period_months)),
          })),
  };
}
