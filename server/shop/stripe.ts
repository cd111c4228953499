/**
 * Stripe Checkout through the official SDK: a session per payment attempt (idempotency key,
 * the order id in its metadata, an expiry), refunds, and the signed notices it sends.
 * STRIPE_API_HOST / _PORT / _PROTOCOL point the SDK elsewhere (the tests' local stand-in).
 */
import Stripe from 'stripe';
import type { Config } from '../config.js';

const clients = new WeakMap<object, Stripe>();

/** The SDK client, or undefined when no key is configured (card payment not offered). */
export function stripeOf(config: Config): Stripe | undefined {
  const settings = config.stripe;
  if (!settings) return undefined;
  let client = clients.get(settings);
  if (!client) {
    client = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: 10_000,
      telemetry: false,
      ...(settings.host ? { host: settings.host } : {}),
      ...(settings.port ? { port: settings.port } : {}),
      ...(settings.protocol ? { protocol: settings.protocol } : {}),
    });
    clients.set(settings, client);
  }
  return client;
}

/**
 * Currencies whose largest Stripe charge is not the usual eight digits (docs.stripe.com/currencies,
 * "Minimum and maximum charge amounts"): none of those the shop is set up for so far.
 */
const largestChargeOf: Readonly<Record<string, number>> = {};

/**
 * The largest amount Stripe takes in one charge, in the minor unit of the shop's currency
 * (SHOP_CURRENCY): "up to eight digits" (Stripe's API reference, `amount`), 99,999,999, e.g.
 * USD 999,999.99 or CNY 999,999.99. The one place this limit is known.
 */
export const largestCardCharge = (currency: string): number => largestChargeOf[currency.toUpperCase()] ?? 99_999_999;

/** Stripe's smallest and largest session lifetimes (30 minutes, 24 hours). */
const MIN_SESSION_SECONDS = 30 * 60 + 60;
const MAX_SESSION_SECONDS = 24 * 3600 - 60;

export interface CheckoutRequest {
  orderId: number;
  attempt: number;
  amount: number;
  currency: string;
  productName: string;
  customerEmail: string;
  payBefore: string;
  publicUrl: string;
  locale: 'zh' | 'en';
}

export async function createCheckoutSession(stripe: Stripe, request: CheckoutRequest) {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const wanted = Math.floor(Date.parse(request.payBefore) / 1000);
  const expiresAt = Math.min(Math.max(wanted, nowSeconds + MIN_SESSION_SECONDS), nowSeconds + MAX_SESSION_SECONDS);
  const orderUrl = `${request.publicUrl}/admin/order/view?id=${request.orderId}`;
  return stripe.checkout.sessions.create(
    {
      mode: 'payment',
      client_reference_id: String(request.orderId),
      customer_email: request.customerEmail,
      locale: request.locale === 'zh' ? 'zh' : 'en',
      line_items: [
        {
          quantity: 1,
          price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amount, product_data: { name: request.productName } },
        },
      ],
      metadata: { order_id: String(request.orderId) },
      payment_intent_data: { metadata: { order_id: String(request.orderId) } },
      expires_at: expiresAt,
      success_url: `${orderUrl}&paid=1`,
      cancel_url: orderUrl,
    },
    { idempotencyKey: `maildesk-order-${request.orderId}-checkout-${request.attempt}` },
  );
}

/** Gives a card payment back in full, once (the key makes a repeated request the same refund). */
export async function refundCardPayment(stripe: Stripe, paymentIntent: string, key: string) {
  return stripe.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: `maildesk-refund-${key}` });
}

/** Ends an open session so that it can no longer be paid (best effort: it may be paid or expired already). */
export async function expireCheckoutSession(stripe: Stripe, sessionId: string) {
  try {
    await stripe.checkout.sessions.expire(sessionId);
  } catch {
    // Already completed or expired: its own notice tells us which.
  }
}
