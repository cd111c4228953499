import { z } from 'zod';
import { fieldSchema } from '../../resources/define.js';
import { teamMember } from '../../resources/team_member.js';
import type { CallContext } from '../core/calls.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { invite } from '../team/invitations.js';
import { retireMailboxes } from '../mail/mailbox-deletion.js';
import { hashGivenPassword, revokeOnLockout } from './accounts.js';
import { teamDomainsBehaviour } from './team-domains.js';

export const customerBehaviour: ResourceBehaviour = {
  prepare: hashGivenPassword,
  after: revokeOnLockout('customer'),
  // The customer's mailboxes go with it (foreign keys); their mail goes the way of any deleted mailbox's.
  beforeRemove: (before, ctx) => retireMailboxes(ctx, { ownerId: before.id }, true),
};

const { email, username, domain_ids } = teamMember.fields;

export const teamMemberBehaviour: ResourceBehaviour = {
  // Members are invited, not made: the invitee chooses the password (server/team/invitations.ts).
  create: {
    summary: 'Invite a team member',
    input: z.object({ email: fieldSchema(email), username: fieldSchema(username).optional(), domain_ids: fieldSchema(domain_ids).optional() }),
    handler: (input, ctx) => invite(ctx as CallContext<'customer'>, input),
  },
  prepare: hashGivenPassword,
  check: teamDomainsBehaviour.check,
  async after(change, ctx) {
    await teamDomainsBehaviour.after(change, ctx);
    await revokeOnLockout('customer')!(change, ctx);
  },
};
