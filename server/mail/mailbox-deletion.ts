/**
 * Mailbox deletion as a lifecycle. Deleting a mailbox stops its mail at once (it
 * leaves the mail_* views), but its mail stays on disk for MAILBOX_DELETE_GRACE_DAYS: a
 * deleted_mailbox row keeps what restoring it needs, and a job queued in the same transaction
 * removes (or archives) its home directory when the grace period ends. Until then an operator
 * can restore it, and the address stays reserved: a new mailbox of that address would get the
 * same home directory, and read the old mail. Once its mail is gone (or it was restored), the
 * record is kept DELETED_MAILBOX_RETENTION_DAYS for support's questions, then housekeeping
 * removes it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { archivedHome, mailboxHome } from '../../deploy/mail-store.js';
import { formatBytes } from '../../resources/bytes.js';
import { deletedMailbox as deletedMailboxResource } from '../../resources/deleted_mailbox.js';
import { mailbox as mailboxResource } from '../../resources/mailbox.js';
import { actorForLog } from '../core/actor.js';
import { audit, systemOrigin } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError, notFound } from '../core/errors.js';
import { type WriteContext } from '../core/resource-calls.js';
import { findVisible } from '../core/scope.js';
import { DAY_MS, daysAgo, now, nowMs, timeText } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { DeletedMailboxState } from '../db/schema.js';
import { defineJob } from '../core/jobs.js';
import type { Services } from '../core/services.js';
import { checkMailboxQuota } from '../storage/capacity.js';
import { checkLimit } from './domain-of.js';


/** Removes or archives a deleted mailbox's mail once its grace period is over; nothing if it was restored. */
export const purgeMailboxJob = defineJob<{ deletedMailboxId: number }>({
  name: 'mailbox.purge',
  retryDelaySeconds: 60,
  // Removing a home of many gigabytes takes as long as the disk needs: never in front of the mail people wait for.
  lane: 'long',
  handler: ({ deletedMailboxId }, { services }) => purgeDeletedMailbox(services, deletedMailboxId),
});

/**
 * Records the mailbox (or every mailbox of a customer being deleted) as deleted, and queues the
 * removal of its mail after the grace period. Called just before the rows are deleted, in the
 * same transaction. `audited`: whether to log each mailbox (a customer's deletion takes its
 * mailboxes along without their own delete calls).
 */
export async function retireMailboxes(ctx: WriteContext, which: { mailboxId: number } | { ownerId: number }, audited = false) {
  const { config, jobs } = ctx.services;
  let query = ctx.trx
    .selectFrom('mailbox as m')
    .innerJoin('domain as d', 'd.id', 'm.domain_id')
    .leftJoin('mailbox_usage as u', 'u.address', 'm.address')
    .selectAll('m')
    .select(['d.name as domain', 'u.bytes', 'u.messages']);
  query = 'mailboxId' in which ? query.where('m.id', '=', which.mailboxId) : query.where('m.owner_id', '=', which.ownerId);
  const boxes = await query.execute();
  const at = nowMs();
  const deletedAt = new Date(at).toISOString();
  const purgeAfter = new Date(at + config.mailboxDeleteGraceDays * DAY_MS);
  const by = actorForLog(ctx.actor);
  for (const box of boxes) {
    const { id } = await ctx.trx
      .insertInto('deleted_mailbox')
      .values({
        mailbox_id: Number(box.id),
        owner_id: box.owner_id,
        domain_id: box.domain_id,
        domain: box.domain,
        local_part: box.local_part,
        address: box.address,
        address_unicode: box.address_unicode,
        name: box.name,
        quota: box.quota,
        active: box.active,
        password_hash: box.password_hash,
        delivery_checked_at: box.delivery_checked_at,
        mailbox_created_at: box.created_at,
        used_bytes: Number(box.bytes ?? 0),
        used_messages: Number(box.messages ?? 0),
        state: 'pending',
        deleted_at: deletedAt,
        deleted_by_type: by.actor_type,
        deleted_by: by.actor_name,
        purge_after: purgeAfter.toISOString(),
        store_path: mailboxHome(config.mailDir, box.domain, box.local_part),
        store_id: box.store_id,
        placement: box.placement,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await jobs.enqueue(ctx.trx, purgeMailboxJob, { deletedMailboxId: Number(id) }, { uniqueKey: `deleted_mailbox:${id}`, startAfter: purgeAfter });
    // The usage belongs to this mailbox (kept on the row above); a later one of the same address starts afresh.
    await ctx.trx.deleteFrom('mailbox_usage').where('address', '=', box.address).execute();
    if (audited) {
      await audit(ctx.trx, ctx, { action: 'delete', targetType: mailboxResource.name, targetId: Number(box.id), userId: box.owner_id, before: { address_unicode: box.address_unicode, name: box.name, quota: box.quota } });
    }
  }
}

/** The states of a deleted mailbox whose mail is still on disk: its address stays reserved. */
export const heldStates: DeletedMailboxState[] = ['pending', 'purging'];

/**
 * Refuses an address whose deleted mailbox still has its mail on disk, saying until when an
 * operator can restore it (after that the address is free).
 */
export async function refuseHeldAddress(db: Db, address: string, field: string) {
  const held = await db.selectFrom('deleted_mailbox').select(['address_unicode', 'state', 'purge_after']).where('address', '=', address).where('state', 'in', heldStates).executeTakeFirst();
  if (!held) return;
  const params = { address: held.address_unicode, until: held.purge_after, until_text: timeText(held.purge_after) };
  const key = held.state === 'pending' ? 'address_of_deleted_mailbox' : 'address_being_purged';
  throw new AppError('conflict', `error.${key}`, params, { [field]: { message: `validation.${key}`, params } });
}

/**
 * An operator brings a deleted mailbox back, while its mail is still there: the same record (id,
 * address, password, name, quota), if the domain is still the customer's and the domain's limit
 * and the customer's capacity allow it. The queued purge then finds it restored and does nothing.
 */
export async function restoreDeletedMailbox(ctx: CallContext<'operator'>, id: number) {
  const { db, dialect } = ctx.services;
  const mailboxId = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('deleted_mailbox').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    const address = row.address_unicode;
    if (row.state !== 'pending') throw new AppError('conflict', 'error.mailbox_not_restorable', { address, state: row.state });
    // The domain by name: the customer may have removed and added it again meanwhile.
    const domain = await trx.selectFrom('domain').selectAll().where('name', '=', row.domain).where('owner_id', '=', row.owner_id).executeTakeFirst();
    if (!domain) throw new AppError('conflict', 'error.restore_domain_gone', { address, domain: address.slice(address.lastIndexOf('@') + 1) });
    const [alias, box] = await Promise.all([
      trx.selectFrom('alias').select('id').where('address', '=', row.address).executeTakeFirst(),
      trx.selectFrom('mailbox').select('id').where('address', '=', row.address).executeTakeFirst(),
    ]);
    if (alias || box) throw new AppError('conflict', 'error.restore_address_taken', { address });
    await checkLimit(trx, 'mailbox', domain.id, domain.max_mailboxes, 'error.mailbox_limit', domain.name_unicode);
    await checkMailboxQuota(trx, dialect, { ownerId: row.owner_id, quota: row.quota, previousQuota: 0, domainMaxQuota: domain.max_quota }).catch((error) => {
      // The quota is the mailbox's own, not a field the operator typed: say so in one sentence.
      const quota = error instanceof AppError ? error.errors?.quota : undefined;
      if (quota && error.kind === 'validation') {
        const max = Number(quota.params?.max);
        throw new AppError('conflict', 'error.restore_quota_above_max', { address, quota: row.quota, max, quota_text: formatBytes(row.quota), max_text: formatBytes(max) });
      }
      throw error;
    });

    const at = now();
    const claimed = await trx
      .updateTable('deleted_mailbox')
      .set({ state: 'restored', finished_at: at, finished_by: ctx.actor.username })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError('conflict', 'error.mailbox_not_restorable', { address, state: 'purging' });
    await trx
      .insertInto('mailbox')
      .values({
        id: row.mailbox_id,
        owner_id: row.owner_id,
        domain_id: domain.id,
        local_part: row.local_part,
        address: row.address,
        address_unicode: row.address_unicode,
        password_hash: row.password_hash,
        name: row.name,
        quota: row.quota,
        active: row.active,
        delivery_checked_at: row.delivery_checked_at,
        // Where its mail still is.
        store_id: row.store_id,
        placement: row.placement,
        created_at: row.mailbox_created_at,
        updated_at: at,
      })
      .execute();
    // Until Dovecot next writes it, the usage it wrote last.
    await trx
      .insertInto('mailbox_usage')
      .values({ address: row.address, bytes: row.used_bytes, messages: row.used_messages })
      .onConflict((oc) => oc.column('address').doNothing())
      .execute();
    await audit(trx, ctx, {
      action: 'restore',
      targetType: mailboxResource.name,
      targetId: row.mailbox_id,
      userId: row.owner_id,
      after: { address_unicode: address, name: row.name, quota: row.quota, deleted_at: row.deleted_at },
    });
    return row.mailbox_id;
  });
  return findVisible(mailboxResource, 'manage', ctx, mailboxId);
}

const exists = (p: string) =>
  fs.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

/**
 * The purge job's work. Idempotent: a row restored or already done is left alone, and a run cut
 * short runs again from `purging` (removing what is left, or finding the archive already made).
 */
export async function purgeDeletedMailbox(services: Services, id: number) {
  const { db, config } = services;
  const row = await db.selectFrom('deleted_mailbox').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || (row.state !== 'pending' && row.state !== 'purging')) return;
  // A store this host cannot see is an error to retry and show on the jobs page, not "no mail".
  if (!(await exists(config.mailDir))) throw new Error(`The mail store ${config.mailDir} (MAIL_DIR) is not reachable from this host`);
  // From here on the mailbox cannot be restored: its mail is going.
  const claimed = await db.updateTable('deleted_mailbox').set({ state: 'purging' }).where('id', '=', id).where('state', 'in', ['pending', 'purging']).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return;

  const home = mailboxHome(config.mailDir, row.domain, row.local_part);
  let outcome: 'removed' | 'archived' | 'nothing_on_disk' = 'nothing_on_disk';
  let archivePath: string | null = null;
  if (config.mailboxDeleteMode === 'archive') {
    const target = archivedHome(config.mailDir, row.domain, row.local_part, row.id);
    if (await exists(home)) {
      await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o750 });
      await fs.rename(home, target);
    }
    if (await exists(target)) [outcome, archivePath] = ['archived', target];
  } else if (await exists(home)) {
    await fs.rm(home, { recursive: true, force: true });
    outcome = 'removed';
  }

  await db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('deleted_mailbox')
      .set({ state: outcome === 'archived' ? 'archived' : 'purged', outcome, finished_at: now(), finished_by: 'system', store_path: home, archive_path: archivePath })
      .where('id', '=', id)
      .where('state', '=', 'purging')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return;
    await audit(trx, systemOrigin(purgeMailboxJob.name), {
      action: outcome === 'archived' ? 'archive_mail' : 'purge_mail',
      targetType: mailboxResource.name,
      targetId: row.mailbox_id,
      userId: row.owner_id,
      after: { address_unicode: row.address_unicode, outcome },
    });
  });
}

/** The states of a deleted mailbox whose story is over: its mail removed or archived, or the mailbox restored. */
const finishedStates: DeletedMailboxState[] = ['purged', 'archived', 'restored'];
const forgetBatch = 500;

/**
 * Housekeeping: records finished longer ago than DELETED_MAILBOX_RETENTION_DAYS go, each logged
 * as the system deleting it (with where an archive lies, which only the record said). Pending
 * and purging ones never: their mail is still on disk and their address reserved.
 */
export async function forgetFinishedDeletions({ db, config }: Services) {
  const cutoff = daysAgo(config.deletedMailboxRetentionDays);
  for (;;) {
    const due = await db.selectFrom('deleted_mailbox').select('id').where('state', 'in', finishedStates).where('finished_at', '<', cutoff).orderBy('id').limit(forgetBatch).execute();
    if (due.length === 0) return;
    await db.transaction().execute(async (trx) => {
      // Logged as deleted only what this run deleted (another instance's run may have been first).
      const removed = await trx
        .deleteFrom('deleted_mailbox')
        .where('id', 'in', due.map((row) => row.id))
        .where('state', 'in', finishedStates)
        .returning(['id', 'owner_id', 'address_unicode', 'state', 'deleted_at', 'finished_at', 'archive_path'])
        .execute();
      const origin = systemOrigin('housekeeping');
      // In id order: PostgreSQL returns deleted rows in no fixed order.
      for (const { id, owner_id, ...record } of removed.sort((x, y) => Number(x.id) - Number(y.id))) {
        await audit(trx, origin, { action: 'delete', targetType: deletedMailboxResource.name, targetId: id, userId: owner_id, before: record });
      }
    });
    if (due.length < forgetBatch) return;
  }
}
