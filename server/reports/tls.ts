/**
 * A TLS report (RFC 8460 §4: organization-name, date-range, report-id, policies with a summary and
 * failure details), JSON. Validated with zod; counts and list lengths are capped.
 */
import { z } from 'zod';
import { limits, ReportRefused } from './refusal.js';

const count = z.number().int().min(0).max(1e12);
const name = z.string().trim().min(1).max(255);
const tlsReportSchema = z.object({
  'organization-name': name,
  'date-range': z.object({ 'start-datetime': z.string().max(40), 'end-datetime': z.string().max(40) }),
  'contact-info': z.string().max(255).optional(),
  'report-id': name,
  policies: z
    .array(
      z.object({
        policy: z.object({ 'policy-type': z.string().max(20), 'policy-domain': name }),
        summary: z.object({ 'total-successful-session-count': count, 'total-failure-session-count': count }),
        'failure-details': z
          .array(z.object({ 'result-type': z.string().max(64), 'receiving-mx-hostname': z.string().max(255).optional(), 'failed-session-count': count }))
          .max(limits.tlsDetails)
          .optional(),
      }),
    )
    .max(limits.tlsPolicies),
});

export interface TlsPolicy {
  domain: string;
  policyType: string;
  successful: number;
  failed: number;
  failures: { receivingMx: string; resultType: string; sessions: number }[];
}

export interface TlsReport {
  orgName: string;
  contact: string;
  reportId: string;
  begin: Date;
  end: Date;
  policies: TlsPolicy[];
}

export function isTlsDocument(data: Buffer) {
  return /^\s*\{/.test(data.subarray(0, 64).toString('utf8'));
}

const dateOf = (value: string, what: string) => {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new ReportRefused('malformed', 'tls_date', { field: what });
  return date;
};

export function parseTls(data: Buffer): TlsReport {
  let json: unknown;
  try {
    json = JSON.parse(data.toString('utf8'));
  } catch (error) {
    throw new ReportRefused('malformed', 'tls_unreadable', { error: (error as Error).message });
  }
  const parsed = tlsReportSchema.safeParse(json);
  if (!parsed.success) throw new ReportRefused('malformed', 'tls_invalid', { issues: parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')} ${i.message}`).join('; ') });
  const r = parsed.data;
  return {
    orgName: r['organization-name'],
    contact: r['contact-info'] ?? '',
    reportId: r['report-id'],
    begin: dateOf(r['date-range']['start-datetime'], 'start-datetime'),
    end: dateOf(r['date-range']['end-datetime'], 'end-datetime'),
    policies: r.policies.map((p) => ({
      domain: p.policy['policy-domain'].toLowerCase().replace(/\.$/, ''),
      policyType: p.policy['policy-type'].toLowerCase(),
      successful: p.summary['total-successful-session-count'],
      failed: p.summary['total-failure-session-count'],
      failures: (p['failure-details'] ?? []).map((f) => ({ receivingMx: (f['receiving-mx-hostname'] ?? '').toLowerCase().replace(/\.$/, ''), resultType: f['result-type'].toLowerCase(), sessions: f['failed-session-count'] })),
    })),
  };
}
