/**
 * Mail capacity: a customer's unexpired storage blocks bound the sum of their mailbox
 * quotas; storage_max bounds one mailbox, and so may a domain's max_quota. The one place
 * these rules are checked.
 */
import type { CapacitySummary } from '../../resources/storage.js';
import type { Db, Dialect } from '../db/index.js';
import { AppError, fieldError } from '../core/errors.js';
import { now } from '../core/time.js';
import { formatBytes } from '../../resources/bytes.js';

// What counts: blocks not yet expired, and the quota of every mailbox (active or not).
const unexpiredBlocks = (db: Db, ownerId: number, at: string) =>
  db
    .selectFrom('storage')
    .where('owner_id', '=', ownerId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]));
const mailboxesOf = (db: Db, ownerId: number) => db.selectFrom('mailbox').where('owner_id', '=', ownerId);

export async function capacityOf(db: Db, ownerId: number): Promise<CapacitySummary> {
  const at = now();
  const [blocks, quotas, usage, owner] = await Promise.all([
    unexpiredBlocks(db, ownerId, at)
      .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('capacity'), eb.fn.countAll<number>().as('count'), eb.fn.min('expires_at').as('next_expiry')])
      .executeTakeFirstOrThrow(),
    mailboxesOf(db, ownerId)
      .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('allocated'), eb.fn.countAll<number>().as('count')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mailbox')
      .innerJoin('mailbox_usage', 'mailbox_usage.address', 'mailbox.address')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('mailbox_usage.bytes'), eb.lit(0)).as('used'))
      .where('mailbox.owner_id', '=', ownerId)
      .executeTakeFirstOrThrow(),
    db.selectFrom('user').select('storage_max').where('id', '=', ownerId).executeTakeFirst(),
  ]);
  const capacity = Number(blocks.capacity);
  const allocated = Number(quotas.allocated);
  return {
    user_id: ownerId,
    capacity,
    allocated,
    used: Number(usage.used),
    available: Math.max(0, capacity - allocated),
    storage_max: Number(owner?.storage_max ?? 0),
    mailboxes: Number(quotas.count),
    active_blocks: Number(blocks.count),
    shortfall: Math.max(0, allocated - capacity),
    next_expiry: blocks.next_expiry ?? null,
  };
}

/**
 * Just what a quota decision needs, as subqueries of one statement (read while the customer is
 * locked): alone (allocationOf), or beside a creation's other reads (mailbox.ts).
 */
export const allocationReads = (db: Db, ownerId: number) => {
  const at = now();
  return [
    db.selectFrom('user').select('storage_max').where('id', '=', ownerId).as('storage_max'),
    unexpiredBlocks(db, ownerId, at)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('sum'))
      .as('capacity'),
    mailboxesOf(db, ownerId)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('sum'))
      .as('allocated'),
  ] as const;
};

export type Allocation = ReturnType<typeof allocationFrom>;

/** The allocation from the values of allocationReads. */
export function allocationFrom(row: { storage_max?: unknown; capacity?: unknown; allocated?: unknown } | undefined) {
  const capacity = Number(row?.capacity ?? 0);
  const allocated = Number(row?.allocated ?? 0);
  return { capacity, allocated, available: Math.max(0, capacity - allocated), storage_max: Number(row?.storage_max ?? 0) };
}

async function allocationOf(db: Db, ownerId: number) {
  return allocationFrom(await db.selectNoFrom(allocationReads(db, ownerId)).executeTakeFirst());
}

/** Serialises capacity decisions of one customer (PostgreSQL; SQLite writes one at a time anyway). */
export async function lockCustomer(trx: Db, dialect: Dialect, ownerId: number) {
  if (dialect === 'postgres') await trx.selectFrom('user').select('id').where('id', '=', ownerId).forUpdate().execute();
}

/** Refuses a mailbox quota the customer's settings, the domain or the capacity do not allow. */
export async function checkMailboxQuota(
  trx: Db,
  dialect: Dialect,
  request: { ownerId: number; quota: number; previousQuota: number; domainMaxQuota: number },
  /** The allocation, read (allocationReads) after the customer was locked (usableDomain's lockOwner). */
  lockedAllocation?: Allocation,
) {
  if (!lockedAllocation) await lockCustomer(trx, dialect, request.ownerId);
  const summary = lockedAllocation ?? (await allocationOf(trx, request.ownerId));
  if (request.quota > summary.storage_max) throw fieldError('quota', 'validation.quota_above_storage_max', { max: summary.storage_max, max_text: formatBytes(summary.storage_max) });
  if (request.domainMaxQuota > 0 && request.quota > request.domainMaxQuota) {
    throw fieldError('quota', 'validation.quota_above_domain_max', { max: request.domainMaxQuota, max_text: formatBytes(request.domainMaxQuota) });
  }
  const needed = request.quota - request.previousQuota;
  if (needed > 0 && summary.allocated + needed > summary.capacity) {
    // How much to buy or free: also after a block expired with the quotas above what is left.
    const shortfall = summary.allocated + needed - summary.capacity;
    const params = {
      capacity: summary.capacity,
      allocated: summary.allocated,
      available: summary.available,
      requested: request.quota,
      shortfall,
      capacity_text: formatBytes(summary.capacity),
      available_text: formatBytes(summary.available),
      shortfall_text: formatBytes(shortfall),
    };
    throw new AppError('conflict', 'error.capacity_exceeded', params, { quota: { message: 'validation.capacity_exceeded', params } });
  }
}
