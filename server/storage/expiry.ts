/**
 * Storage blocks over time. A block with an expiry tells its owner STORAGE_REMINDER_DAYS
 * before it runs out, and once more when it has. Expiry itself needs no action: capacity
 * counts only unexpired blocks (server/mail/capacity.ts), so from that moment new or larger
 * quotas are refused while every mailbox keeps receiving and signing in.
 *
 * Each block carries when its next notice is due (next_notice_at); the notices schedule reads
 * that by index range. A notice is claimed by a guarded UPDATE of that column and recorded as
 * a storage_notice row whose unique key (block, expiry, kind, days) lets it happen once, in
 * the same transaction as the mail it queues. A process that was down catches up with one
 * notice: the most urgent one still due, never every threshold it missed.
 *
 * Whoever changes an expiry without knowing the thresholds (the shop's fulfilment) sets
 * next_notice_at to now: the next run finds nothing due yet and schedules the real notice.
 */
import { formatBytes } from '../../resources/bytes.js';
import type { Locale } from '../../resources/customer.js';
import { capacityOf } from './capacity.js';
import { DAY_MS, now, timeText } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { Services } from '../core/services.js';


/** The next notice after `at`: the earliest reminder still ahead, else the expiry itself; none once expired. */
export function nextNoticeAt(expiresAt: string | null, at: string, reminderDays: number[]): string | null {
  if (!expiresAt) return null;
  const expiry = Date.parse(expiresAt);
  const time = Date.parse(at);
  if (expiry <= time) return null;
  const ahead = reminderDays.map((days) => expiry - days * DAY_MS).filter((ms) => ms > time);
  return new Date(ahead.length > 0 ? Math.min(...ahead) : expiry).toISOString();
}

/**
 * When a block's expiry is set (made, renewed, extended, ended): its first notice. A block
 * ended now is due for its expiry notice at once; one made already expired gets none.
 */
export function firstNoticeAt(expiresAt: string | null, at: string, reminderDays: number[], { endedNow = false } = {}): string | null {
  if (!expiresAt) return null;
  if (Date.parse(expiresAt) <= Date.parse(at)) return endedNow ? new Date(expiresAt).toISOString() : null;
  return nextNoticeAt(expiresAt, at, reminderDays);
}

/** An expiry as every layer stores it: ISO 8601 UTC, so that it compares as text. */
export const asStoredTime = (value: string | null | undefined) => (value == null ? value : new Date(value).toISOString());

/** Sends every notice that is due, in batches; returns how many went out. */
export async function sendDueNotices(services: Pick<Services, 'db' | 'dialect' | 'config' | 'mailer'>, batch = 200): Promise<number> {
  let sent = 0;
  for (;;) {
    const due = await services.db
      .selectFrom('storage')
      .select('id')
      .where('next_notice_at', '<=', now())
      .orderBy('next_notice_at')
      .limit(batch)
      .execute();
    for (const { id } of due) if (await sendNotice(services, id)) sent++;
    if (due.length < batch) return sent;
  }
}

/** One block's due notice, once; false when there was none to send (or another run sent it). */
export async function sendNotice(services: Pick<Services, 'db' | 'dialect' | 'config' | 'mailer'>, blockId: number): Promise<boolean> {
  return services.db.transaction().execute(async (trx) => {
    const at = now();
    const block = await trx.selectFrom('storage').selectAll().where('id', '=', blockId).executeTakeFirst();
    if (!block?.next_notice_at || block.next_notice_at > at || !block.expires_at) return false;
    const expired = block.expires_at <= at;
    const reminderDays = services.config.storageReminderDays;
    // Claim the notice: of two runs that read the same block, one changes the row.
    const claimed = await trx
      .updateTable('storage')
      .set({ next_notice_at: expired ? null : nextNoticeAt(block.expires_at, at, reminderDays) })
      .where('id', '=', block.id)
      .where('next_notice_at', '=', block.next_notice_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;

    const left = Date.parse(block.expires_at) - Date.parse(at);
    // The threshold crossed: the smallest one the time left is within, among those still ahead
    // when the expiry was set (a block bought for 28 days gets no "30 days" reminder).
    const setAt = Date.parse(block.updated_at);
    const expiry = Date.parse(block.expires_at);
    const days = expired ? 0 : reminderDays.filter((d) => d * DAY_MS >= left && expiry - d * DAY_MS > setAt).at(-1);
    // Scheduled early (a renewal moved the expiry, or the shop asks for scheduling): only moved on.
    if (days === undefined) return false;
    const capacity = expired ? await capacityOf(trx, block.owner_id) : undefined;
    const shortfall = capacity ? Math.max(0, capacity.allocated - capacity.capacity) : 0;
    const recorded = await trx
      .insertInto('storage_notice')
      .values({ storage_id: block.id, owner_id: block.owner_id, kind: expired ? 'expired' : 'reminder', days, expires_at: block.expires_at, shortfall, created_at: at })
      .onConflict((oc) => oc.columns(['storage_id', 'expires_at', 'kind', 'days']).doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) !== 1) return false;

    const owner = await trx.selectFrom('user').select(['email', 'locale']).where('id', '=', block.owner_id).executeTakeFirstOrThrow();
    const params: Record<string, string | number> = {
      size: formatBytes(block.size),
      label: block.label ? `"${block.label}" ` : '',
      expires_on: timeText(block.expires_at),
      days: Math.ceil(left / DAY_MS),
    };
    if (capacity) Object.assign(params, { capacity: formatBytes(capacity.capacity), allocated: formatBytes(capacity.allocated), shortfall: formatBytes(shortfall) });
    const key = !expired ? 'storage_reminder' : shortfall > 0 ? 'storage_over_capacity' : 'storage_expired';
    // Queued in this transaction: the notice and its mail exist together or not at all.
    await services.mailer.send(trx, { key, locale: owner.locale as Locale, to: owner.email, params, userId: block.owner_id });
    return true;
  });
}

/** Customers whose quotas exceeded their capacity when a block expired and still do (newest first). */
export async function customersOverCapacity(db: Db, limit = 20) {
  const notices = await db
    .selectFrom('storage_notice')
    .innerJoin('user', 'user.id', 'storage_notice.owner_id')
    .select(['storage_notice.owner_id', 'user.email', 'storage_notice.created_at'])
    .where('storage_notice.kind', '=', 'expired')
    .where('storage_notice.shortfall', '>', 0)
    .orderBy('storage_notice.id', 'desc')
    .limit(limit * 5)
    .execute();
  const seen = new Set<number>();
  const over = [];
  for (const notice of notices) {
    if (seen.has(notice.owner_id) || over.length >= limit) continue;
    seen.add(notice.owner_id);
    const summary = await capacityOf(db, notice.owner_id);
    const shortfall = summary.allocated - summary.capacity;
    if (shortfall > 0) over.push({ user_id: notice.owner_id, email: notice.email, capacity: summary.capacity, allocated: summary.allocated, shortfall, since: notice.created_at });
  }
  return over;
}
