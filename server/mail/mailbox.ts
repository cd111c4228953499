/** Mailboxes: address from local part and domain, Dovecot-verifiable password, quota within capacity. */
import { fieldError } from '../core/errors.js';
import type { Change, ResourceBehaviour, WriteContext } from '../core/resource-calls.js';
import { checkMailboxQuota } from '../storage/capacity.js';
import { checkLimit, usableDomain } from './domain-of.js';
import { heldStates, refuseHeldAddress, retireMailboxes } from './mailbox-deletion.js';
import { hashMailboxPassword } from './mailbox-password.js';
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

// The domain toRow read for a new mailbox, which check needs too: read once per creation.
const domainOfNew = new WeakMap<Change, Awaited<ReturnType<typeof usableDomain>>>();

export const mailboxBehaviour: ResourceBehaviour = {
  // Hashed before the transaction opens.
  prepare: async (input) => (typeof input.password === 'string' ? { password_hash: await hashMailboxPassword(input.password) } : {}),
  async toRow(input, change, ctx) {
    if (change.op !== 'create') return {};
    const domain = await usableDomain(ctx, input.domain_id);
    domainOfNew.set(change, domain);
    const quota = input.quota ?? (await ctx.trx.selectFrom('user').select('storage_max').where('id', '=', domain.owner_id).executeTakeFirstOrThrow()).storage_max;
    return {
      owner_id: domain.owner_id,
      address: `${input.local_part}@${domain.name}`,
      address_unicode: `${input.local_part}@${domain.name_unicode}`,
      quota,
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
    if (change.op === 'create') {
      await refuseUnavailableAddress(ctx.trx, String(row.address), 'alias');
      await checkLimit(ctx.trx, 'mailbox', domain.id, domain.max_mailboxes, 'error.mailbox_limit', domain.name_unicode);
    }
    const previousQuota = change.op === 'update' ? Number(change.before!.quota) : 0;
    if (change.op === 'create' || Number(row.quota) !== previousQuota) {
      await checkMailboxQuota(ctx.trx, ctx.services.dialect, {
        ownerId: Number(row.owner_id),
        quota: Number(row.quota),
        previousQuota,
        domainMaxQuota: Number(domain.max_quota),
      });
    }
  },
  // Its mail stays on disk through the grace period, restorable by an operator, then a job removes it.
  beforeRemove: (before, ctx) => retireMailboxes(ctx, { mailboxId: before.id }),
};
