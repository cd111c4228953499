/** The team: a member's domains, invitations. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

export interface TeamMemberDomainRow {
  member_id: number;
  domain_id: number;
}

export interface TeamInvitationRow {
  id: Id;
  owner_id: number;
  email: string;
  username: Generated<string>;
  /** JSON list of domain ids. */
  domain_ids: Generated<string>;
  token_hash: string;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  created_at: Timestamp;
}

export interface TeamTables {
  team_member_domain: TeamMemberDomainRow;
  team_invitation: TeamInvitationRow;
}
