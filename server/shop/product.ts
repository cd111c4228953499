/**
 * Products: a storage product has a size (and maybe a period), a points product the points it
 * grants; never both. A price is one a card can pay. A product orders refer to is not deleted
 * (it is taken off sale instead).
 */
import { AppError, fieldError } from '../core/errors.js';
import type { Change, ResourceBehaviour, WriteContext } from '../core/resource-calls.js';
import { formatMoney } from './order-mail.js';
import { largestCardCharge } from './stripe.js';

async function refuseDeleteWithOrders(change: Change, ctx: WriteContext) {
  const product = change.before!;
  const { orders } = await ctx.trx
    .selectFrom('shop_order')
    .select((eb) => eb.fn.countAll<number | string>().as('orders'))
    .where('product_id', '=', Number(product.id))
    .executeTakeFirstOrThrow();
  if (Number(orders) > 0) {
    throw new AppError('conflict', 'shop.product_has_orders', { orders: Number(orders), smart_count: Number(orders), name_en: product.name_en, name_zh: product.name_zh, visible: product.visible });
  }
}

export const productBehaviour: ResourceBehaviour = {
  async check(change, ctx) {
    if (change.op === 'delete') return refuseDeleteWithOrders(change, ctx);
    const p = change.after!;
    if (p.kind === 'storage') {
      if (p.storage_size == null) throw fieldError('storage_size', 'validation.required');
      if (p.points_granted != null) throw fieldError('points_granted', 'shop.not_for_storage');
    } else {
      if (p.points_granted == null) throw fieldError('points_granted', 'validation.required');
      if (p.storage_size != null) throw fieldError('storage_size', 'shop.not_for_points');
      if (p.period_months != null) throw fieldError('period_months', 'shop.not_for_points');
    }
    // Whether or not a card provider is set up now: STRIPE_SECRET_KEY may come with the next
    // restart, and then a product priced above the card limit would fail only at checkout
    // (points top-ups are paid by card only). A price that is not changed is left alone, so
    // that an older product can still be hidden or renamed.
    const { shopCurrency } = ctx.services.config;
    const max = largestCardCharge(shopCurrency);
    if ((change.op === 'create' || p.price !== change.before?.price) && Number(p.price) > max) {
      throw fieldError('price', 'shop.price_above_card_limit', { max, max_text: formatMoney(max, shopCurrency, ctx.locale), currency: shopCurrency });
    }
  },
};
