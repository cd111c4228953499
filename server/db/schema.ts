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
  status: 'pending' | 'sent' | 'failed';
  transport: 'smtp' | 'outbox';
  error: string | null;
  message_id: string | null;
  user_id: number | null;
  created_at: Timestamp;
  /** Tries so far; `error` is the last one's. */
  attempts: Generated<number>;
  sent_at: Timestamp | null;
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
  // Replies and handled state (issue 14)
  handled: Generated<number>;
  handled_at: Timestamp | null;
  handled_by: number | null;
  replied_at: Timestamp | null;
}

// Guest message replies (issue 14)
export interface GuestMessageReplyRow {
  id: Id;
  guest_message_id: number;
  operator_id: number | null;
  operator_name: string;
  locale: string;
  subject: string;
  body: string;
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
  // DKIM rotation: the next key, published beside the current one before the switch (0007).
  dkim_next_selector: string | null;
  dkim_next_private_key: string | null;
  dkim_next_public_key: string | null;
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
  /** The order that bought (or last renewed) the block; null for grants. */
  order_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the block's next reminder or expiry notice is due (0010). */
  next_notice_at: Timestamp | null;
}

export interface TeamMemberDomainRow {
  member_id: number;
  domain_id: number;
}

// Team-member invitations (issue 8)
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

// Durable jobs (SQLite; PostgreSQL's are in pg-boss's schema)
export type JobState = 'queued' | 'active' | 'done' | 'failed';
export interface JobRow {
  id: Id;
  name: string;
  payload: string;
  state: JobState;
  unique_key: string | null;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  retry_delay_seconds: number;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  done_at: Timestamp | null;
}

// Shop (products, promotions, orders, payments, points).
export type ProductKind = 'storage' | 'points';
export type ActivityKind = 'percent' | 'amount' | 'bonus_points';
export type OrderStatus = 'pending_payment' | 'paid' | 'fulfilled' | 'cancelled' | 'expired' | 'refunded';
export type PaymentMethod = 'points' | 'stripe';
export type LedgerReason = 'grant' | 'deduction' | 'order_payment' | 'refund' | 'topup' | 'bonus';

export interface ProductRow {
  id: Id;
  kind: ProductKind;
  name_zh: string;
  name_en: string;
  description_zh: string;
  description_en: string;
  /** In the shop currency's minor unit. */
  price: number;
  storage_size: number | null;
  /** Null: the block never expires. */
  period_months: number | null;
  points_granted: number | null;
  visible: number;
  sort_order: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ActivityRow {
  id: Id;
  name_zh: string;
  name_en: string;
  kind: ActivityKind;
  value: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  /** 0: no limit. */
  total_limit: number;
  per_customer_limit: number;
  first_order_only: number;
  code: string | null;
  used_count: Generated<number>;
  ended_early_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ActivityProductRow {
  activity_id: number;
  product_id: number;
}

export interface ActivityUseRow {
  id: Id;
  activity_id: number;
  order_id: number;
  owner_id: number;
  released_at: Timestamp | null;
  created_at: Timestamp;
}

export interface OrderRow {
  id: Id;
  /** The order's number for people (readable-number.ts); the id stays out of sight. */
  number: string;
  owner_id: number;
  placed_by: number;
  product_id: number;
  product_kind: ProductKind;
  product_name_zh: string;
  product_name_en: string;
  storage_size: number | null;
  period_months: number | null;
  points_granted: number | null;
  currency: string;
  price: number;
  discount: number;
  amount: number;
  bonus_points: number;
  activity_id: number | null;
  renew_storage_id: number | null;
  payment_method: PaymentMethod | null;
  status: OrderStatus;
  pay_before: Timestamp;
  paid_at: Timestamp | null;
  fulfilled_at: Timestamp | null;
  closed_at: Timestamp | null;
  storage_id: number | null;
  storage_previous_expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderHistoryRow {
  id: Id;
  order_id: number;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  actor_type: 'customer' | 'operator' | 'provider' | 'system';
  actor_id: number | null;
  actor_name: string;
  reason: string;
  created_at: Timestamp;
}

export interface PaymentRow {
  id: Id;
  order_id: number;
  provider: 'stripe';
  session_id: string;
  url: string;
  amount: number;
  currency: string;
  /** refund_due: paid for an order that could no longer take it; given back, then refunded. */
  status: 'open' | 'paid' | 'expired' | 'failed' | 'refund_due' | 'refunded';
  payment_intent: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PointsLedgerRow {
  id: Id;
  user_id: number;
  delta: number;
  balance_after: number;
  source: string;
  reason: LedgerReason;
  note: string;
  order_id: number | null;
  actor_type: 'customer' | 'operator' | 'provider' | 'system';
  actor_id: number | null;
  created_at: Timestamp;
}

// Support (tickets)
export interface TicketRow {
  id: Id;
  number: string;
  owner_id: number;
  author_id: number | null;
  subject: string;
  category: string;
  priority: string;
  status: string;
  assignee_id: number | null;
  link_type: string | null;
  link_id: number | null;
  last_activity_at: Timestamp;
  last_reply_by: 'customer' | 'operator';
  waiting_since: Timestamp | null;
  first_response_at: Timestamp | null;
  first_response_seconds: number | null;
  closed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketWordRow {
  word: string;
  ticket_id: number;
}

export interface TicketMessageRow {
  id: Id;
  ticket_id: number;
  owner_id: number;
  author_type: 'customer' | 'team_member' | 'operator';
  author_id: number | null;
  author_name: string;
  body: string;
  internal: number;
  created_at: Timestamp;
}

export interface TicketAttachmentRow {
  id: Id;
  ticket_id: number;
  message_id: number;
  owner_id: number;
  internal: number;
  file_name: string;
  stored_name: string;
  content_type: string;
  size: number;
  created_at: Timestamp;
}

export interface CannedReplyRow {
  id: Id;
  title: string;
  body: string;
  created_at: Timestamp;
  updated_at: Timestamp;
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
  // Team-member invitations (issue 8)
  team_invitation: TeamInvitationRow;
  // Durable jobs
  job: JobRow;
  // Shop (products, promotions, orders, payments, points).
  product: ProductRow;
  activity: ActivityRow;
  activity_product: ActivityProductRow;
  activity_use: ActivityUseRow;
  shop_order: OrderRow;
  order_history: OrderHistoryRow;
  payment: PaymentRow;
  points_ledger: PointsLedgerRow;
  // Storage over time (issue 10)
  storage_notice: StorageNoticeRow;
  stat_daily: StatDailyRow;
  // Support (tickets)
  ticket: TicketRow;
  ticket_word: TicketWordRow;
  ticket_message: TicketMessageRow;
  ticket_attachment: TicketAttachmentRow;
  canned_reply: CannedReplyRow;
  // Guest message replies (issue 14)
  guest_message_reply: GuestMessageReplyRow;
  // Mailbox deletion (issue 12)
  deleted_mailbox: DeletedMailboxRow;
}

// Mailbox deletion (issue 12)
export type DeletedMailboxState = 'pending' | 'purging' | 'purged' | 'archived' | 'restored';
export interface DeletedMailboxRow {
  id: Id;
  mailbox_id: number;
  owner_id: number;
  domain_id: number;
  domain: string;
  local_part: string;
  address: string;
  address_unicode: string;
  name: string;
  quota: number;
  active: number;
  password_hash: string;
  delivery_checked_at: Timestamp | null;
  mailbox_created_at: Timestamp;
  used_bytes: number;
  used_messages: number;
  state: DeletedMailboxState;
  deleted_at: Timestamp;
  deleted_by_type: string;
  deleted_by: string;
  purge_after: Timestamp;
  finished_at: Timestamp | null;
  finished_by: string | null;
  outcome: 'removed' | 'archived' | 'nothing_on_disk' | null;
  store_path: string;
  archive_path: string | null;
}

// Storage over time (issue 10)
export interface StorageNoticeRow {
  id: Id;
  storage_id: number;
  owner_id: number;
  kind: 'reminder' | 'expired';
  days: number;
  expires_at: Timestamp;
  shortfall: Generated<number>;
  created_at: Timestamp;
}

/** One figure of one UTC day (the dashboard's summary, kept by the stats.daily schedule). */
export interface StatDailyRow {
  day: string;
  metric: string;
  dim: Generated<string>;
  value: number;
}
