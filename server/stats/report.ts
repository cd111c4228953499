/** index/stat's `business` figures: the summary of a period, shaped for the operator dashboard. */
import { sql } from 'kysely';
import { DAY_MS, nowMs } from '../core/time.js';
import type { Services } from '../core/services.js';
import { customersOverCapacity } from '../storage/expiry.js';
import { periodDays, periodFigures, todaysCapacity, type Period } from './business.js';

/** Points given away (operator grants, promotion bonuses) and bought (top-ups). */
const grantedReasons = ['grant', 'bonus'];

export async function businessReport(services: Pick<Services, 'db' | 'config'>, period: Period, source: 'summary' | 'base' = 'summary') {
  const { db, config } = services;
  const { buckets, bucketOf } = periodDays(period);
  const [rows, capacity, renewals, nextRenewals, pendingNow, overCapacity] = await Promise.all([
    periodFigures(db, period, source),
    todaysCapacity(db),
    db
      .selectFrom('storage')
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(size), 0)`.as('bytes')])
      .where('expires_at', '>', new Date(nowMs()).toISOString())
      .where('expires_at', '<=', new Date(nowMs() + 30 * DAY_MS).toISOString())
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('storage')
      .innerJoin('user', 'user.id', 'storage.owner_id')
      .select(['storage.id', 'storage.owner_id', 'user.email', 'storage.size', 'storage.expires_at'])
      .where('storage.expires_at', '>', new Date(nowMs()).toISOString())
      .where('storage.expires_at', '<=', new Date(nowMs() + 30 * DAY_MS).toISOString())
      .orderBy('storage.expires_at')
      .limit(5)
      .execute(),
    db.selectFrom('shop_order').select(sql<number>`count(*)`.as('n')).where('status', '=', 'pending_payment').executeTakeFirstOrThrow(),
    customersOverCapacity(db, 10),
  ]);

  const series = new Map(buckets.map((bucket) => [bucket, { bucket, revenue: 0, paid: 0, refunded: 0, customers_new: 0, customers_paying: 0, points_granted: 0, points_spent: 0, mail_sent: 0, mail_failed: 0 }]));
  const ordersByStatus: Record<string, number> = {};
  const points: Record<string, number> = {};
  const products = new Map<string, { orders: number; revenue: number }>();
  for (const row of rows) {
    const point = series.get(bucketOf(row.day));
    if (!point) continue;
    switch (row.metric) {
      case 'revenue_paid':
        point.paid += row.value;
        point.revenue += row.value;
        break;
      case 'revenue_refunded':
        point.refunded += row.value;
        point.revenue -= row.value;
        break;
      case 'customers_new':
        point.customers_new += row.value;
        break;
      case 'customers_paying':
        point.customers_paying += row.value;
        break;
      case 'orders':
        ordersByStatus[row.dim] = (ordersByStatus[row.dim] ?? 0) + row.value;
        break;
      case 'points':
        points[row.dim] = (points[row.dim] ?? 0) + row.value;
        if (grantedReasons.includes(row.dim)) point.points_granted += row.value;
        if (row.dim === 'order_payment') point.points_spent -= row.value;
        break;
      case 'product_orders':
      case 'product_revenue': {
        const product = products.get(row.dim) ?? { orders: 0, revenue: 0 };
        if (row.metric === 'product_orders') product.orders += row.value;
        else product.revenue += row.value;
        products.set(row.dim, product);
        break;
      }
      case 'mail':
        if (row.dim === 'sent') point.mail_sent += row.value;
        if (row.dim === 'failed') point.mail_failed += row.value;
        break;
    }
  }
  const top = [...products.entries()].sort(([, a], [, b]) => b.orders - a.orders || b.revenue - a.revenue).slice(0, 5);
  const names = top.length
    ? await db.selectFrom('product').select(['id', 'name_zh', 'name_en']).where('id', 'in', top.map(([id]) => Number(id))).execute()
    : [];
  const points_ = (reason: string) => points[reason] ?? 0;
  const points_granted = grantedReasons.reduce((sum, r) => sum + points_(r), 0);
  const list = [...series.values()];
  const total = (key: keyof (typeof list)[number]) => list.reduce((sum, p) => sum + Number(p[key]), 0);
  return {
    period,
    currency: config.shopCurrency,
    series: list,
    totals: {
      revenue: total('revenue'),
      paid: total('paid'),
      refunded: total('refunded'),
      customers_new: total('customers_new'),
      mail_sent: total('mail_sent'),
      mail_failed: total('mail_failed'),
    },
    orders_by_status: ordersByStatus,
    orders_pending_now: Number(pendingNow.n),
    top_products: top.map(([id, figures]) => {
      const name = names.find((n) => Number(n.id) === Number(id));
      return { product_id: Number(id), name_zh: name?.name_zh ?? '', name_en: name?.name_en ?? '', ...figures };
    }),
    points: {
      granted: points_granted,
      bought: points_('topup'),
      spent: -points_('order_payment'),
      refunded: points_('refund'),
      deducted: -points_('deduction'),
    },
    capacity,
    renewals_due_30d: { blocks: Number(renewals.n), bytes: Number(renewals.bytes), next: nextRenewals },
    over_capacity: overCapacity,
  };
}
