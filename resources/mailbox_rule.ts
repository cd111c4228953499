/**
 * A mailbox's rules as every area reads and writes them: the out-of-office reply and forwarding.
 * The server turns them into the mailbox's Sieve script (server/mail/rules.ts).
 */
export const MAX_FORWARD_ADDRESSES = 10;
export const DEFAULT_INTERVAL_DAYS = 7;

export interface OutOfOffice {
  enabled: boolean;
  /** ISO 8601 UTC, or null: from now on / with no end. */
  starts_at: string | null;
  ends_at: string | null;
  /** The IANA time zone the owner chose the dates in (for showing them again). */
  time_zone: string;
  subject: string;
  body: string;
  /** One reply per sender per this many days (1–30). */
  interval_days: number;
}

export interface Forwarding {
  enabled: boolean;
  addresses: string[];
  keep_copy: boolean;
}
