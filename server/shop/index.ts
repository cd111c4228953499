/**
 * The shop: products (storage blocks, points top-ups) at today's price and promotions, orders
 * and their history, payment from the points balance or by card (Stripe Checkout), fulfilment
 * exactly once, refunds, the points ledger, and renewing a storage block.
 */
import { activity } from '../../resources/activity.js';
import { order } from '../../resources/order.js';
import { points } from '../../resources/points.js';
import { product } from '../../resources/product.js';
import { defineCapability } from '../core/capability.js';
import { shopCalls } from './shop-calls.js';
import { orderExpirySchedule, orderFulfilJob, paymentGiveBackJob } from './jobs.js';
import { productBehaviour } from './product.js';
import { promotionBehaviour } from './promotion.js';
import { registerStripeWebhook } from './webhook.js';

export const shop = defineCapability({
  name: 'shop',
  resources: [
    { declaration: product, behaviour: productBehaviour },
    { declaration: activity, behaviour: promotionBehaviour },
    { declaration: order },
    { declaration: points },
  ],
  calls: shopCalls,
  routes: registerStripeWebhook,
  jobs: [orderFulfilJob, paymentGiveBackJob],
  schedules: [orderExpirySchedule],
});
