/**
 * Fulfilment: what a paid order gives. Runs for the one row whose status it moves from paid
 * to fulfilled (a guarded UPDATE), so it happens once however often it is asked for.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { Services } from '../core/services.js';
import type { OrderRow } from '../db/schema.js';
import { now } from '../core/time.js';
import { changePoints } from './points.js';
import { transition, type Who } from './transitions.js';
import { sendOrderPaidMail } from './order-mail.js';

type Order = Selectable<OrderRow>;

/** The date `months` after `from` (clamped to the month's last day, as calendars do). */
export function addMonths(from: string, months: number): string {
  const date = new Date(from);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date.toISOString();
}

/**
 * Makes a capacity block, or extends the customer's block `renewStorageId` by the period
 * (from its expiry, or from now when it has lapsed). The one place bought storage is granted;
 * renewals call it with the block to extend.
 */
export async function grantStorage(
  trx: Db,
  grant: { ownerId: number; size: number; periodMonths: number | null; orderId: number; label: string; renewStorageId?: number | null },
): Promise<{ storageId: number; previousExpiresAt: string | null; extended: boolean }> {
  const at = now();
  if (grant.renewStorageId) {
    const block = await trx
      .selectFrom('storage')
      .select(['id', 'expires_at'])
      .where('id', '=', grant.renewStorageId)
      .where('owner_id', '=', grant.ownerId)
      .executeTakeFirst();
    if (block) {
      const from = block.expires_at && block.expires_at > at ? block.expires_at : at;
      const expires = grant.periodMonths === null || block.expires_at === null ? null : addMonths(from, grant.periodMonths);
      // next_notice_at now: the storage notices schedule plans the reminders for the new expiry (server/storage/expiry.ts).
      await trx.updateTable('storage').set({ expires_at: expires, next_notice_at: expires && at, order_id: grant.orderId, updated_at: at }).where('id', '=', block.id).execute();
      return { storageId: Number(block.id), previousExpiresAt: block.expires_at, extended: true };
    }
  }
  const { id } = await trx
    .insertInto('storage')
    .values({
      owner_id: grant.ownerId,
      size: grant.size,
      source: 'order',
      label: grant.label.slice(0, 120),
      expires_at: grant.periodMonths === null ? null : addMonths(at, grant.periodMonths),
      order_id: grant.orderId,
      next_notice_at: grant.periodMonths === null ? null : at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { storageId: Number(id), previousExpiresAt: null, extended: false };
}

export type ShopServices = Pick<Services, 'dialect' | 'config' | 'mailer' | 'jobs'>;

/** Fulfils a paid order once: storage granted or extended, points credited, bonus credited, the customer told. */
export async function fulfilOrder(trx: Db, services: ShopServices, orderId: number, who: Who = { type: 'system', id: null, name: '' }): Promise<boolean> {
  const { dialect } = services;
  const at = now();
  if (!(await transition(trx, orderId, ['paid'], 'fulfilled', who, 'fulfilled', { fulfilled_at: at }))) return false;
  const order = (await trx.selectFrom('shop_order').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow()) as Order;
  const source = `order:${order.id}`;
  const actor = { type: 'system' as const, id: null };
  if (order.product_kind === 'storage') {
    // The block is labelled in the customer's language (they may rename it).
    const owner = await trx.selectFrom('user').select('locale').where('id', '=', order.owner_id).executeTakeFirst();
    const granted = await grantStorage(trx, {
      ownerId: Number(order.owner_id),
      size: Number(order.storage_size),
      periodMonths: order.period_months === null ? null : Number(order.period_months),
      orderId: Number(order.id),
      label: owner?.locale === 'en' ? order.product_name_en : order.product_name_zh,
      renewStorageId: order.renew_storage_id === null ? null : Number(order.renew_storage_id),
    });
    await trx
      .updateTable('shop_order')
      .set({ storage_id: granted.storageId, storage_previous_expires_at: granted.previousExpiresAt })
      .where('id', '=', orderId)
      .execute();
  } else {
    await changePoints(trx, dialect, { userId: Number(order.owner_id), delta: Number(order.points_granted), source, reason: 'topup', orderId: Number(order.id), actor });
  }
  if (Number(order.bonus_points) > 0) {
    await changePoints(trx, dialect, { userId: Number(order.owner_id), delta: Number(order.bonus_points), source, reason: 'bonus', orderId: Number(order.id), actor });
  }
  await sendOrderPaidMail(trx, services, orderId);
  return true;
}
