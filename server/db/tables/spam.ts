/** Spam and malware protection: settings, sender lists, held mailboxes and rspamd's figures (scores in tenths). */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

export type SpamFilter = 'on' | 'off';

export interface SpamDefaultRow {
  id: number;
  filter: SpamFilter;
  junk_tenths: number;
  reject_tenths: number;
  hourly_floor: number;
  rate_factor: number;
  updated_at: Timestamp | null;
  updated_by: string | null;
}

/** A domain's (mailbox_id null) or a mailbox's own setting. */
export interface SpamSettingRow {
  id: Id;
  owner_id: number;
  domain_id: number;
  mailbox_id: number | null;
  filter: SpamFilter;
  junk_tenths: number;
  reject_tenths: number;
  updated_at: Timestamp;
  updated_by: string;
}

export interface SpamListRow {
  id: Id;
  owner_id: number;
  domain_id: number;
  /** Null: the whole domain's list. */
  mailbox_id: number | null;
  /** An address, or a domain (every address at it). */
  sender: string;
  action: 'allow' | 'block';
  created_at: Timestamp;
}

export interface SpamHoldRow {
  mailbox_id: number;
  owner_id: number;
  address: string;
  /** 'spam' (a message over the reject score) or 'rate' (far above its usual rate). */
  reason: string;
  detail: Generated<string>;
  held_at: Timestamp;
}

export interface SpamDayRow {
  domain_id: number;
  day: string;
  received: Generated<number>;
  junked: Generated<number>;
  rejected: Generated<number>;
}

export interface SpamSentHourRow {
  mailbox_id: number;
  hour: string;
  messages: Generated<number>;
}

export interface SpamTables {
  spam_default: SpamDefaultRow;
  spam_setting: SpamSettingRow;
  spam_list: SpamListRow;
  spam_hold: SpamHoldRow;
  spam_day: SpamDayRow;
  spam_sent_hour: SpamSentHourRow;
}
