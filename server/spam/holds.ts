/**
 * Held mailboxes: a mailbox that submitted spam (over the operators' reject score) or far more
 * than it usually sends is held — Postfix refuses its submissions (mail_held_mailbox) — and the
 * customer and the operators are told, in the transaction that holds it. The customer's team or an
 * operator releases it.
 */
import type { Locale } from '../../resources/customer.js';
import { audit, systemOrigin, type RequestOrigin } from '../core/audit.js';
import { notFound } from '../core/errors.js';
import type { Services } from '../core/services.js';
import { now, nowMs } from '../core/time.js';
import type { Db } from '../db/index.js';

export type HoldReason = 'spam' | 'rate';

const localeOf = (locale: string | null | undefined): Locale => (locale === 'en' ? 'en' : 'zh');

/** Holds the mailbox (once: a held mailbox stays as it was held) and queues the notices. */
export async function holdMailbox(services: Services, mailbox: { id: number; address: string; owner_id: number }, reason: HoldReason, detail: string) {
  await services.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('spam_hold')
      .values({ mailbox_id: mailbox.id, owner_id: mailbox.owner_id, address: mailbox.address, reason, detail, held_at: now() })
      .onConflict((oc) => oc.column('mailbox_id').doNothing())
      .returning('mailbox_id')
      .executeTakeFirst();
    if (!inserted) return;
    await audit(trx, systemOrigin('spam'), { action: 'hold', targetType: 'email', targetId: mailbox.id, userId: mailbox.owner_id, after: { address: mailbox.address, reason, detail } });
    for (const notice of await noticesOf(trx, services, mailbox, reason, detail)) await services.mailer.send(trx, notice);
  });
}

async function noticesOf(db: Db, services: Services, mailbox: { id: number; address: string; owner_id: number }, reason: HoldReason, detail: string) {
  const params = { address: mailbox.address, reason, detail };
  const customer = await db.selectFrom('user').select(['email', 'locale']).where('id', '=', mailbox.owner_id).executeTakeFirst();
  const operators = await db.selectFrom('admin').select(['email', 'locale']).where('status', '=', 'active').where('role', 'in', ['superadmin', 'support']).where('email', 'is not', null).where('email', '!=', '').execute();
  return [
    ...(customer ? [{ key: 'mailbox_held' as const, locale: localeOf(customer.locale), to: customer.email, params: { ...params, link: `${services.config.publicUrl}/admin/spam_held` }, userId: mailbox.owner_id }] : []),
    ...operators.map((o) => ({ key: 'mailbox_held' as const, locale: localeOf(o.locale), to: String(o.email), params: { ...params, link: `${services.config.publicUrl}/manage/spam_held` }, userId: mailbox.owner_id })),
  ];
}

/** Lets the mailbox of `ownerId` (as the caller found it) send again; not found when it is not held. */
export async function releaseMailbox(db: Db, origin: RequestOrigin, mailboxId: number, ownerId: number) {
  return db.transaction().execute(async (trx) => {
    const released = await trx
      .deleteFrom('spam_hold')
      .where('mailbox_id', '=', mailboxId)
      .where('owner_id', '=', ownerId)
      .returning(['mailbox_id', 'owner_id', 'address', 'reason'])
      .executeTakeFirst();
    if (!released) throw notFound();
    // This hour's count starts again, or the next message would hold it at once.
    await trx.deleteFrom('spam_sent_hour').where('mailbox_id', '=', mailboxId).where('hour', '=', hourOf(nowMs())).execute();
    await audit(trx, origin, { action: 'release', targetType: 'email', targetId: mailboxId, userId: Number(released.owner_id), before: { address: released.address, reason: released.reason } });
    return { mailbox_id: mailboxId, address: released.address, released: true };
  });
}

/** "2026-11-27T14": the UTC hour a submission is counted in. */
export const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/**
 * Counts a submitted message and holds the mailbox when this hour's count passes both the
 * operators' floor and rate_factor times its usual rate (its busiest hour of the last 7 days).
 */
export async function countSubmission(services: Services, mailbox: { id: number; address: string; owner_id: number }, limits: { hourly_floor: number; rate_factor: number }) {
  const { db } = services;
  const hour = hourOf(nowMs());
  await db
    .insertInto('spam_sent_hour')
    .values({ mailbox_id: mailbox.id, hour, messages: 1 })
    .onConflict((oc) => oc.columns(['mailbox_id', 'hour']).doUpdateSet((eb) => ({ messages: eb('spam_sent_hour.messages', '+', 1) })))
    .execute();
  const rows = await db.selectFrom('spam_sent_hour').select(['hour', 'messages']).where('mailbox_id', '=', mailbox.id).where('hour', '>=', hourOf(nowMs() - 7 * 86_400_000)).execute();
  const current = Number(rows.find((r) => r.hour === hour)?.messages ?? 0);
  const usual = Math.max(0, ...rows.filter((r) => r.hour !== hour).map((r) => Number(r.messages)));
  if (current > limits.hourly_floor && current > usual * limits.rate_factor) {
    await holdMailbox(services, mailbox, 'rate', `${current} messages this hour (usually at most ${usual})`);
  }
}
