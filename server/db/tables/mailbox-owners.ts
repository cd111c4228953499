/** Mailbox owners: their rules, the Sieve script made of them (read by Pigeonhole), their app passwords. */
import type { Id, Timestamp } from './columns.js';

export interface MailboxRuleRow {
  mailbox_id: number;
  out_of_office: number;
  ooo_starts_at: Timestamp | null;
  ooo_ends_at: Timestamp | null;
  /** IANA time zone the owner set the dates in (Asia/Shanghai). */
  ooo_time_zone: string;
  ooo_subject: string;
  ooo_body: string;
  ooo_interval_days: number;
  forwarding: number;
  /** JSON array of at most 10 addresses. */
  forward_to: string;
  forward_keep_copy: number;
  updated_at: Timestamp;
  /** Who, as the audit log names actors: "mailbox:addr", "customer:…", "operator:…". */
  updated_by: string;
}

export interface MailboxSieveRow {
  mailbox_id: number;
  /** Changes whenever the script does (`<mailbox_id>-<sha256 prefix>`), so Pigeonhole compiles it again. */
  script_id: string;
  script: string;
  updated_at: Timestamp;
}

export interface AppPasswordRow {
  id: Id;
  mailbox_id: number;
  name: string;
  /** The password's first four characters, in clear: Dovecot's passdb finds the row by them. */
  selector: string;
  /** `{ARGON2ID}…`, the format of mailbox.password_hash. */
  password_hash: string;
  created_at: Timestamp;
  created_ip: string;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
}

export interface MailboxOwnersTables {
  mailbox_rule: MailboxRuleRow;
  mailbox_sieve: MailboxSieveRow;
  app_password: AppPasswordRow;
}
