/**
 * What follows a payment outside the order's own row, as durable jobs: fulfilment of a card
 * payment (enqueued in the transaction that records the payment, one per order), giving back
 * a payment the order could no longer take, and the expiry schedule.
 */
import type { Services } from '../core/services.js';
import type { Db } from '../db/index.js';
import { defineJob, defineSchedule } from '../core/jobs.js';
import { now } from '../core/time.js';
import { expireOverdueOrders } from './expiry.js';
import { fulfilOrder } from './fulfil.js';
import { findOrder } from './orders.js';
import { refundCardPayment, stripeOf } from './stripe.js';
import { recordHistory } from './transitions.js';

/** Fulfils a paid order; the paid-order mail is queued in the same transaction. Idempotent. */
export const orderFulfilJob = defineJob<{ orderId: number }>({
  name: 'order.fulfil',
  async handler({ orderId }, { services }) {
    await services.db.transaction().execute((trx) => fulfilOrder(trx, services, orderId));
  },
});

/** Gives back a card payment for an order that could no longer take it. Idempotent (Stripe idempotency key, guarded status). */
export const paymentGiveBackJob = defineJob<{ paymentId: number }>({
  name: 'payment.give_back',
  async handler({ paymentId }, { services }) {
    const payment = await services.db.selectFrom('payment').select(['status', 'payment_intent', 'order_id']).where('id', '=', paymentId).executeTakeFirst();
    if (!payment || payment.status !== 'refund_due' || !payment.payment_intent) return;
    const stripe = stripeOf(services.config);
    if (!stripe) throw new Error('a card payment must be given back but no Stripe key is configured');
    await refundCardPayment(stripe, payment.payment_intent, `payment-${paymentId}`);
    await services.db.transaction().execute(async (trx) => {
      const marked = await trx.updateTable('payment').set({ status: 'refunded', updated_at: now() }).where('id', '=', paymentId).where('status', '=', 'refund_due').executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) return;
      const order = await findOrder(trx, Number(payment.order_id));
      await recordHistory(trx, Number(order.id), order.status, order.status, { type: 'system', id: null, name: '' }, 'late card payment refunded');
    });
  },
});

/** Unpaid orders past ORDER_PAYMENT_MINUTES expire, once a minute across instances. */
export const orderExpirySchedule = defineSchedule({
  name: 'order.expire',
  cron: '* * * * *',
  handler: async ({ services }) => {
    await expireOverdueOrders(services);
  },
});

/** Has a card-paid order fulfilled by the job queue, bound to the transaction that recorded the payment. */
export async function fulfilLater(trx: Db, services: Pick<Services, 'jobs'>, orderId: number): Promise<void> {
  await services.jobs.enqueue(trx, orderFulfilJob, { orderId }, { uniqueKey: `order-${orderId}` });
}

export async function giveBackLater(trx: Db, services: Pick<Services, 'jobs'>, paymentId: number): Promise<void> {
  await services.jobs.enqueue(trx, paymentGiveBackJob, { paymentId }, { uniqueKey: `payment-${paymentId}` });
}
