/**
 * The team: a customer's extra logins (team members), invited by e-mail and limited to chosen
 * domains (delegated domain administration).
 */
import { teamInvitation } from '../../resources/team_invitation.js';
import { teamMember } from '../../resources/team_member.js';
import { defineCapability } from '../core/capability.js';
import { daysAgo } from '../core/time.js';
import { teamInvitationCalls } from './invitation-calls.js';
import { teamMemberBehaviour } from './members.js';

export const team = defineCapability({
  name: 'team',
  resources: [{ declaration: teamMember, behaviour: teamMemberBehaviour }, { declaration: teamInvitation }],
  calls: teamInvitationCalls,
  housekeeping: [
    // Invitations never accepted, a month after their link ended (accepted ones stay: how a member came).
    async ({ db }) => {
      await db.deleteFrom('team_invitation').where('expires_at', '<=', daysAgo(30)).where('accepted_at', 'is', null).execute();
    },
  ],
});
