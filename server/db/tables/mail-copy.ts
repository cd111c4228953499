/** Bringing the mail: copies from another IMAP server, their encrypted passwords, and how far each old folder has been copied. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

export type MailCopyState = 'queued' | 'running' | 'done' | 'failed';
export type MailCopyTls = 'tls' | 'starttls';

export interface MailCopyRow {
  id: Id;
  owner_id: number;
  domain_id: number;
  mailbox_id: number;
  address: string;
  source_host: string;
  source_port: number;
  source_tls: MailCopyTls;
  source_user: string;
  state: MailCopyState;
  /** Messages in the old server's folders, counted at the start of the latest slice. */
  total_messages: Generated<number>;
  /** Of those, how many are in the mailbox (copied by this run or an earlier one). */
  done_messages: Generated<number>;
  /** Appended by this run. */
  copied_messages: Generated<number>;
  folders: Generated<number>;
  /** A translation key (error.mail_copy_*), and the old server's own words. */
  error: string | null;
  error_detail: string | null;
  round: Generated<number>;
  started_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface MailCopySecretRow {
  copy_id: number;
  secret: string;
}

export interface MailCopyFolderRow {
  id: Id;
  mailbox_id: number;
  source: string;
  folder: string;
  uid_validity: number;
  last_uid: number;
  pending_uid: number | null;
  updated_at: Timestamp;
}

export interface MailCopyTables {
  mail_copy: MailCopyRow;
  mail_copy_secret: MailCopySecretRow;
  mail_copy_folder: MailCopyFolderRow;
}
