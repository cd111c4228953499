/**
 * The points balance changes only here: one ledger row per change, with the balance after
 * it; one row per (source, reason), so a second grant for the same source is impossible;
 * never below zero.
 */
import type { LedgerReason, PointsLedgerRow } from '../db/schema.js';
import type { Db, Dialect } from '../db/index.js';
import { AppError } from '../core/errors.js';
import { now } from '../core/time.js';
import { lockCustomer } from '../storage/capacity.js';

export interface PointsChange {
  userId: number;
  /** Positive: credited; negative: taken. */
  delta: number;
  /** What caused it: 'order:12', 'grant:<key>'. With `reason`, unique. */
  source: string;
  reason: LedgerReason;
  note?: string;
  orderId?: number | null;
  actor: { type: PointsLedgerRow['actor_type']; id: number | null };
}

/** Applies a change once. Returns false when that (source, reason) is already in the ledger. */
export async function changePoints(trx: Db, dialect: Dialect, change: PointsChange): Promise<{ applied: boolean; balance: number }> {
  await lockCustomer(trx, dialect, change.userId);
  const seen = await trx
    .selectFrom('points_ledger')
    .select('id')
    .where('source', '=', change.source)
    .where('reason', '=', change.reason)
    .executeTakeFirst();
  const current = await trx.selectFrom('user').select('points').where('id', '=', change.userId).executeTakeFirstOrThrow();
  if (seen) return { applied: false, balance: Number(current.points) };
  const balance = Number(current.points) + change.delta;
  if (balance < 0) throw new AppError('conflict', 'shop.points_insufficient', { balance: Number(current.points), needed: -change.delta });
  // Guarded: the balance moves only from the value the ledger row is computed from.
  const updated = await trx
    .updateTable('user')
    .set({ points: balance })
    .where('id', '=', change.userId)
    .where('points', '=', Number(current.points))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new AppError('conflict', 'shop.points_busy');
  await trx
    .insertInto('points_ledger')
    .values({
      user_id: change.userId,
      delta: change.delta,
      balance_after: balance,
      source: change.source,
      reason: change.reason,
      note: change.note ?? '',
      order_id: change.orderId ?? null,
      actor_type: change.actor.type,
      actor_id: change.actor.id,
      created_at: now(),
    })
    .execute();
  return { applied: true, balance };
}
