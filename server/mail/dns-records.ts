/**
 * The DNS records a customer publishes for a domain (ownership TXT, MX, SPF, DKIM, DMARC,
 * MTA-STS and TLS reporting), and a live check of each against DNS (DNS_SERVERS, or the
 * system's resolvers). The DNS page and the DNS watch (server/domain-health) both use it.
 */
import { Resolver } from 'node:dns/promises';
import type { Area } from '../../resources/define.js';
import type { Config } from '../config.js';
import type { DomainRow } from '../db/schema.js';
// Mail-client discovery records: autoconfig/autodiscover CNAMEs and SRV records.
import { clientRecords, isClientRecord, judgeClientRecord, lookupClientRecord, panelHostOf, type ClientRecordKind } from './client-dns-records.js';
import { mailHostnameProblem } from './mail-hostname.js';
import { mtaStsHost, mtaStsPolicy, mtaStsPolicyId, tlsRptValue, type MtaStsMode } from './mta-sts.js';

/** The records every hosted domain needs (the DNS watch looks at these), then the recommended ones for mail programs. */
export const requiredKinds = ['verification', 'mx', 'spf', 'dkim', 'dkim_next', 'dmarc', 'mta_sts', 'mta_sts_host', 'tls_rpt'] as const;
export type RequiredKind = (typeof requiredKinds)[number];
export type RecordKind = RequiredKind | ClientRecordKind;
export type RecordStatus = 'ok' | 'missing' | 'wrong' | 'unchecked';

export interface ExpectedRecord {
  kind: RecordKind;
  type: 'TXT' | 'MX' | 'CNAME' | 'SRV';
  /** Where to publish it (punycode, fully qualified). */
  host: string;
  value: string;
  priority?: number;
}

export interface CheckedRecord extends ExpectedRecord {
  status: RecordStatus;
  /** What DNS answers there now (the relevant records). */
  found: string[];
  /** Translation key saying what is right or what to fix, with its params. */
  message: string;
  params: Record<string, string>;
}

type DomainKeys = Pick<DomainRow, 'name' | 'verify_token' | 'dkim_selector' | 'dkim_public_key'> & Partial<Pick<DomainRow, 'dkim_next_selector' | 'dkim_next_public_key' | 'dmarc_policy'>> & { mta_sts_mode?: MtaStsMode };
type RecordConfig = Pick<Config, 'mailHostname' | 'publicUrl' | 'reportsAddress'>;

export const verificationHost = (domain: string) => `_maildesk.${domain}`;
export const verificationValue = (token: string) => `maildesk-verification=${token}`;

/** The DKIM public key as a DNS TXT value: the base64 of the key's DER, without PEM armour. */
const dkimKeyData = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/** Where a selector's DKIM record lives, and its value. */
export const dkimRecord = (domain: string, selector: string, publicKey: string) => ({
  host: `${selector}._domainkey.${domain}`,
  value: `v=DKIM1; k=rsa; p=${dkimKeyData(publicKey)}`,
});

/**
 * While MAIL_HOSTNAME cannot be an MX (unset, an address, not a public name), the MX and SPF
 * records are left out: operators are told what to configure, customers that they follow.
 */
export function mailServerNotice(hostname: string, area: Area) {
  if (!mailHostnameProblem(hostname)) return null;
  return area === 'manage' ? { message: 'dns.mail_hostname_invalid', params: { hostname } } : { message: 'dns.mail_server_pending', params: {} };
}

/**
 * The DMARC record: the policy the customer chose (server/reports; none chosen: none, the first step
 * the domain's page advises: reports first, before any mail is refused), and
 * aggregate reports to the reporting address (REPORTS_ADDRESS), which Maildesk receives.
 */
export const dmarcValue = (policy: DomainRow['dmarc_policy'] | undefined, reportsAddress: string) => `v=DMARC1; p=${policy ?? 'none'}${reportsAddress ? `; rua=mailto:${reportsAddress}` : ''}`;

/** The MTA-STS policy of a domain as served, and the id its TXT record must carry. */
export function mtaStsOf(domain: { mta_sts_mode?: MtaStsMode }, mailHostname: string) {
  const mode: MtaStsMode = domain.mta_sts_mode ?? 'testing';
  const policy = mtaStsPolicy(mode, mailHostname);
  return { mode, policy, id: mtaStsPolicyId(policy) };
}

/** Records that name the mail server (MX, SPF, MTA-STS, TLS-RPT) are left out while MAIL_HOSTNAME cannot work. */
export function expectedRecords(domain: DomainKeys, config: RecordConfig): ExpectedRecord[] {
  const mailHostname = config.mailHostname;
  const serverReady = !mailHostnameProblem(mailHostname);
  // During a key rotation the next key is published beside the current one, before the switch.
  const next: ExpectedRecord[] =
    domain.dkim_next_selector && domain.dkim_next_public_key
      ? [{ kind: 'dkim_next', type: 'TXT', ...dkimRecord(domain.name, domain.dkim_next_selector, domain.dkim_next_public_key) }]
      : [];
  return [
    { kind: 'verification', type: 'TXT', host: verificationHost(domain.name), value: verificationValue(domain.verify_token) },
    ...(serverReady
      ? [
          { kind: 'mx', type: 'MX', host: domain.name, value: mailHostname, priority: 10 } as const,
          { kind: 'spf', type: 'TXT', host: domain.name, value: `v=spf1 mx a:${mailHostname} ~all` } as const,
        ]
      : []),
    { kind: 'dkim', type: 'TXT', ...dkimRecord(domain.name, domain.dkim_selector, domain.dkim_public_key) },
    ...next,
    { kind: 'dmarc', type: 'TXT', host: `_dmarc.${domain.name}`, value: dmarcValue(domain.dmarc_policy, config.reportsAddress) },
    ...(serverReady
      ? [
          // Senders that know MTA-STS deliver only over TLS to the MX hosts the policy names (once enforced).
          { kind: 'mta_sts', type: 'TXT', host: `_mta-sts.${domain.name}`, value: `v=STSv1; id=${mtaStsOf(domain, mailHostname).id}` } as const,
          { kind: 'mta_sts_host', type: 'CNAME', host: mtaStsHost(domain.name), value: panelHostOf(config) } as const,
        ]
      : []),
    ...(serverReady && config.reportsAddress ? [{ kind: 'tls_rpt', type: 'TXT', host: `_smtp._tls.${domain.name}`, value: tlsRptValue(config) } as const] : []),
  ];
}

export function resolverFor(config: Pick<Config, 'dnsServers'>) {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (config.dnsServers.length) resolver.setServers(config.dnsServers);
  return resolver;
}

/** Resolver errors that mean DNS has no such record (rather than no answer). */
export const absent = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);
const tags = (txt: string) => Object.fromEntries(txt.split(';').map((p) => p.trim().split('=').map((s) => s.trim())).filter((p) => p.length >= 2).map(([k, ...v]) => [k.toLowerCase(), v.join('=')]));

/** Which of the found values satisfy the expected record; how a wrong one is told apart from a missing one. */
function judge(record: ExpectedRecord, answers: string[], domain: DomainKeys): { relevant: string[]; ok: boolean; multiple?: boolean } {
  if (record.kind === 'mta_sts_host') return { relevant: answers, ok: answers.includes(record.value) };
  if (isClientRecord(record)) return judgeClientRecord(record, answers);
  switch (record.kind as Exclude<RecordKind, ClientRecordKind | 'mta_sts_host'>) {
    case 'verification':
      return { relevant: answers.filter((a) => a.startsWith('maildesk-verification=')), ok: answers.includes(record.value) };
    case 'mx':
      return { relevant: answers, ok: answers.some((a) => a.replace(/^\d+ /, '').replace(/\.$/, '').toLowerCase() === record.value) };
    case 'spf': {
      const spf = answers.filter((a) => /^v=spf1(\s|$)/i.test(a));
      const host = record.value.split(' ').find((m) => m.startsWith('a:'))!;
      const ok = spf.length === 1 && spf[0].toLowerCase().split(/\s+/).some((m) => m.replace(/^[+]/, '') === host || m === 'mx');
      return { relevant: spf, ok, multiple: spf.length > 1 };
    }
    case 'dkim':
    case 'dkim_next': {
      const dkim = answers.filter((a) => /(^|;)\s*p=/.test(a) || /^v=DKIM1/i.test(a));
      const expected = tags(record.value).p;
      return { relevant: dkim, ok: dkim.some((a) => tags(a).p?.replace(/\s+/g, '') === expected) };
    }
    case 'dmarc': {
      const dmarc = answers.filter((a) => /^v=DMARC1/i.test(a));
      const found = dmarc.length === 1 ? tags(dmarc[0]) : {};
      const wanted = tags(record.value);
      // A policy the customer chose must be the one published; reports must reach the reporting address.
      const policyOk = /^(none|quarantine|reject)$/i.test(found.p ?? '') && (!domain.dmarc_policy || found.p?.toLowerCase() === domain.dmarc_policy);
      const reportsOk = !wanted.rua || (found.rua ?? '').toLowerCase().split(',').some((uri) => uri.trim().replace(/!.*$/, '') === wanted.rua);
      return { relevant: dmarc, ok: dmarc.length === 1 && policyOk && reportsOk };
    }
    case 'mta_sts': {
      // One record, carrying the id of the policy served now (an old id: senders keep the old policy).
      const sts = answers.filter((a) => /^v=STSv1(;|\s|$)/i.test(a));
      return { relevant: sts, ok: sts.length === 1 && tags(sts[0]).id === tags(record.value).id, multiple: sts.length > 1 };
    }
    case 'tls_rpt': {
      const rpt = answers.filter((a) => /^v=TLSRPTv1(;|\s|$)/i.test(a));
      const rua = (a: string) => (tags(a).rua ?? '').toLowerCase().split(',').map((u) => u.trim());
      return { relevant: rpt, ok: rpt.length === 1 && rua(rpt[0]).includes(tags(record.value).rua.toLowerCase()), multiple: rpt.length > 1 };
    }
  }
}

/**
 * The panel's host for mta-sts.<domain>: a CNAME to it, or A records with one of its addresses
 * (answered as its name, so that the judgement is the CNAME's).
 */
async function lookupPanelHost(resolver: Resolver, record: ExpectedRecord): Promise<string[]> {
  try {
    return (await resolver.resolveCname(record.host)).map((t) => t.toLowerCase().replace(/\.$/, ''));
  } catch (error) {
    if (!absent.has((error as { code?: string }).code ?? '')) throw error;
    const [mine, panel] = await Promise.all([resolver.resolve4(record.host), resolver.resolve4(record.value).catch(() => [] as string[])]);
    return mine.some((ip) => panel.includes(ip)) ? [record.value] : mine;
  }
}

async function lookup(resolver: Resolver, record: ExpectedRecord): Promise<string[]> {
  if (record.kind === 'mta_sts_host') return lookupPanelHost(resolver, record);
  if (isClientRecord(record)) return lookupClientRecord(resolver, record);
  if (record.type === 'MX') return (await resolver.resolveMx(record.host)).map((mx) => `${mx.priority} ${mx.exchange.toLowerCase()}`);
  return (await resolver.resolveTxt(record.host)).map((chunks) => chunks.join(''));
}

type CheckConfig = Pick<Config, 'dnsServers' | 'mailHostname' | 'reportsAddress' | 'publicUrl' | 'mailImapPort' | 'mailSubmissionPort' | 'mailSubmissionsPort'>;

/** Every record of the DNS page, the recommended ones for mail programs included, looked up now. */
export async function checkRecords(domain: DomainKeys, config: CheckConfig): Promise<CheckedRecord[]> {
  return checkEach([...expectedRecords(domain, config), ...(mailHostnameProblem(config.mailHostname) ? [] : clientRecords(domain.name, config))], config, domain);
}

/** The records every hosted domain needs (requiredKinds), looked up now: what the DNS watch checks. */
export async function checkRequiredRecords(domain: DomainKeys, config: CheckConfig): Promise<CheckedRecord[]> {
  return checkEach(expectedRecords(domain, config), config, domain);
}

async function checkEach(records: ExpectedRecord[], config: Pick<Config, 'dnsServers'>, domain: DomainKeys): Promise<CheckedRecord[]> {
  const resolver = resolverFor(config);
  return Promise.all(
    records.map(async (record): Promise<CheckedRecord> => {
      const params = { type: record.type, host: record.host, value: record.priority !== undefined ? `${record.priority} ${record.value}` : record.value };
      let answers: string[];
      try {
        answers = await lookup(resolver, record);
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'error';
        if (absent.has(code)) return { ...record, status: 'missing', found: [], message: 'dns.missing', params };
        return { ...record, status: 'unchecked', found: [], message: 'dns.lookup_failed', params: { ...params, error: code } };
      }
      const verdict = judge(record, answers, domain);
      if (verdict.ok) return { ...record, status: 'ok', found: verdict.relevant, message: 'dns.ok', params };
      if (verdict.relevant.length === 0) return { ...record, status: 'missing', found: [], message: 'dns.missing', params };
      const message = verdict.multiple ? (record.kind === 'spf' ? 'dns.spf_multiple' : 'dns.multiple') : 'dns.wrong';
      return { ...record, status: 'wrong', found: verdict.relevant, message, params: { ...params, found: verdict.relevant.join(' | ') } };
    }),
  );
}
