/**
 * The business at a glance: money, orders, customers, products, points, capacity and mail,
 * per UTC day. Every figure is an event counted on the day it happened (an order paid, a card
 * refund, a ledger row, a customer registered), read by index range over that day's rows,
 * so a day's figures never change once it has ended. The stats.daily schedule stores them in
 * stat_daily; the dashboard reads the summary, and today live. Capacity (sold, handed out,
 * used) is a snapshot the schedule takes, since it sums whole tables (the dashboard takes
 * one when today has none yet, and when an operator asks to refresh).
 *
 * Revenue is money received by card (points payments spend a balance bought or granted
 * earlier; they show as points spent), minus card refunds on the day they were made.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { DAY_MS, now, nowMs } from '../core/time.js';

export interface Figure {
  metric: string;
  dim: string;
  value: number;
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOf = (day: string) => `${day}T00:00:00.000Z`;
const nextDay = (day: string) => dayOf(Date.parse(startOf(day)) + DAY_MS);

/** The event figures of one day, from the base tables. */
export async function dayFigures(db: Db, day: string): Promise<Figure[]> {
  const from = startOf(day);
  const to = startOf(nextDay(day));
  const count = sql<number>`count(*)`;
  const [paid, refunded, events, newCustomers, paying, products, points, mail] = await Promise.all([
    db
      .selectFrom('shop_order')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('v'))
      .where('paid_at', '>=', from)
      .where('paid_at', '<', to)
      .where('payment_method', '=', 'stripe')
      .executeTakeFirstOrThrow(),
    // Money given back to the card; a refund to points keeps the money and credits points.
    db
      .selectFrom('shop_order')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('v'))
      .where('closed_at', '>=', from)
      .where('closed_at', '<', to)
      .where('status', '=', 'refunded')
      .where((eb) => eb.exists(eb.selectFrom('payment').select('payment.id').whereRef('payment.order_id', '=', 'shop_order.id').where('payment.status', '=', 'refunded')))
      .executeTakeFirstOrThrow(),
    db.selectFrom('order_history').select(['to_status', count.as('n')]).where('created_at', '>=', from).where('created_at', '<', to).groupBy('to_status').execute(),
    db.selectFrom('user').select(count.as('n')).where('owner_id', 'is', null).where('created_at', '>=', from).where('created_at', '<', to).executeTakeFirstOrThrow(),
    db.selectFrom('shop_order').select(sql<number>`count(distinct owner_id)`.as('n')).where('paid_at', '>=', from).where('paid_at', '<', to).executeTakeFirstOrThrow(),
    db
      .selectFrom('shop_order')
      .select(['product_id', count.as('n'), sql<number>`coalesce(sum(case when payment_method = 'stripe' then amount else 0 end), 0)`.as('money')])
      .where('paid_at', '>=', from)
      .where('paid_at', '<', to)
      .groupBy('product_id')
      .execute(),
    db.selectFrom('points_ledger').select(['reason', sql<number>`sum(delta)`.as('v')]).where('created_at', '>=', from).where('created_at', '<', to).groupBy('reason').execute(),
    db.selectFrom('email_send_log').select(['status', count.as('n')]).where('created_at', '>=', from).where('created_at', '<', to).groupBy('status').execute(),
  ]);
  const figures: Figure[] = [
    { metric: 'revenue_paid', dim: '', value: Number(paid.v) },
    { metric: 'revenue_refunded', dim: '', value: Number(refunded.v) },
    { metric: 'customers_new', dim: '', value: Number(newCustomers.n) },
    { metric: 'customers_paying', dim: '', value: Number(paying.n) },
    ...events.map((e) => ({ metric: 'orders', dim: String(e.to_status), value: Number(e.n) })),
    ...products.flatMap((p) => [
      { metric: 'product_orders', dim: String(p.product_id), value: Number(p.n) },
      { metric: 'product_revenue', dim: String(p.product_id), value: Number(p.money) },
    ]),
    ...points.map((p) => ({ metric: 'points', dim: String(p.reason), value: Number(p.v) })),
    ...mail.map((m) => ({ metric: 'mail', dim: String(m.status), value: Number(m.n) })),
  ];
  return figures.filter((f) => f.value !== 0);
}

/** Capacity right now: sold (unexpired bought blocks), granted by operators, handed out to mailboxes as quota, used. */
export async function capacitySnapshot(db: Db): Promise<Figure[]> {
  const at = now();
  const [blocks, allocated, used] = await Promise.all([
    db
      .selectFrom('storage')
      .select(['source', sql<number>`coalesce(sum(size), 0)`.as('v')])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
      .groupBy('source')
      .execute(),
    db.selectFrom('mailbox').select(sql<number>`coalesce(sum(quota), 0)`.as('v')).executeTakeFirstOrThrow(),
    db.selectFrom('mailbox_usage').innerJoin('mailbox', 'mailbox.address', 'mailbox_usage.address').select(sql<number>`coalesce(sum(mailbox_usage.bytes), 0)`.as('v')).executeTakeFirstOrThrow(),
  ]);
  const of = (source: string) => Number(blocks.find((b) => b.source === source)?.v ?? 0);
  return [
    { metric: 'capacity_sold', dim: '', value: of('order') },
    { metric: 'capacity_granted', dim: '', value: of('grant') },
    { metric: 'capacity_allocated', dim: '', value: Number(allocated.v) },
    { metric: 'capacity_used', dim: '', value: Number(used.v) },
    { metric: 'capacity_at', dim: '', value: nowMs() },
  ];
}

const FINAL = '_final';
const eventMetrics = ['revenue_paid', 'revenue_refunded', 'customers_new', 'customers_paying', 'orders', 'product_orders', 'product_revenue', 'points', 'mail'];

/**
 * Brings the summary up to date: every day since the last one stored as final (at most
 * `backfillDays` back) is computed again from the base tables; days that have ended are
 * marked final and never read again; today gets the capacity snapshot. Idempotent: a run
 * repeated, or two at once, writes the same rows.
 */
export async function refreshSummary(db: Db, backfillDays = 400): Promise<number> {
  const today = dayOf(nowMs());
  const lastFinal = await db.selectFrom('stat_daily').select('day').where('metric', '=', FINAL).orderBy('day', 'desc').limit(1).executeTakeFirst();
  const firstCustomer = await db.selectFrom('user').select('created_at').orderBy('created_at').limit(1).executeTakeFirst();
  let day = lastFinal ? nextDay(lastFinal.day) : dayOf(Math.max(nowMs() - backfillDays * DAY_MS, Date.parse(firstCustomer?.created_at ?? now())));
  let days = 0;
  for (; day <= today; day = nextDay(day), days++) {
    const figures = await dayFigures(db, day);
    const final = day < today;
    const snapshot = day === today ? await capacitySnapshot(db) : [];
    await storeDay(db, day, [...eventMetrics, ...snapshot.map((f) => f.metric)], [...figures, ...snapshot, ...(final ? [{ metric: FINAL, dim: '', value: 1 }] : [])]);
  }
  return days;
}

/** A day's rows of these metrics replaced by `figures`, in one transaction. */
async function storeDay(db: Db, day: string, metrics: string[], figures: Figure[]) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('stat_daily').where('day', '=', day).where('metric', 'in', metrics).execute();
    const rows = figures.map((f) => ({ day, ...f }));
    // Two runs at once write the same rows: the second's are the same figures.
    for (let i = 0; i < rows.length; i += 200) {
      await trx.insertInto('stat_daily').values(rows.slice(i, i + 200)).onConflict((oc) => oc.columns(['day', 'metric', 'dim']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') }))).execute();
    }
  });
}

export type Period = '30d' | '12m';

/** The days a period covers, oldest first, and how they are grouped (day or month). */
export function periodDays(period: Period, todayMs = nowMs()): { from: string; to: string; bucketOf: (day: string) => string; buckets: string[] } {
  const today = dayOf(todayMs);
  if (period === '30d') {
    const buckets = Array.from({ length: 30 }, (_, i) => dayOf(todayMs - (29 - i) * DAY_MS));
    return { from: buckets[0]!, to: today, bucketOf: (day) => day, buckets };
  }
  const date = new Date(`${today.slice(0, 7)}-01T00:00:00.000Z`);
  date.setUTCMonth(date.getUTCMonth() - 11);
  const buckets = Array.from({ length: 12 }, (_, i) => {
    const month = new Date(date);
    month.setUTCMonth(date.getUTCMonth() + i);
    return month.toISOString().slice(0, 7);
  });
  return { from: `${buckets[0]}-01`, to: today, bucketOf: (day) => day.slice(0, 7), buckets };
}

/** A period's event figures: stored days from the summary, today from the base tables. */
export async function periodFigures(db: Db, period: Period, source: 'summary' | 'base' = 'summary'): Promise<{ day: string; metric: string; dim: string; value: number }[]> {
  const { from, to } = periodDays(period);
  if (source === 'base') {
    // The same figures without the summary (the benchmark's comparison): every day from the base tables.
    const all = [];
    for (let day = from; day <= to; day = nextDay(day)) all.push(...(await dayFigures(db, day)).map((f) => ({ day, ...f })));
    return all;
  }
  const [stored, today] = await Promise.all([
    db.selectFrom('stat_daily').select(['day', 'metric', 'dim', 'value']).where('day', '>=', from).where('day', '<', to).where('metric', 'in', eventMetrics).execute(),
    dayFigures(db, to),
  ]);
  return [...stored.map((r) => ({ ...r, value: Number(r.value) })), ...today.map((f) => ({ day: to, ...f }))];
}

/**
 * Today's capacity snapshot, taken now when there is none yet: a fresh database, the minutes of
 * a day before the hourly schedule runs, or schedules turned off. Taken when the dashboard first
 * asks rather than at start-up: it sums whole tables, which a start should not wait for, and
 * only the dashboard reads it.
 */
export async function todaysCapacity(db: Db) {
  const latest = await latestCapacity(db);
  if (latest && latest.as_of.slice(0, 10) === dayOf(nowMs())) return latest;
  const snapshot = await capacitySnapshot(db);
  await storeDay(db, dayOf(nowMs()), snapshot.map((f) => f.metric), snapshot);
  return latestCapacity(db);
}

/** The newest capacity snapshot. */
async function latestCapacity(db: Db) {
  const latest = await db.selectFrom('stat_daily').select('day').where('metric', '=', 'capacity_at').orderBy('day', 'desc').limit(1).executeTakeFirst();
  if (!latest) return null;
  const rows = await db.selectFrom('stat_daily').select(['metric', 'value']).where('day', '=', latest.day).where('metric', 'like', 'capacity_%').execute();
  const of = (metric: string) => Number(rows.find((r) => r.metric === metric)?.value ?? 0);
  return { sold: of('capacity_sold'), granted: of('capacity_granted'), allocated: of('capacity_allocated'), used: of('capacity_used'), as_of: new Date(of('capacity_at')).toISOString() };
}
