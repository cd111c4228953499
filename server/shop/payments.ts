/**
 * Card payments: a checkout session per attempt, and the provider's signed notices. A paid
 * notice moves the order to paid and has it fulfilled; repeated or concurrent notices find
 * the payment already recorded and change nothing; a payment for an order that can no
 * longer take it (expired, cancelled, paid otherwise) is given back.
 */
import type Stripe from 'stripe';
import type { Services } from '../core/services.js';
import type { Db } from '../db/index.js';
import { AppError } from '../core/errors.js';
import { now } from '../core/time.js';
import { recordCardPayment, findOrder } from './orders.js';
import { createCheckoutSession, stripeOf } from './stripe.js';
import { fulfilLater, giveBackLater } from './jobs.js';

/** The checkout page of a pending order: an open session's, or a new one. */
export async function checkoutUrl(services: Services, orderId: number, customer: { email: string; locale: 'zh' | 'en' }) {
  const stripe = stripeOf(services.config);
  if (!stripe) throw new AppError('conflict', 'shop.card_unavailable');
  const { db } = services;
  const order = await findOrder(db, orderId);
  if (order.status !== 'pending_payment') throw new AppError('conflict', 'shop.order_not_pending', { status: order.status });
  if (order.pay_before <= now()) throw new AppError('conflict', 'shop.order_overdue');
  const soon = new Date(Date.now() + 60_000).toISOString();
  const open = await db
    .selectFrom('payment')
    .select(['session_id', 'url', 'expires_at'])
    .where('order_id', '=', orderId)
    .where('status', '=', 'open')
    .where('expires_at', '>', soon)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (open) return { url: open.url, session_id: open.session_id, expires_at: open.expires_at };
  const attempts = await db.selectFrom('payment').select((eb) => eb.fn.countAll<number>().as('n')).where('order_id', '=', orderId).executeTakeFirstOrThrow();
  const session = await createCheckoutSession(stripe, {
    orderId,
    attempt: Number(attempts.n) + 1,
    amount: Number(order.amount),
    currency: order.currency,
    productName: customer.locale === 'zh' ? order.product_name_zh : order.product_name_en,
    customerEmail: customer.email,
    payBefore: order.pay_before,
    publicUrl: services.config.publicUrl,
    locale: customer.locale,
  });
  const expiresAt = new Date(session.expires_at * 1000).toISOString();
  const at = now();
  await db
    .insertInto('payment')
    .values({
      order_id: orderId,
      provider: 'stripe',
      session_id: session.id,
      url: session.url ?? '',
      amount: Number(order.amount),
      currency: order.currency,
      status: 'open',
      payment_intent: null,
      expires_at: expiresAt,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('session_id').doNothing())
    .execute();
  return { url: session.url ?? '', session_id: session.id, expires_at: expiresAt };
}

type Session = Stripe.Checkout.Session;

/** Handles one verified notice from Stripe. */
export async function handleStripeEvent(services: Services, event: Stripe.Event): Promise<{ handled: string }> {
  const session = event.data.object as Session;
  switch (event.type) {
    case 'checkout.session.completed':
      if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') return paymentArrived(services, session);
      return { handled: 'awaiting_async_payment' };
    case 'checkout.session.async_payment_succeeded':
      return paymentArrived(services, session);
    case 'checkout.session.async_payment_failed':
      await closeAttempt(services.db, session.id, 'failed');
      return { handled: 'failed' };
    case 'checkout.session.expired':
      await closeAttempt(services.db, session.id, 'expired');
      return { handled: 'expired' };
    default:
      return { handled: 'ignored' };
  }
}

async function closeAttempt(db: Db, sessionId: string, status: 'failed' | 'expired') {
  await db.updateTable('payment').set({ status, updated_at: now() }).where('session_id', '=', sessionId).where('status', '=', 'open').execute();
}

async function paymentArrived(services: Services, session: Session): Promise<{ handled: string }> {
  const { db } = services;
  const payment = await db.selectFrom('payment').selectAll().where('session_id', '=', session.id).executeTakeFirst();
  if (!payment) return { handled: 'unknown_session' };
  // Only what we asked for settles the order: the same order, amount and currency.
  if (
    session.metadata?.order_id !== String(payment.order_id) ||
    session.amount_total !== Number(payment.amount) ||
    (session.currency ?? '').toLowerCase() !== payment.currency.toLowerCase()
  ) {
    throw new AppError('validation', 'shop.payment_mismatch');
  }
  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  const outcome = await db.transaction().execute(async (trx) => {
    const recorded = await trx
      .updateTable('payment')
      .set({ status: 'paid', payment_intent: paymentIntent, updated_at: now() })
      .where('id', '=', payment.id)
      .where('status', 'in', ['open', 'expired', 'failed'])
      .executeTakeFirst();
    if (Number(recorded.numUpdatedRows) !== 1) return 'duplicate' as const;
    const result = await recordCardPayment(trx, Number(payment.order_id), 'stripe');
    if (result === 'paid') await fulfilLater(trx, services, Number(payment.order_id));
    else {
      // The order cannot take this money: it goes back, by a job made in this same transaction.
      await trx.updateTable('payment').set({ status: 'refund_due' }).where('id', '=', payment.id).execute();
      await giveBackLater(trx, services, Number(payment.id));
    }
    return result;
  });
  return { handled: outcome };
}
