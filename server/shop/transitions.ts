/**
 * Order status changes: each is a guarded UPDATE from the states it may leave, plus a row in
 * the order's history. Exactly one of two racing changes wins; the loser changes nothing.
 */
import type { Updateable } from 'kysely';
import type { Db } from '../db/index.js';
import type { OrderHistoryRow, OrderRow, OrderStatus } from '../db/schema.js';
import { now } from '../core/time.js';
import type { Actor } from '../core/actor.js';

export interface Who {
  type: OrderHistoryRow['actor_type'];
  id: number | null;
  name: string;
}

export function whoOf(actor: Actor): Who {
  if (actor.kind === 'customer') return { type: 'customer', id: actor.accountId, name: actor.email };
  if (actor.kind === 'operator') return { type: 'operator', id: actor.id, name: actor.username };
  return { type: 'system', id: null, name: '' };
}

/** Moves the order to `to` if it is in one of `from`; true when this call moved it. */
export async function transition(
  trx: Db,
  orderId: number,
  from: OrderStatus[],
  to: OrderStatus,
  who: Who,
  reason: string,
  set: Updateable<OrderRow> = {},
): Promise<boolean> {
  const before = await trx.selectFrom('shop_order').select('status').where('id', '=', orderId).executeTakeFirst();
  if (!before || !from.includes(before.status)) return false;
  const at = now();
  const result = await trx
    .updateTable('shop_order')
    .set({ ...set, status: to, updated_at: at })
    .where('id', '=', orderId)
    .where('status', '=', before.status)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await recordHistory(trx, orderId, before.status, to, who, reason);
  return true;
}

export async function recordHistory(trx: Db, orderId: number, from: OrderStatus | null, to: OrderStatus, who: Who, reason: string) {
  await trx
    .insertInto('order_history')
    .values({ order_id: orderId, from_status: from, to_status: to, actor_type: who.type, actor_id: who.id, actor_name: who.name, reason: reason.slice(0, 500), created_at: now() })
    .execute();
}
