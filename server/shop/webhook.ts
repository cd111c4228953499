/**
 * POST /api/payment/stripe/webhook: Stripe's signed notices. The signature covers the exact
 * bytes sent, so this route keeps the raw body (its own content-type parser, in its own
 * encapsulated plugin) instead of the app's JSON parser.
 */
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { Services } from '../core/services.js';
import { AppError } from '../core/errors.js';
import { handleStripeEvent } from './payments.js';
import { stripeOf } from './stripe.js';

export const STRIPE_WEBHOOK_PATH = '/api/payment/stripe/webhook';

/** Registered in a plugin of its own, so that its raw-body parser applies to it alone. */
export async function registerStripeWebhook(app: FastifyInstance, services: Services) {
  await app.register(async function stripeWebhook(app: FastifyInstance) {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.post(STRIPE_WEBHOOK_PATH, async (request) => {
      const stripe = stripeOf(services.config);
      if (!stripe || !services.config.stripe?.webhookSecret) throw new AppError('notFound', 'shop.card_unavailable');
      const raw = request.body;
      if (!Buffer.isBuffer(raw)) throw new AppError('validation', 'shop.bad_signature');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(raw, String(request.headers['stripe-signature'] ?? ''), services.config.stripe.webhookSecret);
      } catch {
        throw new AppError('validation', 'shop.bad_signature');
      }
      const result = await handleStripeEvent(services, event);
      return { code: 0, data: { received: true, ...result }, message: 'ok' };
    });
  });
}
