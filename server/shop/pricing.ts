/**
 * What a product costs a customer today: the best promotion that applies (its window, its
 * products, its limits, first order only, a typed code), as visitors, customers and orders
 * see it. The one place prices are computed.
 */
import type { Offer } from '../../resources/shop.js';
import type { Db } from '../db/index.js';
import type { ActivityRow, ProductRow } from '../db/schema.js';
import { fieldError } from '../core/errors.js';
import { timeText } from '../core/time.js';
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

/** Why a customer may not use a promotion any more (per-customer limit, first order only), or null when they may. */
async function customerRefusal(db: Db, activity: Activity, customerId: number | undefined): Promise<CodeRefusal | null> {
  if (customerId === undefined) return null;
  if (activity.per_customer_limit > 0) {
    const used = await db
      .selectFrom('activity_use')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('activity_id', '=', activity.id)
      .where('owner_id', '=', customerId)
      .where('released_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(used.n) >= activity.per_customer_limit) return { key: 'shop.code_used_up_by_you', params: { limit: activity.per_customer_limit, smart_count: activity.per_customer_limit } };
  }
  if (activity.first_order_only) {
    const earlier = await db
      .selectFrom('shop_order')
      .select('id')
      .where('owner_id', '=', customerId)
      .where('status', 'in', ['pending_payment', 'paid', 'fulfilled', 'refunded'])
      .executeTakeFirst();
    if (earlier) return { key: 'shop.code_first_order_only' };
  }
  return null;
}

interface CodeRefusal {
  key: string;
  params?: Record<string, unknown>;
}

/**
 * Why a typed code gives nothing here, as the customer can act on it: no such code, not for
 * these products, not started yet, over, used up (by everyone, or by this customer as often as
 * allowed), or for a first order only.
 */
async function codeRefusal(db: Db, code: string, productIds: number[], at: string, customerId: number | undefined): Promise<CodeRefusal> {
  const activity = await db.selectFrom('activity').selectAll().where('code', '=', code).executeTakeFirst();
  if (!activity) return { key: 'shop.unknown_code' };
  const forThese = productIds.length > 0 && (await db.selectFrom('activity_product').select('product_id').where('activity_id', '=', activity.id).where('product_id', 'in', productIds).executeTakeFirst());
  if (!forThese) return { key: 'shop.code_not_for_product' };
  if (activity.ended_early_at !== null || activity.ends_at <= at) return { key: 'shop.code_ended', params: { ended: activity.ended_early_at ?? activity.ends_at, ended_text: timeText(activity.ended_early_at ?? activity.ends_at) } };
  if (activity.starts_at > at) return { key: 'shop.code_not_started', params: { starts: activity.starts_at, starts_text: timeText(activity.starts_at) } };
  if (activity.total_limit > 0 && activity.used_count >= activity.total_limit) return { key: 'shop.code_used_up' };
  return (await customerRefusal(db, { ...activity, value: Number(activity.value) }, customerId)) ?? { key: 'shop.unknown_code' };
}

const better = (a: Offer, b: Offer) => (a.discount !== b.discount ? a.discount > b.discount : a.bonus_points > b.bonus_points);

/** Today's offer for each product; a code that gives nothing here is refused, saying why (field `code`). */
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
    if (await customerRefusal(db, activity, options.customerId)) continue;
    if (code && activity.code === code) codeUsable = true;
    const current = offers.get(Number(activity.product_id))!;
    const { discount, bonus_points } = applyPromotion(current.price, activity);
    const candidate: Offer = { price: current.price, discount, amount: current.price - discount, bonus_points, activity_id: Number(activity.id) };
    if (better(candidate, current)) offers.set(Number(activity.product_id), candidate);
  }
  if (code && !codeUsable) {
    const { key, params } = await codeRefusal(db, code, products.map((p) => Number(p.id)), options.at, options.customerId);
    throw fieldError('code', key, params);
  }
  return offers;
}
