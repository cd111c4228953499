/** Promotions: a window that ends after it starts, at most 100 % off, existing products (kept in activity_product). */
import { fieldError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';

export const promotionBehaviour: ResourceBehaviour = {
  async check(change, ctx) {
    const a = change.after!;
    if (String(a.ends_at) <= String(a.starts_at)) throw fieldError('ends_at', 'shop.window_ends_before_start');
    if (a.kind === 'percent' && Number(a.value) > 100) throw fieldError('value', 'validation.too_big', { max: 100 });
    const ids = a.product_ids;
    if (Array.isArray(ids)) {
      const found = await ctx.trx.selectFrom('product').select('id').where('id', 'in', ids as number[]).execute();
      if (found.length !== new Set(ids as number[]).size) throw fieldError('product_ids', 'shop.unknown_product');
    }
  },
  async after(change, ctx) {
    // The given list replaces the promotion's products; absent means unchanged.
    if (change.op === 'delete' || !Array.isArray(change.requested?.product_ids)) return;
    const activityId = change.after!.id as number;
    const ids = [...new Set(change.requested.product_ids as number[])];
    await ctx.trx.deleteFrom('activity_product').where('activity_id', '=', activityId).execute();
    await ctx.trx.insertInto('activity_product').values(ids.map((product_id) => ({ activity_id: activityId, product_id }))).execute();
  },
};
