/**
 * services.mailer: outgoing mail from templates (server/outbox implements it). A message is
 * recorded in the send log within the caller's transaction and sent by a job.
 */
import type { Locale } from '../../resources/customer.js';
import type { TemplateKey } from '../../resources/email_template.js';
import type { Db } from '../db/index.js';

export interface TemplateMail {
  key: TemplateKey;
  locale: Locale;
  to: string;
  params: Record<string, string | number>;
  userId?: number | null;
}

/** What the sending job carries: the send log entry and what is needed to render the message. */
export interface MailPayload {
  sendLogId: number;
  key: TemplateKey;
  locale: Locale;
  to: string;
  params: Record<string, string | number>;
  /** Chosen when queued: the same on every try, so a receiver can tell a repeat. */
  messageId: string;
}

export interface Mailer {
  /** Records the message (pending) in the send log within `db` and enqueues its sending; the send log entry's id. */
  send(db: Db, mail: TemplateMail): Promise<number>;
  /** The sending job's work: one try at sending one message (the last try marks it failed). */
  deliver(payload: MailPayload, attempt: { finalAttempt: boolean }): Promise<void>;
}
