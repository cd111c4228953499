import { z } from 'zod';
import { defineResource, idSchema } from './define.js';

/**
 * An extra login of a customer account (/api/admin/user): same customer, own e-mail and
 * password. Only the customer account itself manages its team. Members are invited, not
 * made (server/team/): create records an invitation, and the invitee chooses the password;
 * the address is set by the invitation and never changed by the customer.
 */
export const teamMember = defineResource({
  name: 'team_member',
  table: 'user',
  // Members only (owner_id set): every call is scoped to its owner, which implies as much.
  view: 'team_member_view',
  owner: 'owner_id',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    email: { kind: 'email', required: true, unique: true, writable: 'create', list: true, sortable: true, search: true },
    username: { kind: 'text', max: 64, list: true, sortable: true, search: true },
    /** A new password for the member (the invitee chose the first one). */
    password: { kind: 'password', writeOnly: true },
    status: { kind: 'enum', choices: ['active', 'disabled'], default: 'active', list: true, filter: 'eq' },
    /** The customer's domains this member may manage (delegated domain administration). */
    domain_ids: { kind: 'json', virtual: true, schema: z.array(idSchema).max(1000), default: [], list: true },
    last_login_at: { kind: 'datetime', writable: 'never', list: true, sortable: true },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  admin: {
    path: 'user',
    page: 'admin',
    list: 'owner',
    get: 'owner',
    create: 'owner',
    update: 'owner',
    delete: 'owner',
    notes: {
      create:
        'Invites the address: records an invitation (see team_invitation) and e-mails the invitee a link to choose their password. The answer is the same whether or not the address already has an account (that address is told so instead, and nothing is made).',
      update: 'The e-mail address is set by the invitation and cannot be changed here (it is ignored).',
    },
  },
});
