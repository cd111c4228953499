/** Accounts: operators, customers and their team logins, sessions, e-mailed codes, the activity log. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

export interface OperatorRow {
  id: Id;
  username: string;
  password_hash: string;
  role: string;
  status: string;
  last_login_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Support: where ticket notifications go, and in which language. */
  email: Generated<string | null>;
  locale: Generated<string>;
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
  /** Customers: the store an operator chose for their new mailboxes (0031); null: the placement rule's. */
  mail_store_id: Generated<number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionRow {
  id: Id;
  token_hash: string;
  /** A mailbox owner's session has account_id = mailbox.id. */
  actor: 'customer' | 'operator' | 'mailbox';
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
  /** The API key the change was made with, if any. */
  api_key_id: Generated<number | null>;
  api_key_name: Generated<string | null>;
}

/** A device a person has signed in from (a hash of its user agent without version numbers). */
export interface KnownDeviceRow {
  id: Id;
  actor: SessionRow['actor'];
  account_id: number;
  device_hash: string;
  first_seen_at: Timestamp;
}

export interface AccountsTables {
  admin: OperatorRow;
  user: UserRow;
  session: SessionRow;
  verify_code: VerifyCodeRow;
  log: LogRow;
  known_device: KnownDeviceRow;
}
