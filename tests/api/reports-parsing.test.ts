/**
 * What a report message is read as, at the edges of each rule (found by Stryker on server/reports):
 * the MIME reader (folded headers, parameters in RFC 2231's forms, encodings, nesting and part caps),
 * archives at their caps (a bomb by its ratio, too large by the absolute cap, zip entries), the
 * DMARC and TLS readers' limits and normalisations, the advice's kinds and caps, and the
 * reporting address. Pure functions, called as the intake calls them.
 */
import crypto from 'node:crypto';
import { gzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { adviceFor, kindOf, type SourceResults } from '../../server/reports/advice.js';
import { reportsAddressOf } from '../../server/reports/address.js';
import { documentsOf } from '../../server/reports/archive.js';
import { isDmarcDocument, parseDmarc } from '../../server/reports/dmarc.js';
import { mimeParts } from '../../server/reports/mime.js';
import { limits, refusal, ReportRefused } from '../../server/reports/refusal.js';
import { isTlsDocument, parseTls } from '../../server/reports/tls.js';

const MiB = 1024 * 1024;

/** The refusal a call throws (reason, detail key, parameters), or 'none'. */
async function refusalOf(call: () => unknown) {
  try {
    await call();
    return 'none';
  } catch (error) {
    if (!(error instanceof ReportRefused)) throw error;
    return { reason: error.reason, detail: error.detail, params: error.params };
  }
}

// ------------------------------------------------------------------ DMARC
const record = (row: string, rest = '') => `<record><row>${row}</row>${rest}</record>`;
const goodRow = '<source_ip>192.0.2.1</source_ip><count>3</count>';
/** A DMARC report; a field given as null is left out. */
function feedback(given: { org?: string | null; id?: string; begin?: string | null; end?: string; domain?: string; p?: string; email?: string; records?: string } = {}) {
  const o = { org: 'example.net', id: 'r1', begin: '1700000000', end: '1700086399', domain: 'example.org', records: record(goodRow), ...given };
  const tag = (name: string, value: string | null | undefined) => (value == null ? '' : `<${name}>${value}</${name}>`);
  return Buffer.from(
    `<?xml version="1.0"?><feedback><report_metadata>${tag('org_name', o.org)}${tag('email', o.email)}${tag('report_id', o.id)}<date_range>${tag('begin', o.begin)}${tag('end', o.end)}</date_range></report_metadata><policy_published>${tag('domain', o.domain)}${tag('p', o.p)}</policy_published>${o.records}</feedback>`,
  );
}

describe('DMARC reports: what is refused', () => {
  it('When the XML declares a DOCTYPE or an ENTITY, in any case, then it is refused as entities before it is parsed', async () => {
    for (const head of ['<!DOCTYPE feedback>', '<!doctype feedback>', '<!ENTITY x "y">', '<!entity x "y">']) {
      const xml = Buffer.from(`<?xml version="1.0"?>${head}${feedback().toString().replace('<?xml version="1.0"?>', '')}`);
      expect(await refusalOf(() => parseDmarc(xml)), head).toEqual({ reason: 'entities', detail: 'report_refused.dmarc_entities', params: {} });
    }
  });

  it('When the XML is not a feedback document, or cannot be read, then it is refused as not a report or as malformed, with the parser\'s words', async () => {
    expect(await refusalOf(() => parseDmarc(Buffer.from('<invoice><total>3</total></invoice>')))).toMatchObject({ reason: 'not_a_report', detail: 'report_refused.xml_not_dmarc' });
    expect(await refusalOf(() => parseDmarc(Buffer.from('<feedback>just words</feedback>')))).toMatchObject({ reason: 'not_a_report', detail: 'report_refused.xml_not_dmarc' });
    // Nested past fast-xml-parser's maxNestedTags, 16 (no report nests more than 5).
    const deep = (n: number) => Buffer.from(`<feedback>${'<a>'.repeat(n)}${'</a>'.repeat(n)}</feedback>`);
    expect(await refusalOf(() => parseDmarc(deep(17)))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_unreadable', params: { error: 'Maximum nested tags exceeded' } });
    expect(await refusalOf(() => parseDmarc(deep(16)))).toMatchObject({ detail: 'report_refused.dmarc_missing' });
    expect(await refusalOf(() => parseDmarc(Buffer.from('<feedback x="1></feedback>')))).toMatchObject({ reason: 'malformed', detail: 'report_refused.dmarc_unreadable' });
  });

  it('When a report holds 50,000 records they are read (the first empty one is then missing its address), and 50,001 are refused as too large', async () => {
    const many = (n: number) => feedback({ records: '<record></record>'.repeat(n) });
    expect(await refusalOf(() => parseDmarc(many(limits.records)))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_missing', params: { field: 'row.source_ip' } });
    expect(await refusalOf(() => parseDmarc(many(limits.records + 1)))).toEqual({ reason: 'too_large', detail: 'report_refused.dmarc_records', params: { count: 50_001, max: 50_000, smart_count: 50_001 } });
  });

  it('When the date range is missing, negative, fractional or past 4e9 seconds, then it is refused naming the field; 4e9 itself and spaces around are read', async () => {
    expect(await refusalOf(() => parseDmarc(feedback({ begin: null })))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_missing', params: { field: 'date_range.begin' } });
    for (const bad of ['-1', '1.5', '4000000001', 'soon']) {
      expect(await refusalOf(() => parseDmarc(feedback({ end: bad }))), bad).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_not_count', params: { field: 'date_range.end' } });
    }
    // 21 digits is longer than a count may be written.
    expect(await refusalOf(() => parseDmarc(feedback({ begin: '1'.repeat(21) })))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_length', params: { field: 'date_range.begin', max: 20, smart_count: 20 } });
    const report = parseDmarc(feedback({ begin: ' 0 ', end: '4000000000' }));
    expect([report.begin.toISOString(), report.end.getTime()]).toEqual(['1970-01-01T00:00:00.000Z', 4e12]);
  });

  it('When the organisation or report id is empty or longer than 255 characters, then it is refused; 255 is read', async () => {
    expect(await refusalOf(() => parseDmarc(feedback({ org: null })))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_missing', params: { field: 'report_metadata.org_name' } });
    expect(await refusalOf(() => parseDmarc(feedback({ org: '' })))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_length', params: { field: 'report_metadata.org_name', max: 255, smart_count: 255 } });
    expect(await refusalOf(() => parseDmarc(feedback({ id: 'x'.repeat(256) })))).toMatchObject({ detail: 'report_refused.dmarc_length', params: { field: 'report_metadata.report_id' } });
    expect(parseDmarc(feedback({ id: 'x'.repeat(255), org: '  Yahoo ' }))).toMatchObject({ reportId: 'x'.repeat(255), orgName: 'Yahoo' });
  });

  it('When a record\'s address is no address or its count is past a billion, then it is refused; a billion is read', async () => {
    expect(await refusalOf(() => parseDmarc(feedback({ records: record('<source_ip>mail.example.net</source_ip><count>1</count>') })))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_source_ip', params: { ip: 'mail.example.net' } });
    expect(await refusalOf(() => parseDmarc(feedback({ records: record(`<source_ip>${'1'.repeat(65)}</source_ip><count>1</count>`) })))).toMatchObject({ detail: 'report_refused.dmarc_length', params: { field: 'row.source_ip', max: 64 } });
    expect(await refusalOf(() => parseDmarc(feedback({ records: record('<source_ip>2001:db8::1</source_ip><count>1000000001</count>') })))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_not_count', params: { field: 'row.count' } });
    expect(parseDmarc(feedback({ records: record('<source_ip>2001:db8::1</source_ip><count>1000000000</count>') })).records[0]).toMatchObject({ sourceIp: '2001:db8::1', messages: 1e9 });
  });

  it('When the published domain is not a domain name, then it is refused; its case and final dot are dropped', async () => {
    expect(await refusalOf(() => parseDmarc(feedback({ domain: 'example .org' })))).toEqual({ reason: 'malformed', detail: 'report_refused.dmarc_not_domain', params: { field: 'policy_published.domain' } });
    expect(await refusalOf(() => parseDmarc(feedback({ domain: 'example.org/x' })))).toMatchObject({ detail: 'report_refused.dmarc_not_domain' });
    expect(parseDmarc(feedback({ domain: 'Mail_Sub.Example.ORG.' })).domain).toBe('mail_sub.example.org');
  });
});

describe('DMARC reports: what is read', () => {
  it('When a record is read, then verdicts, disposition, the From domain and the results are normalised as stored', () => {
    const dkim = (domain: string | undefined, result: string | undefined) => `<dkim>${domain === undefined ? '' : `<domain>${domain}</domain>`}${result === undefined ? '' : `<result>${result}</result>`}</dkim>`;
    const rows = [
      record('<source_ip>192.0.2.1</source_ip><count>2</count><policy_evaluated><disposition>Quarantine</disposition><dkim> PASS </dkim><spf>softfail</spf></policy_evaluated>', `<identifiers><header_from>Example.ORG</header_from></identifiers><auth_results>${dkim('Example.org', 'Pass')}${dkim(undefined, undefined)}<spf><domain>bounce.example.org</domain><result>SoftFail</result></spf></auth_results>`),
      record('<source_ip>192.0.2.2</source_ip><count>1</count><policy_evaluated><dkim>fail</dkim><spf>pass</spf></policy_evaluated>'),
      record(`<source_ip>192.0.2.3</source_ip><count>1</count><policy_evaluated><disposition>${'r'.repeat(25)}</disposition></policy_evaluated>`, `<auth_results>${Array.from({ length: 22 }, (_, i) => dkim(`d${i}.example`, 'x'.repeat(25))).join('')}</auth_results>`),
    ];
    const report = parseDmarc(feedback({ records: rows.join(''), p: ' Reject ', email: `  ${'m'.repeat(300)}` }));
    expect(report.records[0]).toEqual({ sourceIp: '192.0.2.1', messages: 2, disposition: 'quarantine', dkim: 'pass', spf: 'fail', headerFrom: 'example.org', dkimResults: 'example.org=pass -=none', spfResults: 'bounce.example.org=softfail' });
    expect(report.records[1]).toMatchObject({ disposition: 'none', dkim: 'fail', spf: 'pass', headerFrom: '', dkimResults: '', spfResults: '' });
    // At most 20 results, each result at most 20 characters; the disposition too.
    expect(report.records[2].disposition).toBe('r'.repeat(20));
    const results = report.records[2].dkimResults.split(' ');
    expect(results).toHaveLength(20);
    expect(results[19]).toBe(`d19.example=${'x'.repeat(20)}`);
    expect([report.policy, report.contact]).toEqual(['reject', 'm'.repeat(255)]);
    expect(parseDmarc(feedback()).policy).toBe('');
  });

  it('When a report holds no record, then it is read with none', () => {
    expect(parseDmarc(feedback({ records: '' })).records).toEqual([]);
  });

  it('When a document starts with XML, after a byte-order mark or spaces within its first 64 bytes, then it is read as DMARC; JSON and later XML are not', () => {
    expect(isDmarcDocument(Buffer.from('\uFEFF  \r\n<feedback/>'))).toBe(true);
    expect(isDmarcDocument(Buffer.from(`${' '.repeat(63)}<feedback/>`))).toBe(true);
    expect(isDmarcDocument(Buffer.from(`${' '.repeat(64)}<feedback/>`))).toBe(false);
    expect(isDmarcDocument(Buffer.from('report: <feedback/>'))).toBe(false);
    expect(isTlsDocument(Buffer.from('\n  {"a":1}'))).toBe(true);
    expect(isTlsDocument(Buffer.from('[{"a":1}]'))).toBe(false);
    expect(isTlsDocument(Buffer.from(`${' '.repeat(64)}{}`))).toBe(false);
  });
});

// ------------------------------------------------------------------ TLS
function tlsReport(o: { org?: string; start?: string; policies?: unknown[]; contact?: string | null } = {}) {
  return {
    'organization-name': o.org ?? 'Google Inc.',
    'date-range': { 'start-datetime': o.start ?? '2026-11-01T00:00:00Z', 'end-datetime': '2026-11-01T23:59:59Z' },
    ...(o.contact === null ? {} : { 'contact-info': o.contact ?? 'smtp-tls-reporting@google.com' }),
    'report-id': 'tls-1',
    policies: o.policies ?? [tlsPolicy()],
  };
}
const tlsPolicy = (o: { domain?: string; type?: string; ok?: number; failed?: number; details?: unknown[] } = {}) => ({
  policy: { 'policy-type': o.type ?? 'sts', 'policy-domain': o.domain ?? 'example.org' },
  summary: { 'total-successful-session-count': o.ok ?? 5, 'total-failure-session-count': o.failed ?? 0 },
  ...(o.details ? { 'failure-details': o.details } : {}),
});
const tls = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('TLS reports', () => {
  it('When a TLS report is read, then domains, policy types, receiving servers and result types are normalised; no contact reads as none', () => {
    const report = parseTls(tls(tlsReport({ contact: null, policies: [tlsPolicy({ domain: 'Example.ORG.', type: 'STS', ok: 7, failed: 2, details: [{ 'result-type': 'Certificate-Expired', 'receiving-mx-hostname': 'MX1.Example.org.', 'failed-session-count': 2 }, { 'result-type': 'sts-policy-fetch-error', 'failed-session-count': 0 }] })] })));
    expect(report).toMatchObject({ orgName: 'Google Inc.', contact: '', reportId: 'tls-1' });
    expect(report.begin.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(report.end.toISOString()).toBe('2026-11-01T23:59:59.000Z');
    expect(report.policies).toEqual([
      { domain: 'example.org', policyType: 'sts', successful: 7, failed: 2, failures: [{ receivingMx: 'mx1.example.org', resultType: 'certificate-expired', sessions: 2 }, { receivingMx: '', resultType: 'sts-policy-fetch-error', sessions: 0 }] },
    ]);
  });

  it('When the JSON cannot be read, breaks the format or names no date, then each is refused with why', async () => {
    expect(await refusalOf(() => parseTls(tls('{"organization-name":')))).toMatchObject({ reason: 'malformed', detail: 'report_refused.tls_unreadable' });
    const invalid = await refusalOf(() => parseTls(tls({ ...tlsReport(), 'report-id': '', policies: [tlsPolicy({ ok: -1 })] })));
    expect(invalid).toMatchObject({ reason: 'malformed', detail: 'report_refused.tls_invalid' });
    const issues = typeof invalid === 'string' ? '' : String(invalid.params.issues);
    expect(issues).toContain('report-id');
    expect(issues).toContain('policies.0.summary.total-successful-session-count');
    expect(await refusalOf(() => parseTls(tls(tlsReport({ start: 'yesterday' }))))).toEqual({ reason: 'malformed', detail: 'report_refused.tls_date', params: { field: 'start-datetime' } });
    const endless = { ...tlsReport(), 'date-range': { 'start-datetime': '2026-11-01T00:00:00Z', 'end-datetime': 'tomorrow' } };
    expect(await refusalOf(() => parseTls(tls(endless)))).toEqual({ reason: 'malformed', detail: 'report_refused.tls_date', params: { field: 'end-datetime' } });
    const unreadable = await refusalOf(() => parseTls(tls('{"organization-name":')));
    expect(typeof unreadable === 'string' ? '' : String(unreadable.params.error)).toMatch(/JSON/);
    // At most three issues are named, each as its path and what is wrong, separated by "; ".
    const four = await refusalOf(() => parseTls(tls({ 'organization-name': '', 'date-range': {}, 'report-id': '', policies: 'none' })));
    const named = typeof four === 'string' ? [] : String(four.params.issues).split('; ');
    expect(named).toHaveLength(3);
    expect(named[0]).toMatch(/^organization-name \S/);
  });

  it('When names, policies and failure details are at their caps they are read, and one past is refused', async () => {
    expect(parseTls(tls(tlsReport({ org: 'o'.repeat(255) }))).orgName).toHaveLength(255);
    expect(await refusalOf(() => parseTls(tls(tlsReport({ org: 'o'.repeat(256) }))))).toMatchObject({ detail: 'report_refused.tls_invalid' });
    expect(parseTls(tls(tlsReport({ policies: Array.from({ length: 1000 }, () => tlsPolicy()) }))).policies).toHaveLength(1000);
    expect(await refusalOf(() => parseTls(tls(tlsReport({ policies: Array.from({ length: 1001 }, () => tlsPolicy()) }))))).toMatchObject({ detail: 'report_refused.tls_invalid' });
    const detail = { 'result-type': 'validation-failure', 'failed-session-count': 1 };
    expect(parseTls(tls(tlsReport({ policies: [tlsPolicy({ details: Array(10_000).fill(detail) })] }))).policies[0].failures).toHaveLength(10_000);
    expect(await refusalOf(() => parseTls(tls(tlsReport({ policies: [tlsPolicy({ details: Array(10_001).fill(detail) })] }))))).toMatchObject({ detail: 'report_refused.tls_invalid' });
  });
});

// ------------------------------------------------------------------ MIME
const message = (head: string, body: string) => Buffer.from(`${head}\r\n\r\n${body}`, 'latin1');

describe('report messages: MIME', () => {
  it('When headers are folded, repeated or broken, then the first of each is read and the part is found with its name', () => {
    const parts = mimeParts(
      message(
        'From: a@b.example\r\n: no name\r\nnot a header\r\nContent-Type: multipart/mixed;\r\n\tboundary="b1"\r\nContent-Type: text/plain',
        'preamble\r\n--b1\r\nContent-Type: Application/GZIP; NAME="Report.XML.gz"\r\n\r\ndata\r\n--b1--\r\nepilogue\r\n--b1\r\nContent-Type: text/xml\r\n\r\nnot read\r\n',
      ),
    );
    expect(parts.map((p) => [p.contentType, p.filename, p.body.toString()])).toEqual([['application/gzip', 'report.xml.gz', 'data']]);
  });

  it('When a file name is given by the disposition, in RFC 2231\'s encoded or continued forms, then it wins over the type\'s name', () => {
    const leaf = (headers: string) => mimeParts(message(headers, 'x'))[0].filename;
    expect(leaf('Content-Type: application/zip; name=type.zip\r\nContent-Disposition: attachment; filename=Disp.zip')).toBe('disp.zip');
    expect(leaf("Content-Type: application/zip\r\nContent-Disposition: attachment; filename*=UTF-8''google.com!example.org!1.zip")).toBe('google.com!example.org!1.zip');
    expect(leaf('Content-Type: application/zip\r\nContent-Disposition: attachment; filename*0="part-one"; filename*1="-two.zip"')).toBe('part-one-two.zip');
    expect(leaf('Content-Type: application/zip; name="only-type.zip"')).toBe('only-type.zip');
    expect(leaf('Content-Type: application/zip; name')).toBe('');
    expect(mimeParts(message('Subject: no type', 'text'))[0]).toMatchObject({ contentType: 'text/plain', filename: '' });
  });

  it('When bodies are base64 (with line breaks and junk), quoted-printable (with soft breaks) or 8-bit, then each is decoded', () => {
    const body = (encoding: string, text: string) => mimeParts(message(`Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: ${encoding}`, text))[0].body;
    expect(body('BASE64', 'PGZl\r\nZWRi!YWNr\r\nPg==').toString()).toBe('<feedback>');
    expect(body('Quoted-Printable', '<feed=\r\nback a=3D"1"=3e=e9').toString('latin1')).toBe('<feedback a="1">\u00e9');
    expect(body('8bit', 'caf\u00e9=3D').toString('latin1')).toBe('caf\u00e9=3D');
  });

  it('When a message has bare LF line endings, padding after its boundaries and spaces in its headers, then it is read the same', () => {
    const lf = [
      'From: a@b.example',
      'Content-Type: multipart/report;',
      ' boundary=lf1',
      '',
      '--lf1   ',
      'Content-Type :  application/gzip ; name = "Report.gz"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'ab=',
      'cd=3D',
      '--lf1--',
      '',
    ].join('\n');
    const [part] = mimeParts(Buffer.from(lf));
    expect([part.contentType, part.filename, part.body.toString()]).toEqual(['application/gzip', 'report.gz', 'abcd=']);
  });

  it('When a file name is in RFC 2231\'s form with a language, or continued in more than ten pieces, then it is put together', () => {
    const leaf = (disposition: string) => mimeParts(message(`Content-Type: application/zip\r\nContent-Disposition: attachment; ${disposition}`, 'x'))[0].filename;
    expect(leaf("filename*=utf-8'en-us'report.zip")).toBe('report.zip');
    expect(leaf(Array.from({ length: 12 }, (_, i) => `filename*${i}="p${i}"`).join('; '))).toBe(Array.from({ length: 12 }, (_, i) => `p${i}`).join(''));
  });

  it('When multiparts nest 4 deep the leaf is read, 5 deep is refused; a multipart without a boundary is refused', async () => {
    const nested = (depth: number): string => (depth === 0 ? 'Content-Type: application/gzip\r\n\r\nleaf' : `Content-Type: multipart/mixed; boundary=d${depth}\r\n\r\n--d${depth}\r\n${nested(depth - 1)}\r\n--d${depth}--`);
    expect(mimeParts(Buffer.from(nested(4))).map((p) => p.body.toString())).toEqual(['leaf']);
    expect(await refusalOf(() => mimeParts(Buffer.from(nested(5))))).toEqual({ reason: 'malformed', detail: 'report_refused.mime_depth', params: { max: 4 } });
    expect(await refusalOf(() => mimeParts(message('Content-Type: multipart/report', '--x\r\n\r\ny\r\n--x--')))).toEqual({ reason: 'malformed', detail: 'report_refused.mime_no_boundary', params: {} });
  });

  it('When a message has 20 parts they are read, and 21 are refused', async () => {
    const parts = (n: number) => message('Content-Type: multipart/mixed; boundary=p', `${Array.from({ length: n }, (_, i) => `--p\r\nContent-Type: application/gzip\r\n\r\n${i}\r\n`).join('')}--p--`);
    expect(mimeParts(parts(20)).map((p) => p.body.toString())).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    expect(await refusalOf(() => mimeParts(parts(21)))).toEqual({ reason: 'malformed', detail: 'report_refused.mime_parts', params: { max: 20, smart_count: 20 } });
  });
});

// ------------------------------------------------------------------ archives
/** A gzip of `size` zero bytes whose compressed length is exactly `compressed` (padded with a file name in its header). */
function gzipOfLength(size: number, compressed: number) {
  const bare = gzipSync(new Uint8Array(size), { level: 9 });
  const pad = compressed - bare.length - 1; // the name is NUL-terminated
  if (pad < 1) throw new Error(`cannot pad ${bare.length} bytes to ${compressed}`);
  const padded = gzipSync(new Uint8Array(size), { level: 9, filename: 'n'.repeat(pad) });
  if (padded.length !== compressed) throw new Error(`padded to ${padded.length}, not ${compressed}`);
  return Buffer.from(padded);
}

describe('report archives', () => {
  it('When a gzip expands to exactly 100 times its size plus 1 MiB it is read, and one byte more is refused as a bomb', async () => {
    const compressed = 2000;
    const cap = compressed * limits.ratio + MiB;
    const [read] = await documentsOf('google.com!example.org!1.xml.gz', gzipOfLength(cap, compressed));
    expect([read.name, read.data.length]).toEqual(['google.com!example.org!1.xml', cap]);
    expect(await refusalOf(() => documentsOf('r.xml.gz', gzipOfLength(cap + 1, compressed)))).toEqual({ reason: 'bomb', detail: 'report_refused.gzip_expands', params: { size: '1.2 MiB', bytes: compressed, smart_count: compressed } });
  });

  it('When a gzip large enough for the absolute cap expands past 32 MiB, then it is too large, not a bomb', async () => {
    // 340 kB of noise compresses to more than 32 MiB / 100: the ratio's cap would be past the absolute one.
    const noise = crypto.randomBytes(340_000);
    const data = Buffer.from(gzipSync(Buffer.concat([noise, new Uint8Array(32 * MiB)]), { level: 1 }));
    expect(await refusalOf(() => documentsOf('big.json.gz', data))).toMatchObject({ reason: 'too_large', detail: 'report_refused.gzip_expands', params: { size: '32.0 MiB' } });
  });

  it('When an attachment itself is past 32 MiB, then it is refused unread; 32 MiB is taken as it is', async () => {
    const [taken] = await documentsOf('', Buffer.alloc(32 * MiB, 0x20));
    expect([taken.name, taken.data.length]).toEqual(['', 32 * MiB]);
    expect(await refusalOf(() => documentsOf('', Buffer.alloc(32 * MiB + 1, 0x20)))).toEqual({ reason: 'too_large', detail: 'report_refused.document_too_large', params: { name: '-', size: '32.0 MiB' } });
  });

  it('When a zip holds 10 files (and folders) each is read with its name in lower case, 11 files are refused, and a broken zip is malformed', async () => {
    const files = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`Report-${i}.XML`, Buffer.from(`<r${i}/>`)]));
    const docs = await documentsOf('a.zip', Buffer.from(zipSync({ ...files(9), 'folder/': {} })));
    expect(docs.map((d) => [d.name, d.data.toString()])).toEqual(Array.from({ length: 9 }, (_, i) => [`report-${i}.xml`, `<r${i}/>`]));
    expect(await documentsOf('a.zip', Buffer.from(zipSync(files(10))))).toHaveLength(10);
    expect(await refusalOf(() => documentsOf('a.zip', Buffer.from(zipSync(files(11)))))).toEqual({ reason: 'malformed', detail: 'report_refused.zip_entries', params: { count: 11, max: 10, smart_count: 11 } });
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40, 1)]);
    expect(await refusalOf(() => documentsOf('a.zip', broken))).toMatchObject({ reason: 'malformed', detail: 'report_refused.zip_unreadable' });
    const truncated = Buffer.from(gzipSync(Buffer.from('<feedback/>'.repeat(100)))).subarray(0, 30);
    expect(await refusalOf(() => documentsOf('a.gz', truncated))).toMatchObject({ reason: 'malformed', detail: 'report_refused.gzip_unreadable' });
  });

  it('When an attachment only begins like a gzip or a zip (too short, or one magic byte of two), then it is taken as it is', async () => {
    for (const bytes of [[0x1f, 0x8b], [0x1f, 0x00, 0x00], [0x00, 0x8b, 0x00], [0x50, 0x4b, 0x03, 0x04]]) {
      const [doc] = await documentsOf('x', Buffer.from(bytes));
      expect([doc.name, [...doc.data]], String(bytes)).toEqual(['x', bytes]);
    }
  });

  it('When a gzip is exactly two or three 4 kB pieces long, then it is read whole (the last piece ends the stream, once); only a final .gz is dropped from its name', async () => {
    for (const compressed of [8192, 12288]) {
      const [doc] = await documentsOf('r.gzip.xml.gz', gzipOfLength(300_000, compressed));
      expect([doc.name, doc.data.length], String(compressed)).toEqual(['r.gzip.xml', 300_000]);
    }
  });

  it('When a gzip or a zip cannot be read, then the refusal carries the reader\'s words', async () => {
    const zipError = await refusalOf(() => documentsOf('a.zip', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40, 1)])));
    const gzipError = await refusalOf(() => documentsOf('a.gz', Buffer.from(gzipSync(Buffer.from('<feedback/>'.repeat(100)))).subarray(0, 30)));
    for (const refused of [zipError, gzipError]) expect(typeof refused === 'string' ? '' : String(refused.params.error)).toMatch(/\w{3}/);
  });

  it('When a zip entry expands past its cap, then the zip is a bomb by what it declares', async () => {
    const archive = Buffer.from(zipSync({ 'r.xml': new Uint8Array(4 * MiB) }, { level: 9 }));
    expect(await refusalOf(() => documentsOf('r.zip', archive))).toEqual({ reason: 'bomb', detail: 'report_refused.zip_entry_declares', params: { name: 'r.xml', size: '4.0 MiB' } });
  });

  it('When a refusal quotes the reporter, then texts are cut to 200 characters and numbers kept', () => {
    expect(refusal('malformed', 'zip_unreadable', { error: 'e'.repeat(250), count: 12345 })).toEqual({ reason: 'malformed', detail: 'report_refused.zip_unreadable', params: { error: 'e'.repeat(200), count: 12345 } });
    expect(new ReportRefused('bomb', 'gzip_expands', { name: 'n'.repeat(201) }).params.name).toHaveLength(200);
  });
});

// ------------------------------------------------------------------ advice
const source = (o: Partial<SourceResults> & Pick<SourceResults, 'ip' | 'dkim' | 'spf'>): SourceResults => ({ organisation: o.ip, messages: 1, dkimResults: '', spfResults: '', ...o });

describe('advice', () => {
  it('When DKIM passes and SPF fails, then it is spf_missing only when SPF checked the domain or a subdomain of it and did not pass', () => {
    const d = 'example.org';
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'fail', spfResults: 'bounce.example.org=softfail' }), d)).toBe('spf_missing');
    for (const result of ['fail', 'neutral', 'none', 'permerror']) expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'fail', spfResults: `example.org=${result}` }), d), result).toBe('spf_missing');
    // SPF passed for the domain (only its alignment failed), or checked another domain (a name that merely ends alike).
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'fail', spfResults: 'example.org=pass' }), d)).toBeUndefined();
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'fail', spfResults: 'badexample.org=fail' }), d)).toBeUndefined();
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'fail', spfResults: 'example.org=temperror' }), d)).toBeUndefined();
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'fail', spfResults: 'example.org' }), d)).toBeUndefined();
    // Any one of the checks names the domain; results are whole words.
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'fail', spfResults: 'other.example=pass example.org=fail' }), d)).toBe('spf_missing');
    for (const word of ['hardfail', 'failure', 'nonexistent']) expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'fail', spfResults: `example.org=${word}` }), d), word).toBeUndefined();
    // Both aligned: nothing to advise, whatever an unaligned check said.
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'pass', spfResults: 'example.org=fail' }), d)).toBeUndefined();
  });

  it('When both fail, then it is forwarded when the domain\'s own signature broke (fail, permerror, temperror), unauthorised otherwise; DKIM failing alone is dkim_missing; both passing is fine', () => {
    const d = 'example.org';
    for (const result of ['fail', 'permerror', 'temperror']) expect(kindOf(source({ ip: '1.1.1.1', dkim: 'fail', spf: 'fail', dkimResults: `list.example.org=${result}` }), d), result).toBe('forwarded');
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'fail', spf: 'fail', dkimResults: 'example.org=none other.example=fail' }), d)).toBe('unauthorised');
    for (const word of ['softfail', 'failure', 'temperrors']) expect(kindOf(source({ ip: '1.1.1.1', dkim: 'fail', spf: 'fail', dkimResults: `example.org=${word}` }), d), word).toBe('unauthorised');
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'fail', spf: 'pass' }), d)).toBe('dkim_missing');
    expect(kindOf(source({ ip: '1.1.1.1', dkim: 'pass', spf: 'pass' }), d)).toBeUndefined();
  });

  it('When there are many sources, then advice is one item per kind and organisation, most messages first, at most 10, each with at most 5 addresses and the SPF mechanisms to add', () => {
    const sources = [
      ...Array.from({ length: 6 }, (_, i) => source({ ip: `2001:db8::${i + 1}`, organisation: 'sender.example', messages: 10, dkim: 'pass', spf: 'fail', spfResults: 'example.org=fail' })),
      source({ ip: '2001:db8::1', organisation: 'sender.example', messages: 5, dkim: 'pass', spf: 'fail', spfResults: 'example.org=fail' }),
      source({ ip: '2001:db8::1', organisation: 'sender.example', messages: 1, dkim: 'fail', spf: 'fail' }),
      ...Array.from({ length: 11 }, (_, i) => source({ ip: `192.0.2.${i + 1}`, organisation: `org${i}.example`, messages: 20 - i, dkim: 'fail', spf: 'pass' })),
      source({ ip: '192.0.2.99', organisation: 'fine.example', messages: 1000, dkim: 'pass', spf: 'pass' }),
    ];
    const advice = adviceFor(sources, 'example.org');
    expect(advice).toHaveLength(10);
    expect(advice[0]).toEqual({ kind: 'spf_missing', organisation: 'sender.example', messages: 65, ips: ['2001:db8::1', '2001:db8::2', '2001:db8::3', '2001:db8::4', '2001:db8::5'], spf_addition: 'ip6:2001:db8::1 ip6:2001:db8::2 ip6:2001:db8::3 ip6:2001:db8::4 ip6:2001:db8::5' });
    expect(advice.slice(1).map((a) => [a.kind, a.organisation, a.messages, a.spf_addition])).toEqual(Array.from({ length: 9 }, (_, i) => ['dkim_missing', `org${i}.example`, 20 - i, undefined]));
    expect(adviceFor(sources, 'example.org', 3)).toHaveLength(3);
    expect(adviceFor([source({ ip: '198.51.100.7', dkim: 'pass', spf: 'fail', spfResults: 'example.org=fail' })], 'example.org')[0].spf_addition).toBe('ip4:198.51.100.7');
  });
});

// ------------------------------------------------------------------ the reporting address
describe('the reporting address', () => {
  it('When REPORTS_ADDRESS is unset, then it is reports@ the mail host name, or none while that name cannot be published; a set address is taken as it is, lower case', () => {
    expect(reportsAddressOf(undefined, 'mail.example.net')).toBe('reports@mail.example.net');
    expect(reportsAddressOf('', 'localhost')).toBe('');
    expect(reportsAddressOf(' DMARC@Example.NET ', 'localhost')).toBe('dmarc@example.net');
    expect(() => reportsAddressOf('dmarc@localhost', 'mail.example.net')).toThrow('REPORTS_ADDRESS: expected an address such as reports@mail.example.net, got "dmarc@localhost"');
    expect(() => reportsAddressOf('not an address@example.net', 'mail.example.net')).toThrow(/REPORTS_ADDRESS/);
    expect(() => reportsAddressOf('reports@example.net/x', 'mail.example.net')).toThrow(/REPORTS_ADDRESS/);
  });
});
