/**
 * MTA-STS (RFC 8461) and TLS reporting (RFC 8460) of a hosted domain: the policy served at
 * https://mta-sts.<domain>/.well-known/mta-sts.txt naming the MX hosts the DNS page proposes,
 * the id its _mta-sts TXT record carries (it changes whenever the policy text does, so that
 * senders fetch it again), and the TLS-RPT record sending reports to REPORTS_ADDRESS.
 */
import crypto from 'node:crypto';
import type { Config } from '../config.js';

export const mtaStsModes = ['testing', 'enforce'] as const;
export type MtaStsMode = (typeof mtaStsModes)[number];

/** A week: long enough that senders keep the policy across an outage of the panel, short enough to change course. */
export const MTA_STS_MAX_AGE = 604_800;

/** The policy file, CRLF-separated as the RFC writes it. */
export function mtaStsPolicy(mode: MtaStsMode, mailHostname: string): string {
  return ['version: STSv1', `mode: ${mode}`, `mx: ${mailHostname}`, `max_age: ${MTA_STS_MAX_AGE}`].map((line) => `${line}\r\n`).join('');
}

/** 1–32 letters and digits (RFC 8461 3.1), from the policy text itself: a new text, a new id. */
export const mtaStsPolicyId = (policy: string) => crypto.createHash('sha256').update(policy).digest('hex').slice(0, 20);

export const mtaStsHost = (domain: string) => `mta-sts.${domain}`;

/** The TLS-RPT record's value: reports as mail to the installation's reporting address. */
export const tlsRptValue = (config: Pick<Config, 'reportsAddress'>) => `v=TLSRPTv1; rua=mailto:${config.reportsAddress}`;
