/**
 * Refunds: the order's fulfilment is undone (its capacity block removed or its renewal taken
 * back, points it credited taken back) and the money returned, to the points balance or to
 * the card, all or nothing. Capacity already handed out to mailboxes is never taken away:
 * the operator is told how much quota to lower first.
 */
import type { Services } from '../core/services.js';
import { AppError } from '../core/errors.js';
import { now } from '../core/time.js';
import { capacityOf, lockCustomer } from '../storage/capacity.js';
import type { Db } from '../db/index.js';
import { findOrder, type Order } from './orders.js';
import { changePoints } from './points.js';
import { refundCardPayment, stripeOf } from './stripe.js';
import { transition, type Who } from './transitions.js';
import { formatBytes } from '../../resources/bytes.js';

export type RefundTo = 'points' | 'original';

const activeAt = (expiresAt: string | null, at: string) => expiresAt === null || expiresAt > at;

/** Takes back the capacity a storage order gave, if its mailboxes leave room for that. */
async function takeBackStorage(trx: Db, order: Order) {
  if (order.storage_id === null) return;
  const block = await trx.selectFrom('storage').select(['id', 'size', 'expires_at']).where('id', '=', order.storage_id).executeTakeFirst();
  if (!block) return;
  const at = now();
  const extended = order.renew_storage_id !== null && Number(order.renew_storage_id) === Number(order.storage_id);
  const restoredExpiry = extended ? order.storage_previous_expires_at : null;
  const lost = (activeAt(block.expires_at, at) ? Number(block.size) : 0) - (extended && activeAt(restoredExpiry, at) ? Number(block.size) : 0);
  const summary = await capacityOf(trx, Number(order.owner_id));
  const capacity = summary.capacity - lost;
  if (lost > 0 && summary.allocated > capacity) {
    throw new AppError('conflict', 'shop.refund_capacity_in_use', {
      allocated: summary.allocated,
      capacity,
      lower_by: summary.allocated - capacity,
      allocated_text: formatBytes(summary.allocated),
      capacity_text: formatBytes(capacity),
      lower_by_text: formatBytes(summary.allocated - capacity),
    });
  }
  if (extended) await trx.updateTable('storage').set({ expires_at: restoredExpiry, next_notice_at: restoredExpiry && at, updated_at: at }).where('id', '=', block.id).execute();
  else await trx.deleteFrom('storage').where('id', '=', block.id).execute();
}

export async function refundOrder(services: Services, orderId: number, to: RefundTo, who: Who, reason: string): Promise<Order> {
  const { db, dialect } = services;
  return db.transaction().execute(async (trx) => {
    const order = await findOrder(trx, orderId);
    if (order.status !== 'paid' && order.status !== 'fulfilled') throw new AppError('conflict', 'shop.order_not_refundable', { status: order.status });
    const customerId = Number(order.owner_id);
    await lockCustomer(trx, dialect, customerId);
    const actor = { type: who.type, id: who.id };
    if (order.status === 'fulfilled') {
      if (order.product_kind === 'storage') await takeBackStorage(trx, order);
      else {
        await changePoints(trx, dialect, { userId: customerId, delta: -Number(order.points_granted), source: `order:${orderId}`, reason: 'deduction', note: 'refund of top-up', orderId, actor }).catch(pointsSpent);
      }
      if (Number(order.bonus_points) > 0) {
        await changePoints(trx, dialect, { userId: customerId, delta: -Number(order.bonus_points), source: `order:${orderId}:bonus`, reason: 'deduction', note: 'refund of bonus', orderId, actor }).catch(pointsSpent);
      }
    }
    const amount = Number(order.amount);
    if (amount > 0) {
      if (order.payment_method === 'points' || to === 'points') {
        await changePoints(trx, dialect, { userId: customerId, delta: amount, source: `order:${orderId}`, reason: 'refund', note: reason, orderId, actor });
      } else {
        const payment = await trx.selectFrom('payment').select(['id', 'payment_intent']).where('order_id', '=', orderId).where('status', '=', 'paid').orderBy('id').executeTakeFirst();
        const stripe = stripeOf(services.config);
        if (!payment?.payment_intent || !stripe) throw new AppError('conflict', 'shop.card_refund_unavailable');
        // Inside the transaction: if recording it fails, the same key makes the retry the same refund.
        await refundCardPayment(stripe, payment.payment_intent, `order-${orderId}`);
        await trx.updateTable('payment').set({ status: 'refunded', updated_at: now() }).where('id', '=', payment.id).execute();
      }
    }
    const refunded = await transition(trx, orderId, [order.status], 'refunded', who, reason || `refunded to ${order.payment_method === 'points' || to === 'points' ? 'points' : 'card'}`, { closed_at: now() });
    if (!refunded) throw new AppError('conflict', 'shop.order_not_refundable', { status: order.status });
    return findOrder(trx, orderId);
  });
}

function pointsSpent(error: unknown): never {
  if (error instanceof AppError && error.message === 'shop.points_insufficient') {
    throw new AppError('conflict', 'shop.refund_points_spent', error.params);
  }
  throw error;
}
