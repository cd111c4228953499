/**
 * Unpaid orders past ORDER_PAYMENT_MINUTES expire (their promotion use is given back) and
 * their open checkout sessions are closed, so that a late payment becomes unlikely; one that
 * still arrives is given back (payments.ts).
 */
import type { Services } from '../core/services.js';
import { expireOrder, overdueOrders } from './orders.js';
import { expireCheckoutSession, stripeOf } from './stripe.js';

export async function expireOverdueOrders(services: Pick<Services, 'db' | 'config'>): Promise<number> {
  const { db } = services;
  let expired = 0;
  for (const id of await overdueOrders(db)) {
    if (!(await db.transaction().execute((trx) => expireOrder(trx, id)))) continue;
    expired += 1;
    const stripe = stripeOf(services.config as Services['config']);
    if (!stripe) continue;
    const open = await db.selectFrom('payment').select('session_id').where('order_id', '=', id).where('status', '=', 'open').execute();
    for (const { session_id } of open) await expireCheckoutSession(stripe, session_id);
  }
  return expired;
}
