/** Support: tickets, their words (search), messages and attachments, canned replies, the contact form's guest messages and their replies. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

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

export interface GuestMessageRow {
  id: Id;
  name: string;
  email: string;
  subject: string;
  content: string;
  ip: string;
  user_agent: string;
  created_at: Timestamp;
  // Replies and handled state
  handled: Generated<number>;
  handled_at: Timestamp | null;
  handled_by: number | null;
  replied_at: Timestamp | null;
}

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

export interface SupportTables {
  ticket: TicketRow;
  ticket_word: TicketWordRow;
  ticket_message: TicketMessageRow;
  ticket_attachment: TicketAttachmentRow;
  canned_reply: CannedReplyRow;
  guest_message: GuestMessageRow;
  guest_message_reply: GuestMessageReplyRow;
}
