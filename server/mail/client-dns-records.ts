/**
 * The DNS records with which mail programs find the servers by themselves: CNAMEs of
 * autoconfig.<domain> and autodiscover.<domain> to the panel (which serves the XML), an SRV
 * record for Outlook's autodiscover over HTTPS, and RFC 6186 SRV records for IMAP and
 * submission. Recommended, not required: the domain verifies and receives mail without them.
 */
import type { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Config } from '../config.js';

export type ClientRecordKind = 'autoconfig' | 'autodiscover' | 'autodiscover_srv' | 'imaps_srv' | 'submission_srv' | 'submissions_srv';

export interface ClientRecord {
  kind: ClientRecordKind;
  type: 'CNAME' | 'SRV';
  host: string;
  /** CNAME: the target; SRV: "priority weight port target". */
  value: string;
}

type ClientConfig = Pick<Config, 'publicUrl' | 'mailHostname' | 'mailImapPort' | 'mailSubmissionPort' | 'mailSubmissionsPort'>;

/** The panel's host name as a CNAME may name it: a panel reached by IP is served on the mail host's name. */
export function panelHostOf(config: Pick<Config, 'publicUrl' | 'mailHostname'>): string {
  const publicHost = new URL(config.publicUrl).hostname.toLowerCase();
  return isIP(publicHost.replace(/^\[|\]$/g, '')) ? config.mailHostname : publicHost;
}

export function clientRecords(domain: string, config: ClientConfig): ClientRecord[] {
  const web = panelHostOf(config);
  const mail = config.mailHostname;
  const records: ClientRecord[] = [
    { kind: 'autoconfig', type: 'CNAME', host: `autoconfig.${domain}`, value: web },
    { kind: 'autodiscover', type: 'CNAME', host: `autodiscover.${domain}`, value: web },
    { kind: 'autodiscover_srv', type: 'SRV', host: `_autodiscover._tcp.${domain}`, value: `0 1 443 ${web}` },
    { kind: 'imaps_srv', type: 'SRV', host: `_imaps._tcp.${domain}`, value: `0 1 ${config.mailImapPort} ${mail}` },
    { kind: 'submission_srv', type: 'SRV', host: `_submission._tcp.${domain}`, value: `0 1 ${config.mailSubmissionPort} ${mail}` },
  ];
  if (config.mailSubmissionsPort) records.push({ kind: 'submissions_srv', type: 'SRV', host: `_submissions._tcp.${domain}`, value: `0 1 ${config.mailSubmissionsPort} ${mail}` });
  return records;
}

export const isClientRecord = (record: { type: string }): record is ClientRecord => record.type === 'CNAME' || record.type === 'SRV';

export async function lookupClientRecord(resolver: Resolver, record: ClientRecord): Promise<string[]> {
  if (record.type === 'CNAME') return (await resolver.resolveCname(record.host)).map((t) => t.toLowerCase().replace(/\.$/, ''));
  return (await resolver.resolveSrv(record.host)).map((s) => `${s.priority} ${s.weight} ${s.port} ${s.name.toLowerCase().replace(/\.$/, '')}`);
}

/** A CNAME must point at the target; an SRV record must name the port and target (priority and weight are the provider's choice). */
export function judgeClientRecord(record: ClientRecord, answers: string[]): { relevant: string[]; ok: boolean } {
  if (record.type === 'CNAME') return { relevant: answers, ok: answers.includes(record.value) };
  const portAndTarget = (v: string) => v.split(' ').slice(2).join(' ');
  return { relevant: answers, ok: answers.some((a) => portAndTarget(a) === portAndTarget(record.value)) };
}
