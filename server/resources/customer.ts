import type { ResourceBehaviour } from '../core/resource-calls.js';
import { hashGivenPassword, revokeOnLockout } from './accounts.js';
import { teamDomainsBehaviour } from './team-domains.js';

export const customerBehaviour: ResourceBehaviour = {
  toRow: hashGivenPassword,
  after: revokeOnLockout('customer'),
};

export const teamMemberBehaviour: ResourceBehaviour = {
  async toRow(input, change, ctx) {
    const hashed = await hashGivenPassword!(input, change, ctx);
    // The customer vouches for a member's address; members use the customer's storage settings.
    return change.op === 'create' ? { ...hashed, is_verified: 1, storage_max: 0 } : hashed;
  },
  check: teamDomainsBehaviour.check,
  async after(change, ctx) {
    await teamDomainsBehaviour.after(change, ctx);
    await revokeOnLockout('customer')!(change, ctx);
  },
};
