/**
 * The life of an order, as the business tells it: made at today's price (promotion use
 * counted in the same transaction), paid from points at once or by card later, cancelled
 * or expired while unpaid (promotion use released), fulfilled once, refunded.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { OrderRow, PaymentMethod } from '../db/schema.js';
import { AppError, fieldError, notFound } from '../core/errors.js';
import { freshNumber } from '../core/readable-number.js';
import { inMinutes, now } from '../core/time.js';
import { lockCustomer } from '../storage/capacity.js';
import { fulfilOrder, type ShopServices } from './fulfil.js';
import { changePoints } from './points.js';
import { offersFor } from './pricing.js';
import { recordHistory, transition, type Who } from './transitions.js';

export type Order = Selectable<OrderRow>;

export interface NewOrder {
  customerId: number;
  placedBy: number;
  productId: number;
  code?: string | null;
  renewStorageId?: number | null;
  /** points: pay now; card: pay by card next (refused when no card provider is set up); later: decide later. */
  payWith: 'points' | 'card' | 'later';
}

/** Makes an order at today's price; paid at once when paid with points. */
export async function createOrder(trx: Db, services: ShopServices, request: NewOrder, who: Who): Promise<Order> {
  const { dialect, config } = services;
  const product = await trx.selectFrom('product').selectAll().where('id', '=', request.productId).where('visible', '=', 1).executeTakeFirst();
  if (!product) throw fieldError('product_id', 'shop.unknown_product');
  if (request.payWith === 'points' && product.kind === 'points') throw fieldError('pay_with', 'shop.points_by_card_only');
  if (request.payWith === 'card' && !config.stripe) throw new AppError('conflict', 'shop.card_unavailable');
  if (request.renewStorageId) {
    const block = await trx
      .selectFrom('storage')
      .select(['id', 'size', 'expires_at'])
      .where('id', '=', request.renewStorageId)
      .where('owner_id', '=', request.customerId)
      .executeTakeFirst();
    // A block that never expires has nothing to renew: the order would be paid for nothing.
    if (product.kind !== 'storage' || !block || block.expires_at === null || Number(block.size) !== Number(product.storage_size)) {
      throw fieldError('renew_storage_id', 'shop.not_renewable');
    }
  }
  // One customer's orders one at a time: per-customer limits and "first order" hold under concurrency.
  await lockCustomer(trx, dialect, request.customerId);
  const at = now();
  const offer = (await offersFor(trx, [product], { customerId: request.customerId, code: request.code, at })).get(Number(product.id))!;
  const { id } = await trx
    .insertInto('shop_order')
    .values({
      number: await freshNumber(trx, 'shop_order'),
      owner_id: request.customerId,
      placed_by: request.placedBy,
      product_id: product.id,
      product_kind: product.kind,
      product_name_zh: product.name_zh,
      product_name_en: product.name_en,
      storage_size: product.storage_size,
      period_months: product.period_months,
      points_granted: product.points_granted,
      currency: config.shopCurrency,
      price: offer.price,
      discount: offer.discount,
      amount: offer.amount,
      bonus_points: offer.bonus_points,
      activity_id: offer.activity_id,
      renew_storage_id: request.renewStorageId ?? null,
      payment_method: null,
      status: 'pending_payment',
      pay_before: inMinutes(config.orderPaymentMinutes),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const orderId = Number(id);
  await recordHistory(trx, orderId, null, 'pending_payment', who, 'created');
  if (offer.activity_id !== null) await useActivity(trx, offer.activity_id, orderId, request.customerId, at);
  if (request.payWith === 'points' || offer.amount === 0) await payWithPoints(trx, services, orderId, who);
  return findOrder(trx, orderId);
}

/** Counts one use of a promotion; refuses when its last use went to someone else meanwhile. */
async function useActivity(trx: Db, activityId: number, orderId: number, customerId: number, at: string) {
  const counted = await trx
    .updateTable('activity')
    .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
    .where('id', '=', activityId)
    .where('ended_early_at', 'is', null)
    .where('ends_at', '>', at)
    .where((eb) => eb.or([eb('total_limit', '=', 0), eb('used_count', '<', eb.ref('total_limit'))]))
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1) throw new AppError('conflict', 'shop.promotion_used_up');
  await trx.insertInto('activity_use').values({ activity_id: activityId, order_id: orderId, owner_id: customerId, created_at: at }).execute();
}

/** Gives a promotion's use back (cancel, expiry): counted once per order. */
async function releaseActivity(trx: Db, orderId: number) {
  const use = await trx.selectFrom('activity_use').select(['id', 'activity_id']).where('order_id', '=', orderId).where('released_at', 'is', null).executeTakeFirst();
  if (!use) return;
  const released = await trx.updateTable('activity_use').set({ released_at: now() }).where('id', '=', use.id).where('released_at', 'is', null).executeTakeFirst();
  if (Number(released.numUpdatedRows) === 1) {
    await trx.updateTable('activity').set((eb) => ({ used_count: eb('used_count', '-', 1) })).where('id', '=', use.activity_id).execute();
  }
}

export async function findOrder(db: Db, id: number): Promise<Order> {
  const order = await db.selectFrom('shop_order').selectAll().where('id', '=', id).executeTakeFirst();
  if (!order) throw notFound();
  return order as Order;
}

/** Pays a pending order from the points balance and fulfils it, all in the caller's transaction. */
export async function payWithPoints(trx: Db, services: ShopServices, orderId: number, who: Who): Promise<void> {
  const { dialect } = services;
  const order = await findOrder(trx, orderId);
  if (order.status !== 'pending_payment') throw new AppError('conflict', 'shop.order_not_pending', { status: order.status });
  if (order.pay_before <= now()) throw new AppError('conflict', 'shop.order_overdue');
  if (order.product_kind === 'points' && Number(order.amount) > 0) throw fieldError('pay_with', 'shop.points_by_card_only');
  if (Number(order.amount) > 0) {
    await changePoints(trx, dialect, {
      userId: Number(order.owner_id),
      delta: -Number(order.amount),
      source: `order:${orderId}`,
      reason: 'order_payment',
      orderId,
      actor: { type: who.type, id: who.id },
    });
  }
  const paid = await transition(trx, orderId, ['pending_payment'], 'paid', who, 'paid with points', { payment_method: 'points', paid_at: now() });
  if (!paid) throw new AppError('conflict', 'shop.order_not_pending', { status: order.status });
  await fulfilOrder(trx, services, orderId);
}

/** Cancels an unpaid order (customer or operator). */
export async function cancelOrder(trx: Db, orderId: number, who: Who, reason: string): Promise<void> {
  const order = await findOrder(trx, orderId);
  if (!(await transition(trx, orderId, ['pending_payment'], 'cancelled', who, reason || 'cancelled', { closed_at: now() }))) {
    throw new AppError('conflict', 'shop.order_not_pending', { status: order.status });
  }
  await releaseActivity(trx, orderId);
}

/** Expires one unpaid order past its time; false when it was paid or closed meanwhile. */
export async function expireOrder(trx: Db, orderId: number): Promise<boolean> {
  const at = now();
  const order = await trx.selectFrom('shop_order').select(['pay_before']).where('id', '=', orderId).executeTakeFirst();
  if (!order || order.pay_before > at) return false;
  if (!(await transition(trx, orderId, ['pending_payment'], 'expired', { type: 'system', id: null, name: '' }, 'not paid in time', { closed_at: at }))) return false;
  await releaseActivity(trx, orderId);
  return true;
}

/** Unpaid orders past their time, oldest first (index on status, pay_before). */
export async function overdueOrders(db: Db, limit = 500): Promise<number[]> {
  const rows = await db
    .selectFrom('shop_order')
    .select('id')
    .where('status', '=', 'pending_payment')
    .where('pay_before', '<=', now())
    .orderBy('pay_before')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

/**
 * A card payment arrived for an order. The order moves to paid if it was still waiting for
 * it; the caller then has it fulfilled. Returns 'paid', or 'late' when the order is no longer
 * payable (expired, cancelled, or paid by another payment) and the money must go back.
 */
export async function recordCardPayment(trx: Db, orderId: number, method: PaymentMethod): Promise<'paid' | 'late'> {
  const paid = await transition(trx, orderId, ['pending_payment'], 'paid', { type: 'provider', id: null, name: method }, 'card payment received', {
    payment_method: method,
    paid_at: now(),
  });
  return paid ? 'paid' : 'late';
}
