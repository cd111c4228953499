/** DMARC aggregate and TLS reports received by mail (server/reports), and what they are made into. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

export type ReportKind = 'dmarc' | 'tls';

export interface MailReportRow {
  id: Id;
  kind: ReportKind;
  domain_id: number;
  org_name: string;
  report_id: string;
  contact: Generated<string>;
  begin_at: Timestamp;
  end_at: Timestamp;
  /** DMARC: messages reported; TLS: sessions (successful + failed). */
  messages: Generated<number>;
  /** DMARC: messages failing DMARC; TLS: failed sessions. */
  failed: Generated<number>;
  received_at: Timestamp;
}

export interface DmarcRowRow {
  id: Id;
  mail_report_id: number;
  domain_id: number;
  day: string;
  source_ip: string;
  messages: number;
  disposition: string;
  dkim: 'pass' | 'fail';
  spf: 'pass' | 'fail';
  header_from: string;
  dkim_results: Generated<string>;
  spf_results: Generated<string>;
}

export interface TlsRowRow {
  id: Id;
  mail_report_id: number;
  domain_id: number;
  day: string;
  policy_type: string;
  successful: number;
  failed: number;
}

export interface TlsFailureRow {
  id: Id;
  mail_report_id: number;
  domain_id: number;
  day: string;
  receiving_mx: string;
  result_type: string;
  sessions: number;
}

export interface ReportSourceRow {
  ip: string;
  ptr: string;
  looked_up_at: Timestamp;
}

export interface ReportRefusalRow {
  id: Id;
  received_at: Timestamp;
  reason: string;
  /** A message key (report_refused.…) with its parameters as JSON; English text in rows from before 0029. */
  detail: Generated<string>;
  detail_params: Generated<string>;
}

export interface ReportsTables {
  mail_report: MailReportRow;
  dmarc_row: DmarcRowRow;
  tls_row: TlsRowRow;
  tls_failure: TlsFailureRow;
  report_source: ReportSourceRow;
  report_refusal: ReportRefusalRow;
}
