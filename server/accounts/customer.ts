/** Customers: their password stored hashed, their sessions ended when disabled, their mailboxes retired with them. */
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { retireMailboxes } from '../mail/mailbox-deletion.js';
import { hashGivenPassword, refuseSignInChangeByKey, revokeOnLockout } from './behaviours.js';

export const customerBehaviour: ResourceBehaviour = {
  prepare: hashGivenPassword,
  check: refuseSignInChangeByKey('email'),
  after: revokeOnLockout('customer'),
  // The customer's mailboxes go with it (foreign keys); their mail goes the way of any deleted mailbox's.
  beforeRemove: (before, ctx) => retireMailboxes(ctx, { ownerId: before.id }, true),
};
