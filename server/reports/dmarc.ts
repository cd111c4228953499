/**
 * A DMARC aggregate report (RFC 7489 appendix C: feedback → report_metadata, policy_published,
 * record*), read with fast-xml-parser with entities off; a document with a DOCTYPE or an ENTITY
 * declaration (the billion-laughs bomb, external entities) is refused before it is parsed.
 */
import net from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { limits, ReportRefused } from './refusal.js';

export interface DmarcRecord {
  sourceIp: string;
  messages: number;
  disposition: string;
  dkim: 'pass' | 'fail';
  spf: 'pass' | 'fail';
  headerFrom: string;
  /** "domain=result" pairs of the DKIM signatures and SPF checks, as the receiver evaluated them. */
  dkimResults: string;
  spfResults: string;
}

export interface DmarcReport {
  orgName: string;
  contact: string;
  reportId: string;
  begin: Date;
  end: Date;
  domain: string;
  policy: string;
  records: DmarcRecord[];
}

const lists = new Set(['record', 'dkim', 'spf']);
const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  maxNestedTags: 16,
  // Records, and auth_results' dkim and spf, are lists (policy_evaluated's dkim and spf become one-item lists too).
  isArray: (name) => lists.has(name),
});

const text = (value: unknown, what: string, max = 255): string => {
  if (typeof value !== 'string' && typeof value !== 'number') throw new ReportRefused('malformed', 'dmarc_missing', { field: what });
  const s = String(value).trim();
  if (!s || s.length > max) throw new ReportRefused('malformed', 'dmarc_length', { field: what, max, smart_count: max });
  return s;
};
const optional = (value: unknown, max = 255) => (typeof value === 'string' ? value.trim().slice(0, max) : '');
const whole = (value: unknown, what: string, max = 1e12) => {
  const n = Number(text(value, what, 20));
  if (!Number.isInteger(n) || n < 0 || n > max) throw new ReportRefused('malformed', 'dmarc_not_count', { field: what });
  return n;
};
const verdict = (value: unknown): 'pass' | 'fail' => (optional(Array.isArray(value) ? value[0] : value).toLowerCase() === 'pass' ? 'pass' : 'fail');
const domainName = (value: unknown, what: string) => {
  const name = text(value, what).toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9_.-]+$/.test(name)) throw new ReportRefused('malformed', 'dmarc_not_domain', { field: what });
  return name;
};
const results = (entries: unknown) =>
  (Array.isArray(entries) ? entries : [])
    .slice(0, 20)
    .map((e: any) => `${optional(e?.domain).toLowerCase() || '-'}=${optional(e?.result, 20).toLowerCase() || 'none'}`)
    .join(' ');

/** XML of any kind is read as a DMARC report (parseDmarc refuses a DOCTYPE, or XML without <feedback>). */
export function isDmarcDocument(data: Buffer) {
  return /^\uFEFF?\s*</.test(data.subarray(0, 64).toString('utf8'));
}

export function parseDmarc(data: Buffer): DmarcReport {
  const xml = data.toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new ReportRefused('entities', 'dmarc_entities');
  let doc: any;
  try {
    doc = parser.parse(xml);
  } catch (error) {
    throw new ReportRefused('malformed', 'dmarc_unreadable', { error: (error as Error).message });
  }
  const feedback = doc?.feedback;
  if (!feedback || typeof feedback !== 'object') throw new ReportRefused('not_a_report', 'xml_not_dmarc');
  const meta = feedback.report_metadata ?? {};
  const published = feedback.policy_published ?? {};
  const rawRecords: any[] = Array.isArray(feedback.record) ? feedback.record : [];
  if (rawRecords.length > limits.records) throw new ReportRefused('too_large', 'dmarc_records', { count: rawRecords.length, max: limits.records, smart_count: rawRecords.length });
  const begin = whole(meta.date_range?.begin, 'date_range.begin', 4e9);
  const end = whole(meta.date_range?.end, 'date_range.end', 4e9);
  const records = rawRecords.map((record): DmarcRecord => {
    const row = record?.row ?? {};
    const ip = text(row.source_ip, 'row.source_ip', 64);
    if (!net.isIP(ip)) throw new ReportRefused('malformed', 'dmarc_source_ip', { ip: ip.slice(0, 64) });
    const evaluated = row.policy_evaluated ?? {};
    return {
      sourceIp: ip,
      messages: whole(row.count, 'row.count', 1e9),
      disposition: optional(evaluated.disposition, 20).toLowerCase() || 'none',
      dkim: verdict(evaluated.dkim),
      spf: verdict(evaluated.spf),
      headerFrom: optional(record?.identifiers?.header_from).toLowerCase(),
      dkimResults: results(record?.auth_results?.dkim),
      spfResults: results(record?.auth_results?.spf),
    };
  });
  return {
    orgName: text(meta.org_name, 'report_metadata.org_name'),
    contact: optional(meta.email),
    reportId: text(meta.report_id, 'report_metadata.report_id'),
    begin: new Date(begin * 1000),
    end: new Date(end * 1000),
    domain: domainName(published.domain, 'policy_published.domain'),
    policy: optional(published.p, 20).toLowerCase(),
    records,
  };
}
