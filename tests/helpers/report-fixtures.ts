/**
 * DMARC aggregate reports (RFC 7489 appendix C) and TLS reports (RFC 8460 §4) as the large
 * receivers send them: the XML zipped as the whole message body (Google), gzipped as an
 * attachment of multipart/mixed (Microsoft), and TLS reports as multipart/report with
 * application/tlsrpt+gzip (RFC 8460 §5.3); and the hostile ones (bombs, entities, wrong content).
 */
import crypto from 'node:crypto';
import { gzipSync, zipSync } from 'fflate';

export interface DmarcRecordFixture {
  ip: string;
  count: number;
  dkim: 'pass' | 'fail';
  spf: 'pass' | 'fail';
  /** auth_results: DKIM signatures and SPF checks as "domain=result". */
  dkimResults?: string[];
  spfResults?: string[];
}

const day = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

export function dmarcXml(o: { org: string; reportId: string; domain: string; begin: string; records: DmarcRecordFixture[]; policy?: string }) {
  const records = o.records
    .map((r) => {
      const dkim = (r.dkimResults ?? []).map((pair) => `<dkim><domain>${pair.split('=')[0]}</domain><selector>s1</selector><result>${pair.split('=')[1]}</result></dkim>`).join('');
      const spf = (r.spfResults ?? [`${o.domain}=${r.spf}`]).map((pair) => `<spf><domain>${pair.split('=')[0]}</domain><scope>mfrom</scope><result>${pair.split('=')[1]}</result></spf>`).join('');
      return `
  <record>
    <row>
      <source_ip>${r.ip}</source_ip>
      <count>${r.count}</count>
      <policy_evaluated><disposition>none</disposition><dkim>${r.dkim}</dkim><spf>${r.spf}</spf></policy_evaluated>
    </row>
    <identifiers><header_from>${o.domain}</header_from></identifiers>
    <auth_results>${dkim}${spf}</auth_results>
  </record>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" ?>
<feedback>
  <version>1.0</version>
  <report_metadata>
    <org_name>${o.org}</org_name>
    <email>noreply-dmarc-support@${o.org}</email>
    <extra_contact_info>https://support.${o.org}/a/answer/2466580</extra_contact_info>
    <report_id>${o.reportId}</report_id>
    <date_range><begin>${day(`${o.begin}T00:00:00Z`)}</begin><end>${day(`${o.begin}T23:59:59Z`)}</end></date_range>
  </report_metadata>
  <policy_published>
    <domain>${o.domain}</domain><adkim>r</adkim><aspf>r</aspf><p>${o.policy ?? 'none'}</p><sp>none</sp><pct>100</pct><np>none</np>
  </policy_published>${records}
</feedback>
`;
}

export function tlsJson(o: { org: string; reportId: string; domain: string; begin: string; successful: number; failures: { mx: string; type: string; sessions: number }[] }) {
  return JSON.stringify({
    'organization-name': o.org,
    'date-range': { 'start-datetime': `${o.begin}T00:00:00Z`, 'end-datetime': `${o.begin}T23:59:59Z` },
    'contact-info': `smtp-tls-reporting@${o.org}`,
    'report-id': o.reportId,
    policies: [
      {
        policy: { 'policy-type': 'sts', 'policy-string': ['version: STSv1', 'mode: testing', `mx: ${o.domain}`, 'max_age: 86400'], 'policy-domain': o.domain, 'mx-host': [o.domain] },
        summary: { 'total-successful-session-count': o.successful, 'total-failure-session-count': o.failures.reduce((s, f) => s + f.sessions, 0) },
        'failure-details': o.failures.map((f) => ({ 'result-type': f.type, 'sending-mta-ip': '203.0.113.9', 'receiving-mx-hostname': f.mx, 'failed-session-count': f.sessions })),
      },
    ],
  });
}

const base64 = (data: Uint8Array) => Buffer.from(data).toString('base64').replace(/.{76}/g, '$&\r\n');
const head = (from: string, to: string, subject: string) =>
  [`From: ${from}`, `To: ${to}`, `Subject: ${subject}`, `Date: ${new Date().toUTCString()}`, `Message-ID: <${crypto.randomUUID()}@${from.split('@')[1]}>`, 'MIME-Version: 1.0'].join('\r\n');

export const gzip = (text: string | Uint8Array) => gzipSync(typeof text === 'string' ? Buffer.from(text) : text);
export const zip = (files: Record<string, string | Uint8Array>) => zipSync(Object.fromEntries(Object.entries(files).map(([name, data]) => [name, typeof data === 'string' ? Buffer.from(data) : data])));

/** Google's way: the zip is the whole message. */
export function zipBodyMessage(to: string, reportDomain: string, reportId: string, archive: Uint8Array, from = 'noreply-dmarc-support@google.com') {
  const name = `google.com!${reportDomain}!${reportId}.zip`;
  return `${head(from, to, `Report domain: ${reportDomain} Submitter: google.com Report-ID: ${reportId}`)}\r\nContent-Type: application/zip; name="${name}"\r\nContent-Disposition: attachment; filename="${name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64(archive)}\r\n`;
}

/** Microsoft's way: text, then the gzipped XML, in multipart/mixed. */
export function attachedMessage(to: string, subject: string, attachment: { filename: string; contentType: string; data: Uint8Array }, from = 'dmarcreport@microsoft.com', type = 'multipart/mixed') {
  const boundary = `_b_${crypto.randomBytes(8).toString('hex')}`;
  return `${head(from, to, subject)}\r\nContent-Type: ${type}; boundary="${boundary}"\r\n\r\nThis is a multi-part message in MIME format.\r\n--${boundary}\r\nContent-Type: text/plain; charset="us-ascii"\r\nContent-Transfer-Encoding: 7bit\r\n\r\nThis is an aggregate report. Please do not reply.\r\n--${boundary}\r\nContent-Type: ${attachment.contentType}; name="${attachment.filename}"\r\nContent-Disposition: attachment; filename="${attachment.filename}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64(attachment.data)}\r\n--${boundary}--\r\n`;
}

/** RFC 8460 §5.3: multipart/report; report-type=tlsrpt, the JSON gzipped. */
export function tlsMessage(to: string, reportDomain: string, reportId: string, json: string, from = 'smtp-tls-reporting@google.com') {
  return attachedMessage(to, `Report Domain: ${reportDomain} Submitter: google.com Report-ID: <${reportId}>`, { filename: `google.com!${reportDomain}!${reportId}.json.gz`, contentType: 'application/tlsrpt+gzip', data: gzip(json) }, from, 'multipart/report; report-type="tlsrpt"');
}

/** The billion laughs: ten levels of ten references each (a billion "lol"s if expanded). */
export function entityBomb(domain: string) {
  const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
  return `<?xml version="1.0"?>\n<!DOCTYPE feedback [\n<!ENTITY lol0 "lol">\n${levels}\n]>\n<feedback><report_metadata><org_name>&lol9;</org_name><report_id>bomb</report_id><date_range><begin>1</begin><end>2</end></date_range></report_metadata><policy_published><domain>${domain}</domain></policy_published></feedback>`;
}

/** Zeros: a few tens of kilobytes that expand to `mib` MiB. */
export const zeros = (mib: number) => new Uint8Array(mib * 1024 * 1024);
