/** The outbox: e-mail templates and the send log. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

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

export interface OutboxTables {
  email_template: EmailTemplateRow;
  email_send_log: EmailSendLogRow;
}
