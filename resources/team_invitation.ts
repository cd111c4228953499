import { z } from 'zod';
import { defineResource, idSchema } from './define.js';

/** Days an invitation link stays valid; resending it starts them again. */
export const INVITATION_DAYS = 7;

/**
 * A customer's invitation of a team member (made by /api/admin/user/create): the address,
 * name and domains the member will have, until the invitee accepts it with a password of
 * their own (/api/admin/login/accept_invitation). The customer lists the pending ones,
 * resends (/api/admin/team_invitation/resend) or revokes (delete) them. Whether the address
 * already has an account is never shown here: an invitation of such an address looks the same.
 */
export const teamInvitation = defineResource({
  name: 'team_invitation',
  table: 'team_invitation',
  owner: 'owner_id',
  // An accepted invitation is a team member now (the team list shows it), no longer pending.
  where: { accepted_at: null },
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    email: { kind: 'email', writable: 'never', list: true, sortable: true, search: true },
    username: { kind: 'text', max: 64, writable: 'never', list: true, search: true },
    /** The domains the member will manage. */
    domain_ids: { kind: 'json', schema: z.array(idSchema).max(1000), writable: 'never', list: true },
    expires_at: { kind: 'datetime', writable: 'never', list: true, sortable: true },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide' },
  },
  admin: {
    list: 'owner',
    get: 'owner',
    delete: 'owner',
    notes: { list: 'The customer\'s pending invitations (expired ones too, until resent or revoked).', delete: 'Revokes the invitation: its link no longer works.' },
  },
});
