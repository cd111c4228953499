/**
 * What a product costs a customer today: the best promotion that applies (its window, its
 * products, its limits, first order only, a typed code), as visitors, customers and orders
 * see it. The one place prices are computed.
 */
import type { Offer } from '../../resources/shop.js';
import type { Db } from '../db/index.js';
import type { ActivityRow, ProductRow } from '../db/schema.js';
import { fieldError } from '../core/errors.js';
import type { Selectable } from 'kysely';

type Product = Pick<Selectable<ProductRow>, 'id' | 'price'>;
type Activity = Selectable<ActivityRow>;

/** The discount and bonus one promotion gives on a price. */
export function applyPromotion(price: number, activity: Pick<Activity, 'kind' | 'value'>): { discount: number; bonus_points: number } {
  switch (activity.kind) {
    case 'percent':
      return { discount: Math.floor((price * Math.min(activity.value, 100)) / 100), bonus_points: 0 };
    case 'amount':
      return { discount: Math.min(activity.value, price), bonus_points: 0 };
    case 'bonus_points':
      return { discount: 0, bonus_points: activity.value };
  }
}

/** Promotions running now for these products (automatic ones, plus the one with `code`). */
async function runningFor(db: Db, productIds: number[], at: string, code?: string | null) {
  if (productIds.length === 0) return [];
  return db
    .selectFrom('activity')
    .innerJoin('activity_product', 'activity_product.activity_id', 'activity.id')
    .selectAll('activity')
    .select('activity_product.product_id')
    .where('activity_product.product_id', 'in', productIds)
    .where('activity.starts_at', '<=', at)
    .where('activity.ends_at', '>', at)
    .where('activity.ended_early_at', 'is', null)
    .where((eb) => eb.or([eb('activity.total_limit', '=', 0), eb('activity.used_count', '<', eb.ref('activity.total_limit'))]))
    .where((eb) => (code ? eb.or([eb('activity.code', 'is', null), eb('activity.code', '=', code)]) : eb('activity.code', 'is', null)))
    .execute();
}

/** Whether a customer may still use a promotion (per-customer limit, first order only). */
async function customerMayUse(db: Db, activity: Activity, customerId: number | undefined): Promise<boolean> {
  if (customerId === undefined) return true;
  if (activity.per_customer_limit > 0) {
    const used = await db
      .selectFrom('activity_use')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('activity_id', '=', activity.id)
      .where('owner_id', '=', customerId)
      .where('released_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(used.n) >= activity.per_customer_limit) return false;
  }
  if (activity.first_order_only) {
    const earlier = await db
      .selectFrom('shop_order')
      .select('id')
      .where('owner_id', '=', customerId)
      .where('status', 'in', ['pending_payment', 'paid', 'fulfilled', 'refunded'])
      .executeTakeFirst();
    if (earlier) return false;
  }
  return true;
}

const better = (a: Offer, b: Offer) => (a.discount !== b.discount ? a.discount > b.discount : a.bonus_points > b.bonus_points);

/** Today's offer for each product; a code nobody can use here is refused (field `code`). */
export async function offersFor(
  db: Db,
  products: Product[],
  options: { customerId?: number; code?: string | null; at: string },
): Promise<Map<number, Offer>> {
  const offers = new Map<number, Offer>(
    products.map((p) => [p.id, { price: Number(p.price), discount: 0, amount: Number(p.price), bonus_points: 0, activity_id: null }]),
  );
  const code = options.code ? options.code.trim().toUpperCase() : null;
  let codeUsable = false;
  for (const row of await runningFor(db, products.map((p) => p.id), options.at, code)) {
    const activity = { ...row, value: Number(row.value) } as Activity & { product_id: number };
    if (!(await customerMayUse(db, activity, options.customerId))) continue;
    if (code && activity.code === code) codeUsable = true;
    const current = offers.get(Number(activity.product_id))!;
    const { discount, bonus_points } = applyPromotion(current.price, activity);
    const candidate: Offer = { price: current.price, discount, amount: current.price - discount, bonus_points, activity_id: Number(activity.id) };
    if (better(candidate, current)) offers.set(Number(activity.product_id), candidate);
  }
  if (code && !codeUsable) throw fieldError('code', 'shop.unknown_code');
  return offers;
}
