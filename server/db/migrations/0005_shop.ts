/**
 * The shop: products, promotions (activities) and their uses, orders with their history,
 * card payments, the append-only points ledger, and the link from a capacity block to the
 * order that bought it.
 *
 * Exactly-once rules live in constraints: one ledger row per (source, reason); one use of a
 * promotion per order; one payment row per provider session.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function shop(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('product'), dialect)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name_zh', 'text', (c) => c.notNull())
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('description_zh', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('description_en', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('price', 'bigint', (c) => c.notNull())
        // storage: bytes and months (null: never expires); points: points credited.
        .addColumn('storage_size', 'bigint')
        .addColumn('period_months', 'integer')
        .addColumn('points_granted', 'bigint')
        .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'product', ['kind', ['visible', 'sort_order'], 'sort_order', 'price', 'created_at']);

      await withId(db.schema.createTable('activity'), dialect)
        .addColumn('name_zh', 'text', (c) => c.notNull())
        .addColumn('name_en', 'text', (c) => c.notNull())
        // percent: value is 1..100 off; amount: value minor units off; bonus_points: value points credited.
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .addColumn('starts_at', 'text', (c) => c.notNull())
        .addColumn('ends_at', 'text', (c) => c.notNull())
        .addColumn('total_limit', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('per_customer_limit', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('first_order_only', 'integer', (c) => c.notNull().defaultTo(0))
        // Null: applied automatically; else only when the customer types this code.
        .addColumn('code', 'text', (c) => c.unique())
        .addColumn('used_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ended_early_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'activity', ['kind', 'starts_at', 'ends_at', 'used_count', 'created_at']);

      await db.schema
        .createTable('activity_product')
        .addColumn('activity_id', 'bigint', (c) => c.notNull().references('activity.id').onDelete('cascade'))
        .addColumn('product_id', 'bigint', (c) => c.notNull().references('product.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('activity_product_pk', ['activity_id', 'product_id'])
        .execute();
      await indexes(db, 'activity_product', ['product_id']);

      await withId(db.schema.createTable('shop_order'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        // The login that placed it (the customer or a team member).
        .addColumn('placed_by', 'bigint', (c) => c.notNull())
        .addColumn('product_id', 'bigint', (c) => c.notNull().references('product.id'))
        // Snapshot of the product at order time.
        .addColumn('product_kind', 'text', (c) => c.notNull())
        .addColumn('product_name_zh', 'text', (c) => c.notNull())
        .addColumn('product_name_en', 'text', (c) => c.notNull())
        .addColumn('storage_size', 'bigint')
        .addColumn('period_months', 'integer')
        .addColumn('points_granted', 'bigint')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('discount', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('bonus_points', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('activity_id', 'bigint', (c) => c.references('activity.id'))
        // The capacity block a storage order extends (renewal), chosen at order time.
        .addColumn('renew_storage_id', 'bigint')
        .addColumn('payment_method', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('pay_before', 'text', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .addColumn('fulfilled_at', 'text')
        .addColumn('closed_at', 'text')
        // What fulfilment did: the block it made or extended, and that block's expiry before.
        .addColumn('storage_id', 'bigint')
        .addColumn('storage_previous_expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'shop_order', [
        ['owner_id', 'id'],
        ['owner_id', 'status'],
        ['owner_id', 'created_at'],
        ['owner_id', 'amount'],
        ['owner_id', 'product_kind'],
        ['activity_id', 'owner_id'],
        'status',
        ['status', 'pay_before'],
        'product_kind',
        'product_id',
        'payment_method',
        'amount',
        'paid_at',
        'created_at',
      ]);

      await withId(db.schema.createTable('order_history'), dialect)
        .addColumn('order_id', 'bigint', (c) => c.notNull().references('shop_order.id').onDelete('cascade'))
        .addColumn('from_status', 'text')
        .addColumn('to_status', 'text', (c) => c.notNull())
        // customer, operator, provider (a payment notice) or system (expiry, fulfilment).
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'bigint')
        .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'order_history', [['order_id', 'id']]);

      // One use of a promotion per order; released (not deleted) on cancel or expiry.
      await withId(db.schema.createTable('activity_use'), dialect)
        .addColumn('activity_id', 'bigint', (c) => c.notNull().references('activity.id'))
        .addColumn('order_id', 'bigint', (c) => c.notNull().unique().references('shop_order.id').onDelete('cascade'))
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('released_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'activity_use', [['activity_id', 'owner_id']]);

      // A card payment attempt (one provider checkout session).
      await withId(db.schema.createTable('payment'), dialect)
        .addColumn('order_id', 'bigint', (c) => c.notNull().references('shop_order.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text', (c) => c.notNull().unique())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        // open → paid | expired | failed; paid → refunded.
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('payment_intent', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'payment', [['order_id', 'id']]);

      await withId(db.schema.createTable('points_ledger'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('delta', 'bigint', (c) => c.notNull())
        .addColumn('balance_after', 'bigint', (c) => c.notNull())
        // What caused it ('order:12', 'grant:<key>'), and why: grant, deduction, order_payment, refund, topup, bonus.
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('order_id', 'bigint')
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'bigint')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('points_ledger_source_reason_unique', ['source', 'reason'])
        .execute();
      await indexes(db, 'points_ledger', [['user_id', 'id'], ['user_id', 'reason'], ['user_id', 'created_at'], 'reason', 'created_at']);

      // A block bought in an order points back at it (renewals extend the same block).
      await db.schema.alterTable('storage').addColumn('order_id', 'bigint').execute();
      await indexes(db, 'storage', ['order_id']);

      // What lists show: the activity with the products it applies to.
      const productIds =
        dialect === 'postgres'
          ? sql`(SELECT COALESCE(json_agg(ap.product_id ORDER BY ap.product_id), '[]'::json)::text FROM activity_product ap WHERE ap.activity_id = a.id)`
          : sql`(SELECT json_group_array(product_id) FROM (SELECT ap.product_id FROM activity_product ap WHERE ap.activity_id = a.id ORDER BY ap.product_id))`;
      await sql`CREATE VIEW activity_view AS SELECT a.*, ${productIds} AS product_ids FROM activity a`.execute(db);
    },
  };
}
