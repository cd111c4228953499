/** Facts of the shop shared by its declarations, the server and the screens. */
import { z } from 'zod';

export const productKinds = ['storage', 'points'] as const;
export const activityKinds = ['percent', 'amount', 'bonus_points'] as const;
export const orderStatuses = ['pending_payment', 'paid', 'fulfilled', 'cancelled', 'expired', 'refunded'] as const;
export const paymentMethods = ['points', 'stripe'] as const;
export const ledgerReasons = ['grant', 'deduction', 'order_payment', 'refund', 'topup', 'bonus'] as const;

/** Largest price, discount or points figure the shop accepts, in minor units (10 billion). */
export const MAX_MONEY = 10_000_000_000;
/** Longest storage period a product may have (10 years). */
export const MAX_PERIOD_MONTHS = 120;

/** A whole positive amount of money or points: fractions, zero, negatives and huge values are refused. */
export const money = (min = 1) => z.number().int().min(min).max(MAX_MONEY);

/** An instant with its offset, stored as UTC ISO text (sorts as text on both databases). */
export const instant = z.iso.datetime({ offset: true }).transform((v) => new Date(v).toISOString());

/** The price a customer pays for a product today, as product lists and orders compute it. */
export interface Offer {
  price: number;
  discount: number;
  amount: number;
  bonus_points: number;
  activity_id: number | null;
}
