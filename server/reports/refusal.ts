/**
 * Why a report was refused (never stored): the reason is a short word operators filter on, the
 * detail says more, as a message key with its parameters (resources/messages-*.ts,
 * `report_refused`), so that each operator reads it in their language.
 */
import type { ServerMessages } from '../../resources/messages-en.js';

export type RefusalReason = 'too_large' | 'bomb' | 'not_a_report' | 'malformed' | 'entities' | 'unknown_domain' | 'no_report';
export type RefusalDetailKey = keyof ServerMessages['report_refused'];
export type RefusalParams = Record<string, string | number>;

export interface Refusal {
  reason: RefusalReason;
  /** The message key, e.g. "report_refused.zip_entries". */
  detail: `report_refused.${RefusalDetailKey}`;
  params: RefusalParams;
}

/** A refusal; texts from the reporter (names, parser errors) are cut short, they only help to recognise it. */
export function refusal(reason: RefusalReason, key: RefusalDetailKey, params: RefusalParams = {}): Refusal {
  return { reason, detail: `report_refused.${key}`, params: Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value.slice(0, 200) : value])) };
}

export class ReportRefused extends Error implements Refusal {
  readonly detail: Refusal['detail'];
  readonly params: RefusalParams;
  constructor(
    readonly reason: RefusalReason,
    key: RefusalDetailKey,
    params: RefusalParams = {},
  ) {
    super(`${reason}: ${key} ${JSON.stringify(params)}`);
    ({ detail: this.detail, params: this.params } = refusal(reason, key, params));
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
