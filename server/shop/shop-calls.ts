/**
 * The shop's calls beyond derived CRUD: today's products and prices (public and customers),
 * ordering, paying, cancelling and refunding, order history, points balance and grants,
 * ending a promotion early.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { Selectable } from 'kysely';
import { billingStaff, staff, wholeNumber } from '../../resources/define.js';
import { storage } from '../../resources/storage.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { audit } from '../core/audit.js';
import { AppError, notFound } from '../core/errors.js';
import { idInput } from '../core/resource-calls.js';
import { findVisible } from '../core/scope.js';
import { now } from '../core/time.js';
import { activity as activityResource } from '../../resources/activity.js';
import { order as orderResource } from '../../resources/order.js';
import { MAX_MONEY } from '../../resources/shop.js';
import { product as productResource } from '../../resources/product.js';
import { listConditions, listParams, searchIndexes } from '../core/list-query.js';
import { searchTableOf } from '../db/migrations/helpers.js';
import type { ProductRow } from '../db/schema.js';
import type { Db } from '../db/index.js';
import { offersFor } from './pricing.js';
import { cancelOrder, createOrder, findOrder, payWithPoints } from './orders.js';
import { changePoints } from './points.js';
import { checkoutUrl } from './payments.js';
import { refundOrder } from './refunds.js';
import { renewalOptions } from './renewal.js';
import { whoOf } from './transitions.js';

const productColumns = ['id', 'kind', 'name_zh', 'name_en', 'description_zh', 'description_en', 'price', 'storage_size', 'period_months', 'points_granted', 'sort_order'] as const;

const shopListInput = z.object({
  page: wholeNumber(1, 10_000).default(1),
  page_size: wholeNumber(1, 100).default(50),
  kind: z.enum(['storage', 'points']).optional(),
  /** Searched in the product's names, as the operators' product list searches them. */
  q: listParams.shape.q,
});

/** Visible products in their order, each with today's offer for this customer (or a newcomer). */
async function visibleProducts(db: Db, params: z.output<typeof shopListInput> & { code?: string }, ctx: CallContext, customerId?: number) {
  let query = db.selectFrom('product').where('visible', '=', 1);
  if (params.kind) query = query.where('kind', '=', params.kind);
  if (params.q) {
    const { dialect } = ctx.services;
    const indexed = dialect === 'sqlite' ? (await searchIndexes(db)).get(searchTableOf(productResource.table)) : undefined;
    const search = listConditions(productResource, dialect, { filter: {}, q: params.q }, indexed);
    query = query.where((eb) => eb.and(search(eb)));
  }
  const [rows, count] = await Promise.all([
    query
      .select(productColumns)
      .orderBy('sort_order')
      .orderBy('id')
      .limit(params.page_size)
      .offset((params.page - 1) * params.page_size)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const offers = await offersFor(db, rows as Selectable<ProductRow>[], { customerId, code: params.code || null, at: now() });
  return {
    list: rows.map((p) => ({ ...p, offer: offers.get(Number(p.id))! })),
    total: Number(count.n),
    page: params.page,
    page_size: params.page_size,
    currency: ctx.services.config.shopCurrency,
    card_available: Boolean(ctx.services.config.stripe),
  };
}

const orderWithin = async (ctx: CallContext, area: 'admin' | 'manage', id: number, db?: Db) => {
  await findVisible(orderResource, area, ctx, id, db);
  return findOrder(db ?? ctx.services.db, id);
};

type Order = Awaited<ReturnType<typeof findOrder>>;

/**
 * One change of an order the caller may reach, in one transaction with its activity-log entry
 * (the order's number names it there); answers the order as it is now.
 */
function changeOrder(ctx: CallContext, area: 'admin' | 'manage', id: number, action: string, change: (trx: Db, order: Order) => Promise<unknown>, logged: Record<string, unknown> = {}) {
  return ctx.services.db.transaction().execute(async (trx) => {
    const order = await orderWithin(ctx, area, id, trx);
    await change(trx, order);
    await audit(trx, ctx, { action, targetType: 'order', targetId: id, userId: Number(order.owner_id), after: { number: order.number, ...logged } });
    return findOrder(trx, id);
  });
}

async function historyOf(ctx: CallContext, area: 'admin' | 'manage', id: number) {
  await orderWithin(ctx, area, id);
  const { db } = ctx.services;
  const [history, payments] = await Promise.all([
    db.selectFrom('order_history').selectAll().where('order_id', '=', id).orderBy('id').execute(),
    db
      .selectFrom('payment')
      .select(['id', 'provider', 'status', 'amount', 'currency', 'expires_at', 'created_at', 'updated_at'])
      .where('order_id', '=', id)
      .orderBy('id')
      .execute(),
  ]);
  return { history, payments };
}

const reasonText = z.string().trim().max(500).default('');

export const shopCalls = [
  defineCall({
    method: 'POST',
    path: '/api/product/list',
    reads: true,
    auth: 'public',
    tag: 'product',
    summary: 'Visible products (q: searched in their names) with today\'s promoted price (offer: price, discount, amount, bonus_points), the shop currency and whether card payment is offered.',
    input: shopListInput,
    handler: (params, ctx) => visibleProducts(ctx.services.db, params, ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/product/list',
    reads: true,
    auth: 'customer',
    tag: 'admin/product',
    summary: 'Visible products (q: searched in their names) with the price this customer pays today (promotions they may still use); `code` tries a promotion code; one that gives nothing is refused saying why (shop.unknown_code, code_not_for_product, code_not_started, code_ended, code_used_up, code_used_up_by_you, code_first_order_only).',
    input: shopListInput.extend({ code: z.string().trim().max(32).optional() }),
    handler: (params, ctx) => visibleProducts(ctx.services.db, params, ctx, ctx.actor.customerId),
  }),
  defineCall({
    method: 'GET',
    path: '/api/admin/product/get',
    auth: 'customer',
    tag: 'admin/product',
    summary: 'One visible product by ?id=, with the price this customer pays today.',
    input: idInput,
    async handler({ id }, ctx) {
      const { db } = ctx.services;
      const product = await db.selectFrom('product').select(productColumns).where('id', '=', id).where('visible', '=', 1).executeTakeFirst();
      if (!product) throw notFound();
      const offers = await offersFor(db, [product as Selectable<ProductRow>], { customerId: ctx.actor.customerId, at: now() });
      return { ...product, offer: offers.get(Number(product.id))!, currency: ctx.services.config.shopCurrency, card_available: Boolean(ctx.services.config.stripe) };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/order/create',
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/order',
    summary:
      'Order a visible product at today\'s price (optional promotion code, refused saying why it gives nothing, as product/list does; renew_storage_id extends that block instead of adding one). pay_with points pays and fulfils at once; card and later leave it pending_payment, to be paid with create_payment_checkouturl or pay_points before pay_before.',
    input: z.object({
      product_id: z.number().int().min(1),
      pay_with: z.enum(['points', 'card', 'later']).default('later'),
      code: z.string().trim().max(32).nullable().optional(),
      renew_storage_id: z.number().int().min(1).nullable().optional(),
    }),
    async handler(input, ctx) {
      const who = whoOf(ctx.actor);
      const created = await ctx.services.db.transaction().execute(async (trx) => {
        const order = await createOrder(
          trx,
          ctx.services,
          { customerId: ctx.actor.customerId, placedBy: ctx.actor.accountId, productId: input.product_id, code: input.code, renewStorageId: input.renew_storage_id, payWith: input.pay_with },
          who,
        );
        await audit(trx, ctx, { action: 'create', targetType: 'order', targetId: Number(order.id), userId: ctx.actor.customerId, after: order });
        return order;
      });
      return created;
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/order/pay_points',
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/order',
    summary: 'Pay a pending order from the points balance; it is fulfilled at once.',
    input: idInput,
    handler: ({ id }, ctx) => changeOrder(ctx, 'admin', id, 'pay_points', (trx) => payWithPoints(trx, ctx.services, id, whoOf(ctx.actor))),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/order/create_payment_checkouturl',
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/order',
    summary: 'The card checkout page (Stripe Checkout) of a pending order: { available: true, url, session_id, expires_at } (an open session\'s, or a new one). Without a card provider: { available: false, url: null, message: shop.card_unavailable }.',
    input: idInput,
    async handler({ id }, ctx) {
      const order = await orderWithin(ctx, 'admin', id);
      if (order.status !== 'pending_payment') throw new AppError('conflict', 'shop.order_not_pending', { status: order.status });
      if (!ctx.services.config.stripe) return { available: false, url: null, message: 'shop.card_unavailable' };
      const account = await ctx.services.db.selectFrom('user').select(['email', 'locale']).where('id', '=', ctx.actor.customerId).executeTakeFirstOrThrow();
      return { available: true, ...(await checkoutUrl(ctx.services, id, { email: account.email, locale: ctx.locale })) };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/order/cancel',
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/order',
    summary: 'Cancel an unpaid order; a promotion use it took is given back.',
    input: idInput,
    handler: ({ id }, ctx) => changeOrder(ctx, 'admin', id, 'cancel', (trx) => cancelOrder(trx, id, whoOf(ctx.actor), 'cancelled by the customer')),
  }),
  defineCall({
    method: 'GET',
    path: '/api/admin/order/history',
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/order',
    summary: 'Every status change of one of the customer\'s orders (who, when, why) and its card payment attempts, by ?id=.',
    input: idInput,
    handler: ({ id }, ctx) => historyOf(ctx, 'admin', id),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/points/balance',
    reads: true,
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/points',
    summary: 'The customer\'s points balance (the ledger is /api/admin/points/list).',
    input: z.object({}),
    async handler(_input, ctx) {
      const row = await ctx.services.db.selectFrom('user').select('points').where('id', '=', ctx.actor.customerId).executeTakeFirstOrThrow();
      return { balance: Number(row.points), currency: ctx.services.config.shopCurrency };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/api/manage/order/history',
    auth: 'operator',
    roles: staff,
    tag: 'manage/order',
    summary: 'Every status change of an order (who, when, why) and its card payment attempts, by ?id=.',
    input: idInput,
    handler: ({ id }, ctx) => historyOf(ctx, 'manage', id),
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/order/cancel',
    auth: 'operator',
    roles: billingStaff,
    tag: 'manage/order',
    summary: 'Cancel an unpaid order, with a reason; a promotion use it took is given back.',
    input: idInput.extend({ reason: reasonText }),
    handler: ({ id, reason }, ctx) => changeOrder(ctx, 'manage', id, 'cancel', (trx) => cancelOrder(trx, id, whoOf(ctx.actor), reason || 'cancelled by the provider'), { reason }),
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/order/refund',
    auth: 'operator',
    roles: billingStaff,
    tag: 'manage/order',
    summary:
      'Refund a paid order: its capacity block or points are taken back (refused with shop.refund_capacity_in_use when mailboxes use that capacity), and the amount goes to the points balance (to: points) or back to the card (to: original, card payments).',
    input: idInput.extend({ to: z.enum(['points', 'original']).default('original'), reason: reasonText }),
    async handler({ id, to, reason }, ctx) {
      const before = await orderWithin(ctx, 'manage', id);
      const order = await refundOrder(ctx.services, id, to, whoOf(ctx.actor), reason);
      await audit(ctx.services.db, ctx, { action: 'refund', targetType: 'order', targetId: id, userId: Number(before.owner_id), before: { number: before.number, status: before.status }, after: { number: order.number, status: order.status, to, reason } });
      return order;
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/user/add_points',
    auth: 'operator',
    roles: billingStaff,
    tag: 'manage/user',
    summary:
      'Grant (points > 0) or deduct (points < 0) a customer\'s points, with a note saying why. `key` names the grant: the same key twice grants once (shop.points_duplicate). The balance never goes below zero.',
    input: z.object({
      user_id: z.number().int().min(1),
      points: z
        .number()
        .int()
        .min(-MAX_MONEY)
        .max(MAX_MONEY)
        .refine((n) => n !== 0, { message: 'shop.points_not_zero' }),
      note: z.string().trim().min(1).max(500),
      key: z.string().trim().min(1).max(100).optional(),
    }),
    async handler(input, ctx) {
      const { db, dialect } = ctx.services;
      return db.transaction().execute(async (trx) => {
        const customer = await trx.selectFrom('user').select(['id', 'owner_id']).where('id', '=', input.user_id).executeTakeFirst();
        if (!customer || customer.owner_id !== null) throw notFound();
        const key = input.key ?? crypto.randomUUID();
        const result = await changePoints(trx, dialect, {
          userId: input.user_id,
          delta: input.points,
          source: `grant:${key}`,
          reason: input.points > 0 ? 'grant' : 'deduction',
          note: input.note,
          actor: { type: 'operator', id: ctx.actor.id },
        });
        if (!result.applied) throw new AppError('conflict', 'shop.points_duplicate');
        await audit(trx, ctx, { action: 'add_points', targetType: 'user', targetId: input.user_id, userId: input.user_id, after: { points: input.points, note: input.note, balance: result.balance } });
        return { user_id: input.user_id, balance: result.balance };
      });
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/activity/end',
    auth: 'operator',
    roles: billingStaff,
    tag: 'manage/activity',
    summary: 'End a promotion now (before its window closes). Orders already made keep their price.',
    input: idInput,
    async handler({ id }, ctx) {
      return ctx.services.db.transaction().execute(async (trx) => {
        const at = now();
        const activity = await trx.selectFrom('activity').select(['id', 'ends_at', 'ended_early_at']).where('id', '=', id).executeTakeFirst();
        if (!activity) throw notFound();
        if (activity.ended_early_at !== null || activity.ends_at <= at) throw new AppError('conflict', 'shop.promotion_over');
        await trx.updateTable('activity').set({ ended_early_at: at, ends_at: at, updated_at: at }).where('id', '=', id).execute();
        await audit(trx, ctx, { action: 'end', targetType: 'activity', targetId: id, before: { ends_at: activity.ends_at }, after: { ends_at: at } });
        return findVisible(activityResource, 'manage', ctx, id, trx);
      });
    },
  }),
  // Renewing a storage block is buying it again: its offers are the shop's.
  defineCall({
    method: 'POST',
    path: '/api/admin/storage/renewal',
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/storage',
    summary:
      'How one of the customer\'s blocks (id) can be renewed today: visible storage products of its size with a period, the one it was bought as first, each with today\'s price and promotions (offer) and the expiry a renewal would give. Renew with /api/admin/order/create {product_id, renew_storage_id}.',
    input: idInput,
    async handler({ id }, ctx) {
      await findVisible(storage, 'admin', ctx, id);
      return renewalOptions(ctx.services, id, ctx.actor.customerId);
    },
  }),
];
