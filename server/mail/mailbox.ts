/** Mailboxes: address from local part and domain, Dovecot-verifiable password, quota within capacity. */
import { fieldError } from '../core/errors.js';
import type { Change, ResourceBehaviour, WriteContext } from '../core/resource-calls.js';
import { allocationFrom, allocationReads, checkMailboxQuota } from '../storage/capacity.js';
import { checkLimit, usableDomain } from './domain-of.js';
import { heldStates, refuseHeldAddress, retireMailboxes } from './mailbox-deletion.js';
import { hashMailboxPassword } from './mailbox-password.js';
import { placeMailbox } from './stores/placement.js';
import { endMailboxSessions } from '../mailbox-owners/sessions.js';

/**
 * An address is either a mailbox or an alias, never both (the mailbox is its own alias
 * already); and a deleted mailbox whose mail is still kept holds its address. `table` is the
 * other kind's. Both asked in one statement: a new mailbox or alias makes one round trip less.
 */
export async function refuseUnavailableAddress(trx: WriteContext['trx'], address: string, table: 'alias' | 'mailbox') {
  const found = await trx
    .selectNoFrom((eb) => [
      eb.selectFrom(table).select('id').where('address', '=', address).limit(1).as('clash'),
      eb.selectFrom('deleted_mailbox').select('id').where('address', '=', address).where('state', 'in', heldStates).limit(1).as('held'),
    ])
    .executeTakeFirstOrThrow();
  if (found.clash !== null) throw fieldError('local_part', 'validation.taken');
  // Why and until when it is held, read only when it is.
  if (found.held !== null) await refuseHeldAddress(trx, address, 'local_part');
}

/**
 * What a new mailbox needs to know, in one statement (its customer already locked by toRow):
 * its address is not another mailbox's (taken), nor an alias's, nor held by a deleted mailbox
 * whose mail is kept; the usage Dovecot may have written for it already (what mailbox_view
 * shows for it, so that the insert answers the record whole); and the customer's allocation for
 * the quota check. The generic uniqueness check of the address is this one's (checksUnique).
 */
async function newMailboxReads(trx: WriteContext['trx'], address: string, ownerId: number) {
  const found = await trx
    .selectNoFrom((eb) => [
      eb.selectFrom('mailbox').select('id').where('address', '=', address).limit(1).as('taken'),
      eb.selectFrom('alias').select('id').where('address', '=', address).limit(1).as('clash'),
      eb.selectFrom('deleted_mailbox').select('id').where('address', '=', address).where('state', 'in', heldStates).limit(1).as('held'),
      eb.selectFrom('mailbox_usage').select('bytes').where('address', '=', address).as('used_bytes'),
      eb.selectFrom('mailbox_usage').select('messages').where('address', '=', address).as('used_messages'),
      ...allocationReads(trx, ownerId),
    ])
    .executeTakeFirstOrThrow();
  if (found.taken !== null) throw fieldError('address', 'validation.taken');
  if (found.clash !== null) throw fieldError('local_part', 'validation.taken');
  if (found.held !== null) await refuseHeldAddress(trx, address, 'local_part');
  return { usage: { used_bytes: Number(found.used_bytes ?? 0), used_messages: Number(found.used_messages ?? 0) }, allocation: allocationFrom(found) };
}

// The domain toRow read for a new mailbox, which check needs too: read once per creation.
const domainOfNew = new WeakMap<Change, Awaited<ReturnType<typeof usableDomain>>>();

export const mailboxBehaviour: ResourceBehaviour = {
  checksUnique: ['address'],
  // Hashed before the transaction opens.
  prepare: async (input) => (typeof input.password === 'string' ? { password_hash: await hashMailboxPassword(input.password) } : {}),
  async toRow(input, change, ctx) {
    if (change.op !== 'create') return {};
    // Its customer locked with it: the quota check's allocation is then read with the address checks.
    const domain = await usableDomain(ctx, input.domain_id, { lockOwner: true });
    domainOfNew.set(change, domain);
    const quota = input.quota ?? (await ctx.trx.selectFrom('user').select('storage_max').where('id', '=', domain.owner_id).executeTakeFirstOrThrow()).storage_max;
    return {
      owner_id: domain.owner_id,
      address: `${input.local_part}@${domain.name}`,
      address_unicode: `${input.local_part}@${domain.name_unicode}`,
      quota,
      ...(await placeMailbox(ctx.trx, domain)),
    };
  },
  async check(change, ctx) {
    if (change.op === 'delete') return;
    const row = change.after!;
    // Deactivated, or its password set by someone else: its owner's sessions end with this change
    // (here, in its transaction, rather than in an `after` that would read every new mailbox again).
    if (change.op === 'update') {
      const deactivated = Number(change.before!.active) === 1 && Number(row.active) === 0;
      if (deactivated || (typeof row.password_hash === 'string' && row.password_hash !== change.before!.password_hash)) await endMailboxSessions(ctx.trx, { mailboxId: change.before!.id });
    }
    const domain = domainOfNew.get(change) ?? (await ctx.trx.selectFrom('domain').selectAll().where('id', '=', Number(row.domain_id)).executeTakeFirstOrThrow());
    let allocation;
    if (change.op === 'create') {
      const reads = await newMailboxReads(ctx.trx, String(row.address), Number(row.owner_id));
      // A new mailbox has no app passwords yet: the view's count is 0.
      change.viewValues = { ...reads.usage, app_passwords: 0 };
      allocation = reads.allocation;
      await checkLimit(ctx.trx, 'mailbox', domain.id, domain.max_mailboxes, 'error.mailbox_limit', domain.name_unicode);
    }
    const previousQuota = change.op === 'update' ? Number(change.before!.quota) : 0;
    if (change.op === 'create' || Number(row.quota) !== previousQuota) {
      await checkMailboxQuota(
        ctx.trx,
        ctx.services.dialect,
        { ownerId: Number(row.owner_id), quota: Number(row.quota), previousQuota, domainMaxQuota: Number(domain.max_quota) },
        allocation,
      );
    }
  },
  // Its mail stays on disk through the grace period, restorable by an operator, then a job removes it.
  beforeRemove: (before, ctx) => retireMailboxes(ctx, { mailboxId: before.id }),
};
