/** The calls of team-member invitations beside the derived ones (server/team/invitations.ts). */
import { z } from 'zod';
import { fieldSchema } from '../../resources/define.js';
import { teamMember } from '../../resources/team_member.js';
import { defineCall } from '../core/calls.js';
import { idInput } from '../core/resource-calls.js';
import { acceptInvitation, resendInvitation } from './invitations.js';

export const teamInvitationCalls = [
  defineCall({
    method: 'POST',
    path: '/api/admin/team_invitation/resend',
    auth: 'customer',
    allow: (actor) => actor.isOwner,
    tag: 'admin/team_invitation',
    summary: 'E-mails a pending invitation again with a new link (the old one ends), valid for another 7 days. Answers the invitation.',
    input: idInput,
    handler: ({ id }, ctx) => resendInvitation(ctx, id),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/login/accept_invitation',
    auth: 'public',
    tag: 'admin/login',
    summary:
      'Accept a team invitation with the e-mailed link\'s token and a password of one\'s own: makes the team member and answers with a session. A link works once and for 7 days (else 40102 error.invitation_invalid).',
    input: z.object({ token: z.string().trim().min(1).max(128), password: fieldSchema(teamMember.fields.password) }),
    handler: ({ token, password }, ctx) => acceptInvitation(ctx, { token, password: password as string }),
  }),
];
