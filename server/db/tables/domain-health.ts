/** Domain health: each watched DNS record's state and the history of its changes (0027). */
import type { Id, Timestamp } from './columns.js';

export type WatchedStatus = 'ok' | 'missing' | 'wrong';

export interface DomainDnsRecordRow {
  domain_id: number;
  /** A required record kind (server/mail/dns-records.ts). */
  kind: string;
  host: string;
  /** The value the DNS page asks for. */
  value: string;
  status: WatchedStatus;
  /** What DNS answered, " | "-joined. */
  found: string;
  /** Since when it has been in this state. */
  since: Timestamp;
}

export interface DomainDnsChangeRow {
  id: Id;
  domain_id: number;
  kind: string;
  host: string;
  value: string;
  status_before: WatchedStatus;
  found_before: string;
  status: WatchedStatus;
  found: string;
  /** 1 when this change broke the record and its owner was e-mailed. */
  notified: number;
  at: Timestamp;
}

export interface DomainHealthTables {
  domain_dns_record: DomainDnsRecordRow;
  domain_dns_change: DomainDnsChangeRow;
}
