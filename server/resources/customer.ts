import type { ResourceBehaviour } from '../core/resource-calls.js';
import { retireMailboxes } from '../mail/mailbox-deletion.js';
import { hashGivenPassword, revokeOnLockout } from './accounts.js';
import { teamDomainsBehaviour } from './team-domains.js';

export const customerBehaviour: ResourceBehaviour = {
  prepare: hashGivenPassword,
  after: revokeOnLockout('customer'),
  // The customer's mailboxes go with it (foreign keys); their mail goes the way of any deleted mailbox's.
  beforeRemove: (before, ctx) => retireMailboxes(ctx, { ownerId: before.id }, true),
};

export const teamMemberBehaviour: ResourceBehaviour = {
  prepare: hashGivenPassword,
  toRow(_input, change) {
    // The customer vouches for a member's address; members use the customer's storage settings.
    return change.op === 'create' ? { is_verified: 1, storage_max: 0 } : {};
  },
  check: teamDomainsBehaviour.check,
  async after(change, ctx) {
    await teamDomainsBehaviour.after(change, ctx);
    await revokeOnLockout('customer')!(change, ctx);
  },
};
