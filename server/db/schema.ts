/** Row types of the tables the hand-written code touches; derived CRUD works from resources/. */
import type { Generated } from 'kysely';

type Id = Generated<number>;
type Timestamp = string; // ISO 8601 UTC, sorts as text on both databases

export interface OperatorRow {
  id: Id;
  username: string;
  password_hash: string;
  role: string;
  status: string;
  last_login_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserRow {
  id: Id;
  owner_id: number | null;
  email: string;
  username: string;
  password_hash: string;
  is_verified: number;
  status: string;
  points: Generated<number>;
  storage_max: number;
  locale: string;
  last_login_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionRow {
  id: Id;
  token_hash: string;
  actor: 'customer' | 'operator';
  account_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  ip: string;
  user_agent: string;
}

export interface VerifyCodeRow {
  id: Id;
  user_id: number;
  purpose: string;
  code_hash: string;
  target: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface EmailTemplateRow {
  id: Id;
  key: string;
  locale: string;
  subject: string;
  body: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EmailSendLogRow {
  id: Id;
  template_key: string;
  locale: string;
  recipient: string;
  subject: string;
  status: 'sent' | 'failed';
  transport: 'smtp' | 'outbox';
  error: string | null;
  message_id: string | null;
  user_id: number | null;
  created_at: Timestamp;
}

export interface GuestMessageRow {
  id: Id;
  name: string;
  email: string;
  subject: string;
  content: string;
  ip: string;
  user_agent: string;
  created_at: Timestamp;
}

export interface LogRow {
  id: Id;
  user_id: number | null;
  actor_type: string;
  actor_id: number | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: number | null;
  before: string | null;
  after: string | null;
  ip: string;
  user_agent: string;
  created_at: Timestamp;
}

export interface DomainRow {
  id: Id;
  owner_id: number;
  name: string;
  name_unicode: string;
  status: 'pending' | 'active' | 'suspended';
  verified_at: Timestamp | null;
  verified_by: 'dns' | 'operator' | null;
  verify_token: string;
  max_mailboxes: number;
  max_aliases: number;
  max_quota: number;
  dkim_selector: string;
  dkim_private_key: string;
  dkim_public_key: string;
  note: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MailboxRow {
  id: Id;
  owner_id: number;
  domain_id: number;
  local_part: string;
  address: string;
  address_unicode: string;
  password_hash: string;
  name: string;
  quota: number;
  active: number;
  delivery_checked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MailboxUsageRow {
  address: string;
  bytes: number;
  messages: number;
}

export interface AliasRow {
  id: Id;
  owner_id: number;
  domain_id: number;
  local_part: string;
  address: string;
  address_unicode: string;
  goto: string;
  active: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AliasDomainRow {
  id: Id;
  owner_id: number;
  alias_domain_id: number;
  target_domain_id: number;
  active: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StorageRow {
  id: Id;
  owner_id: number;
  size: number;
  source: 'grant' | 'order';
  label: string;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamMemberDomainRow {
  member_id: number;
  domain_id: number;
}

export interface Database {
  admin: OperatorRow;
  user: UserRow;
  session: SessionRow;
  verify_code: VerifyCodeRow;
  email_template: EmailTemplateRow;
  email_send_log: EmailSendLogRow;
  guest_message: GuestMessageRow;
  log: LogRow;
  domain: DomainRow;
  mailbox: MailboxRow;
  mailbox_usage: MailboxUsageRow;
  alias: AliasRow;
  alias_domain: AliasDomainRow;
  storage: StorageRow;
  team_member_domain: TeamMemberDomainRow;
}
