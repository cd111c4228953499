/** Why a report was refused (never stored): the reason is a short word operators filter on, the detail says more. */
export type RefusalReason = 'too_large' | 'bomb' | 'not_a_report' | 'malformed' | 'entities' | 'unknown_domain' | 'no_report';

export class ReportRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/** Caps on what one message may make us read: sizes, counts, compression ratio. */
export const limits = {
  /** MIME parts in one message, and how deeply multiparts may nest. */
  parts: 20,
  depth: 4,
  /** Entries in a zip archive. */
  zipEntries: 10,
  /** One report once uncompressed. */
  reportBytes: 32 * 1024 * 1024,
  /** Uncompressed may be at most this many times compressed (plus 1 MiB): beyond, it is a bomb. */
  ratio: 100,
  /** Records in a DMARC report; policies and failure details in a TLS report. */
  records: 50_000,
  tlsPolicies: 1_000,
  tlsDetails: 10_000,
} as const;
