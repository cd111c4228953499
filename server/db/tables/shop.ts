/** The shop: products, promotions (activity), orders and their history, card payments, the points ledger. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

export type ProductKind = 'storage' | 'points';
export type ActivityKind = 'percent' | 'amount' | 'bonus_points';
export type OrderStatus = 'pending_payment' | 'paid' | 'fulfilled' | 'cancelled' | 'expired' | 'refunded';
export type PaymentMethod = 'points' | 'stripe';
export type LedgerReason = 'grant' | 'deduction' | 'order_payment' | 'refund' | 'topup' | 'bonus';

export interface ProductRow {
  id: Id;
  kind: ProductKind;
  name_zh: string;
  name_en: string;
  description_zh: string;
  description_en: string;
  /** In the shop currency's minor unit. */
  price: number;
  storage_size: number | null;
  /** Null: the block never expires. */
  period_months: number | null;
  points_granted: number | null;
  visible: number;
  sort_order: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ActivityRow {
  id: Id;
  name_zh: string;
  name_en: string;
  kind: ActivityKind;
  value: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  /** 0: no limit. */
  total_limit: number;
  per_customer_limit: number;
  first_order_only: number;
  code: string | null;
  used_count: Generated<number>;
  ended_early_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ActivityProductRow {
  activity_id: number;
  product_id: number;
}

export interface ActivityUseRow {
  id: Id;
  activity_id: number;
  order_id: number;
  owner_id: number;
  released_at: Timestamp | null;
  created_at: Timestamp;
}

export interface OrderRow {
  id: Id;
  /** The order's number for people (readable-number.ts); the id stays out of sight. */
  number: string;
  owner_id: number;
  placed_by: number;
  product_id: number;
  product_kind: ProductKind;
  product_name_zh: string;
  product_name_en: string;
  storage_size: number | null;
  period_months: number | null;
  points_granted: number | null;
  currency: string;
  price: number;
  discount: number;
  amount: number;
  bonus_points: number;
  activity_id: number | null;
  renew_storage_id: number | null;
  payment_method: PaymentMethod | null;
  status: OrderStatus;
  pay_before: Timestamp;
  paid_at: Timestamp | null;
  fulfilled_at: Timestamp | null;
  closed_at: Timestamp | null;
  storage_id: number | null;
  storage_previous_expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderHistoryRow {
  id: Id;
  order_id: number;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  actor_type: 'customer' | 'operator' | 'provider' | 'system';
  actor_id: number | null;
  actor_name: string;
  reason: string;
  created_at: Timestamp;
}

export interface PaymentRow {
  id: Id;
  order_id: number;
  provider: 'stripe';
  session_id: string;
  url: string;
  amount: number;
  currency: string;
  /** refund_due: paid for an order that could no longer take it; given back, then refunded. */
  status: 'open' | 'paid' | 'expired' | 'failed' | 'refund_due' | 'refunded';
  payment_intent: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PointsLedgerRow {
  id: Id;
  user_id: number;
  delta: number;
  balance_after: number;
  source: string;
  reason: LedgerReason;
  note: string;
  order_id: number | null;
  actor_type: 'customer' | 'operator' | 'provider' | 'system';
  actor_id: number | null;
  created_at: Timestamp;
}

export interface ShopTables {
  product: ProductRow;
  activity: ActivityRow;
  activity_product: ActivityProductRow;
  activity_use: ActivityUseRow;
  shop_order: OrderRow;
  order_history: OrderHistoryRow;
  payment: PaymentRow;
  points_ledger: PointsLedgerRow;
}
