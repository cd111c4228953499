/** Team members: invited rather than made, their password hashed, their domains kept, their sessions ended when disabled. */
import { z } from 'zod';
import { fieldSchema } from '../../resources/define.js';
import { teamMember } from '../../resources/team_member.js';
import { hashGivenPassword, revokeOnLockout } from '../accounts/behaviours.js';
import { customerContext } from '../core/calls.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { teamDomainsBehaviour } from './domains.js';
import { invite } from './invitations.js';

const { email, username, domain_ids } = teamMember.fields;

export const teamMemberBehaviour: ResourceBehaviour = {
  // Members are invited, not made: the invitee chooses the password (server/team/invitations.ts).
  calls: {
    create: {
      summary: 'Invite a team member',
      input: z.object({ email: fieldSchema(email), username: fieldSchema(username).optional(), domain_ids: fieldSchema(domain_ids).optional() }),
      handler: (input, ctx) => invite(customerContext(ctx), input),
    },
  },
  prepare: hashGivenPassword,
  check: teamDomainsBehaviour.check,
  async after(change, ctx) {
    await teamDomainsBehaviour.after(change, ctx);
    await revokeOnLockout('customer')!(change, ctx);
  },
};
