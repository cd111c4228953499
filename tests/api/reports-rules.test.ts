/**
 * The reports rules the first reports tests did not reach (found by Stryker on server/reports):
 * how the mail server's route takes its token and the message at its size cap, which parts of a
 * message are read and how one refused attachment spares the others, what a stored report counts,
 * the pictures' window of days and their shares, the latest reports and the summary's order,
 * reverse names looked up a bounded number at a time, which operators may change the policy, and
 * what the housekeeping removes at its edges.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { operatorLogin, operatorWithRole, signUpCustomer } from '../helpers/fixtures.js';
import { GiB, mailFixtures } from '../helpers/mail-fixtures.js';
import { attachedMessage, dmarcXml, gzip, tlsJson, tlsMessage, type DmarcRecordFixture } from '../helpers/report-fixtures.js';

const TOKEN = 'mail-server-token-0123456789';
const REPORTS = 'reports@maildesk.test';
const CAP = 200_000;
const DAY = 86_400_000;
let t: TestApp;
let dns: DnsServer;
let mail: ReturnType<typeof mailFixtures>;
let operator: string;
const daysBack = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  dns = await startDnsServer();
  t = await startTestApp({ MAIL_SERVER_TOKEN: TOKEN, DNS_SERVERS: dns.address, REPORT_MAX_BYTES: String(CAP) });
  mail = mailFixtures(t);
  operator = await mail.operator();
});
afterAll(async () => {
  t.resetClock();
  await t.close();
  await dns.close();
});

const hand = (message: string | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/mail-server/reports', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'message/rfc822', ...headers }, payload: typeof message === 'string' ? Buffer.from(message) : message });
const intake = async (message: string | Buffer) => (await hand(message)).json().data;

async function customerWithDomain() {
  const customer = await signUpCustomer(t);
  await mail.grant(customer.id, GiB);
  const domain = await mail.activeDomain(customer);
  return { customer, domain: { id: domain.id as number, name: domain.name as string } };
}
const dmarcMessage = (xml: string, filename = 'r.xml.gz') => attachedMessage(REPORTS, 'Report', { filename, contentType: 'application/gzip', data: gzip(xml) });
const dmarcReport = (domain: string, reportId: string, begin: string, records: DmarcRecordFixture[], org = 'google.com') => dmarcMessage(dmarcXml({ org, reportId, domain, begin, records }));
const passing = (ip: string, count: number): DmarcRecordFixture => ({ ip, count, dkim: 'pass', spf: 'pass' });
const failing = (ip: string, count: number): DmarcRecordFixture => ({ ip, count, dkim: 'fail', spf: 'fail', dkimResults: [] });

/** A message of these parts (each: headers, body), multipart/mixed. */
function multipart(...parts: [string, string][]) {
  return `From: a@b.example\r\nTo: ${REPORTS}\r\nContent-Type: multipart/mixed; boundary=mb\r\n\r\n${parts.map(([head, body]) => `--mb\r\n${head}\r\n\r\n${body}\r\n`).join('')}--mb--\r\n`;
}

describe('the mail server\'s route', () => {
  it('When the token is presented other than as "Bearer <token>", or differs by a character, then nothing is read (401); spaces around it are forgiven', async () => {
    const none = `From: a@b.example\r\nTo: ${REPORTS}\r\n\r\nhello\r\n`;
    for (const authorization of [`bearer ${TOKEN}`, `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN.slice(0, -1)}X`, TOKEN]) {
      const refused = await hand(none, { authorization });
      expect([refused.statusCode, refused.json()], authorization).toEqual([401, { code: 20000, data: null, message: 'error.session' }]);
    }
    const spaced = await hand(none, { authorization: `Bearer   ${TOKEN}  ` });
    expect([spaced.statusCode, spaced.json().code, spaced.json().message]).toEqual([200, 0, 'ok']);
    expect(spaced.json().data).toMatchObject({ stored: [], refused: [{ reason: 'no_report', detail: 'report_refused.no_attachment' }] });
  });

  it('When the message is exactly REPORT_MAX_BYTES it is read, one byte more is refused with 413 and logged with its size; octet-stream is taken too, JSON is not', async () => {
    const head = `From: a@b.example\r\nTo: ${REPORTS}\r\n\r\n`;
    const atCap = Buffer.concat([Buffer.from(head), Buffer.alloc(CAP - head.length, 0x61)]);
    const read = await hand(atCap, { 'content-type': 'application/octet-stream' });
    expect([read.statusCode, read.json().data.refused[0].reason]).toEqual([200, 'no_report']);
    const over = await hand(Buffer.concat([atCap, Buffer.from('a')]));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 41300, message: 'error.too_large', data: { stored: [], duplicates: [], refused: [{ reason: 'too_large', detail: 'report_refused.message_too_large', params: { bytes: CAP + 1, cap: CAP, smart_count: CAP + 1 } }] } });
    const summary = await t.get('/api/manage/reports/summary', { days: 1 }, { token: operator });
    expect(summary.data.refused.latest[0]).toMatchObject({ reason: 'too_large', detail: 'report_refused.message_too_large', params: { bytes: CAP + 1, cap: CAP } });
    for (const [type, body] of [['application/json', '{"raw":"x"}'], ['text/plain', 'raw text']]) {
      const other = await hand(body, { 'content-type': type });
      expect([other.statusCode, other.json().code], type).toEqual([415, 40000]);
    }
  });

  it('When no MAIL_SERVER_TOKEN is set, then the route is not there (404)', async () => {
    const bare = await startTestApp();
    try {
      const reply = await bare.app.inject({ method: 'POST', url: '/api/mail-server/reports', headers: { authorization: 'Bearer ', 'content-type': 'message/rfc822' }, payload: 'x' });
      expect([reply.statusCode, reply.json()]).toEqual([404, { code: 40400, data: null, message: 'error.not_found' }]);
    } finally {
      await bare.close();
    }
  });
});

describe('which parts are read', () => {
  it('When a report comes as a named text attachment it is read; unnamed text and HTML, forwarded messages and empty parts are the words around it', async () => {
    const { domain } = await customerWithDomain();
    const xml = dmarcXml({ org: 'mail.ru', reportId: `text-${domain.id}`, domain: domain.name, begin: daysBack(1), records: [passing('192.0.2.1', 2)] });
    const words = multipart(['Content-Type: text/plain', xml], ['Content-Type: text/html', xml], ['Content-Type: message/rfc822; name="fwd.eml"', xml], ['Content-Type: application/gzip; name="empty.gz"', '']);
    expect(await intake(words)).toMatchObject({ stored: [], refused: [{ reason: 'no_report', detail: 'report_refused.no_attachment' }] });
    const named = multipart(['Content-Type: text/plain', 'This is a DMARC report.'], ['Content-Type: text/plain; name="Report.XML"', xml]);
    expect(await intake(named)).toMatchObject({ stored: [{ kind: 'dmarc', domain: domain.name, report_id: `text-${domain.id}` }], refused: [] });
  });

  it('When one attachment of a message is refused, then the others are still stored, and what is neither XML nor JSON is named in the refusal', async () => {
    const { domain } = await customerWithDomain();
    const xml = dmarcXml({ org: 'Outlook.com', reportId: `two-${domain.id}`, domain: domain.name, begin: daysBack(1), records: [passing('192.0.2.1', 2)] });
    const message = multipart(['Content-Type: application/octet-stream; name="notes.bin"', 'hello there'], ['Content-Type: application/xml\r\nContent-Disposition: attachment; filename="r.xml"', xml], ['Content-Type: application/octet-stream', 'plain words']);
    expect(await intake(message)).toEqual({
      stored: [{ kind: 'dmarc', domain: domain.name, report_id: `two-${domain.id}`, id: expect.any(Number) }],
      duplicates: [],
      refused: [
        { reason: 'not_a_report', detail: 'report_refused.neither_dmarc_nor_tls', params: { name: 'notes.bin' } },
        { reason: 'not_a_report', detail: 'report_refused.neither_dmarc_nor_tls', params: { name: '-' } },
      ],
    });
  });

  it('When a message cannot be read as MIME, then it is refused as malformed with why', async () => {
    expect(await intake(`From: a@b.example\r\nContent-Type: multipart/mixed\r\n\r\n--x\r\n\r\ny\r\n--x--\r\n`)).toMatchObject({ stored: [], refused: [{ reason: 'malformed', detail: 'report_refused.mime_no_boundary' }] });
  });
});

describe('what a stored report counts', () => {
  it('When a DMARC report of 1,000 records is stored (two batches of 500), then every record counts, and only mail failing both DKIM and SPF is failed', async () => {
    const { customer, domain } = await customerWithDomain();
    const records: DmarcRecordFixture[] = Array.from({ length: 997 }, (_, i) => passing(`10.${Math.floor(i / 250)}.${i % 250}.1`, 1));
    records.push({ ip: '192.0.2.7', count: 5, dkim: 'fail', spf: 'pass', dkimResults: [] }, { ip: '192.0.2.8', count: 7, dkim: 'pass', spf: 'fail' }, failing('192.0.2.9', 3));
    expect((await intake(dmarcReport(domain.name, `big-${domain.id}`, daysBack(1), records))).stored).toHaveLength(1);
    const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 3 }, { token: customer.token });
    expect(view.data.totals).toEqual({ messages: 1012, pass: 1009, fail: 3, share_failing: 0.3 });
    expect(view.data.reports).toMatchObject([{ report_id: `big-${domain.id}`, messages: 1012, failed: 3 }]);
    expect(view.data.days.find((d: { day: string }) => d.day === daysBack(1))).toEqual({ day: daysBack(1), messages: 1012, dkim_aligned: 1004, spf_aligned: 1002, pass: 1009, fail: 3 });
    // The same report again: a duplicate, said as such.
    expect((await intake(dmarcReport(domain.name, `big-${domain.id}`, daysBack(1), records))).duplicates).toEqual([{ kind: 'dmarc', domain: domain.name, report_id: `big-${domain.id}` }]);
    // A report about a domain not hosted here names it.
    expect((await intake(dmarcReport('elsewhere.example', 'far-1', daysBack(1), [passing('192.0.2.1', 1)]))).refused).toEqual([
      { reason: 'unknown_domain', detail: 'report_refused.dmarc_unknown_domain', params: { report_id: 'far-1', organisation: 'google.com', domain: 'elsewhere.example' } },
    ]);
  });

  it('When a TLS report names two policies of a domain and one of a domain not hosted here, then the hosted one is stored with both summed and the other refused', async () => {
    const { customer, domain } = await customerWithDomain();
    const json = JSON.stringify({
      'organization-name': 'Google Inc.',
      'date-range': { 'start-datetime': `${daysBack(1)}T00:00:00Z`, 'end-datetime': `${daysBack(1)}T23:59:59Z` },
      'report-id': `split-${domain.id}`,
      policies: [
        { policy: { 'policy-type': 'sts', 'policy-domain': domain.name }, summary: { 'total-successful-session-count': 40, 'total-failure-session-count': 2 }, 'failure-details': [{ 'result-type': 'certificate-expired', 'receiving-mx-hostname': `mx.${domain.name}`, 'failed-session-count': 2 }] },
        { policy: { 'policy-type': 'no-policy-found', 'policy-domain': domain.name.toUpperCase() }, summary: { 'total-successful-session-count': 9, 'total-failure-session-count': 5 }, 'failure-details': [{ 'result-type': 'starttls-not-supported', 'receiving-mx-hostname': `mx.${domain.name}`, 'failed-session-count': 5 }] },
        { policy: { 'policy-type': 'sts', 'policy-domain': 'elsewhere.example' }, summary: { 'total-successful-session-count': 1, 'total-failure-session-count': 0 } },
      ],
    });
    expect(await intake(tlsMessage(REPORTS, domain.name, `split-${domain.id}`, json))).toEqual({
      stored: [{ kind: 'tls', domain: domain.name, report_id: `split-${domain.id}`, id: expect.any(Number) }],
      duplicates: [],
      refused: [{ reason: 'unknown_domain', detail: 'report_refused.tls_unknown_domain', params: { report_id: `split-${domain.id}`, organisation: 'Google Inc.', domain: 'elsewhere.example' } }],
    });
    const view = await t.get('/api/admin/reports/tls', { domain_id: domain.id, days: 2 }, { token: customer.token });
    expect(view.data.totals).toEqual({ successful: 49, failed: 7, share_failed: 12.5 });
    expect(view.data.failures).toEqual([
      { receiving_mx: `mx.${domain.name}`, result_type: 'starttls-not-supported', sessions: 5 },
      { receiving_mx: `mx.${domain.name}`, result_type: 'certificate-expired', sessions: 2 },
    ]);
    expect(view.data.reports).toMatchObject([{ report_id: `split-${domain.id}`, messages: 56, failed: 7 }]);
    expect((await intake(tlsMessage(REPORTS, domain.name, `split-${domain.id}`, json))).duplicates).toEqual([{ kind: 'tls', domain: domain.name, report_id: `split-${domain.id}` }]);
    // Without policies there is nothing to store.
    const empty = JSON.stringify({ ...JSON.parse(json), 'report-id': 'empty', policies: [] });
    expect(await intake(tlsMessage(REPORTS, domain.name, 'empty', empty))).toMatchObject({ stored: [], refused: [{ reason: 'malformed', detail: 'report_refused.tls_no_policies', params: { report_id: 'empty', organisation: 'Google Inc.' } }] });
  });

  it('When a DMARC and a TLS report share an organisation and report id, then both are stored (one of each kind)', async () => {
    const { domain } = await customerWithDomain();
    const id = `same-${domain.id}`;
    expect((await intake(dmarcReport(domain.name, id, daysBack(1), [passing('192.0.2.1', 1)]))).stored).toHaveLength(1);
    expect((await intake(tlsMessage(REPORTS, domain.name, id, tlsJson({ org: 'google.com', reportId: id, domain: domain.name, begin: daysBack(1), successful: 3, failures: [] })))).stored).toMatchObject([{ kind: 'tls' }]);
  });
});

describe('the pictures', () => {
  it('When reports cover the window\'s first day and the day before it, then only the first day counts, shares are rounded to a tenth, and a day without reports is zero', async () => {
    const { customer, domain } = await customerWithDomain();
    await intake(dmarcReport(domain.name, `in-${domain.id}`, daysBack(2), [passing('192.0.2.1', 2), failing('192.0.2.2', 1)]));
    await intake(dmarcReport(domain.name, `out-${domain.id}`, daysBack(3), [failing('192.0.2.2', 50)]));
    const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 3 }, { token: customer.token });
    expect(view.data.days.map((d: { day: string; messages: number }) => [d.day, d.messages])).toEqual([
      [daysBack(2), 3],
      [daysBack(1), 0],
      [daysBack(0), 0],
    ]);
    expect(view.data.totals).toEqual({ messages: 3, pass: 2, fail: 1, share_failing: 33.3 });
    expect(view.data.policy.options).toEqual([
      { policy: 'none', affected: 0, share: 0, forwarded: 0 },
      { policy: 'quarantine', affected: 1, share: 33.3, forwarded: 0 },
      { policy: 'reject', affected: 1, share: 33.3, forwarded: 0 },
    ]);
    const four = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 4 }, { token: customer.token });
    expect(four.data.totals).toMatchObject({ messages: 53, fail: 51, share_failing: 96.2 });
    const quiet = await customerWithDomain();
    const nothing = await t.get('/api/admin/reports/dmarc', { domain_id: quiet.domain.id, days: 1 }, { token: quiet.customer.token });
    expect(nothing.data).toMatchObject({ days: [{ day: daysBack(0), messages: 0, pass: 0, fail: 0 }], totals: { messages: 0, pass: 0, fail: 0, share_failing: 0 }, sources: [], advice: [], reports: [] });
    // A report dated after today (a receiver's clock ahead) is kept but shown on no day of the window.
    await intake(dmarcReport(quiet.domain.name, `ahead-${quiet.domain.id}`, daysBack(-2), [passing('192.0.2.1', 9)]));
    const ahead = await t.get('/api/admin/reports/dmarc', { domain_id: quiet.domain.id, days: 1 }, { token: quiet.customer.token });
    expect(ahead.data.days).toEqual([{ day: daysBack(0), messages: 0, dkim_aligned: 0, spf_aligned: 0, pass: 0, fail: 0 }]);
    const tls = await t.get('/api/admin/reports/tls', { domain_id: quiet.domain.id, days: 1 }, { token: quiet.customer.token });
    expect(tls.data).toMatchObject({ days: [{ day: daysBack(0), successful: 0, failed: 0 }], totals: { successful: 0, failed: 0, share_failed: 0 }, failures: [], reports: [] });
  });

  it('When an organisation sends from many addresses, then organisations and their addresses are listed most messages first, at most 10 addresses each, with failures counted per address', async () => {
    const { customer, domain } = await customerWithDomain();
    const ips = Array.from({ length: 12 }, (_, i) => `198.51.100.${i + 1}`);
    ips.forEach((ip, i) => dns.ptr(ip, `out${i}.Bulk-Mailer.example.`));
    dns.ptr('198.51.100.200', 'relay.small.example');
    const records = [...ips.map((ip, i) => passing(ip, i + 1)), failing('198.51.100.12', 4), passing('198.51.100.200', 100)];
    await intake(dmarcReport(domain.name, `many-${domain.id}`, daysBack(1), records));
    const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 2 }, { token: customer.token });
    expect(view.data.sources.map((o: { organisation: string; messages: number; pass: number; fail: number }) => [o.organisation, o.messages, o.pass, o.fail])).toEqual([
      ['small.example', 100, 100, 0],
      ['bulk-mailer.example', 82, 78, 4],
    ]);
    const bulk = view.data.sources[1];
    expect(bulk).toMatchObject({ dkim_aligned: 78, spf_aligned: 78 });
    expect(bulk.sources).toHaveLength(10);
    expect(bulk.sources[0]).toEqual({ ip: '198.51.100.12', ptr: 'out11.bulk-mailer.example', messages: 16, fail: 4 });
    expect(bulk.sources.map((s: { messages: number }) => s.messages)).toEqual([16, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
  });

  it('When an organisation\'s total outweighs another\'s largest address, and an address\'s rows add up past another\'s, then the totals decide the order; DKIM failing alone is no failure', async () => {
    const { customer, domain } = await customerWithDomain();
    dns.ptr('198.51.100.31', 'a.one-big.example');
    for (const n of [32, 33, 34]) dns.ptr(`198.51.100.${n}`, `h${n}.three-small.example`);
    const records: DmarcRecordFixture[] = [
      passing('198.51.100.31', 50),
      passing('198.51.100.32', 30),
      { ip: '198.51.100.33', count: 12, dkim: 'fail', spf: 'pass', dkimResults: [] },
      failing('198.51.100.33', 12),
      passing('198.51.100.34', 20),
    ];
    await intake(dmarcReport(domain.name, `order-${domain.id}`, daysBack(1), records));
    const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 2 }, { token: customer.token });
    expect(view.data.sources.map((o: { organisation: string; messages: number; pass: number; fail: number }) => [o.organisation, o.messages, o.pass, o.fail])).toEqual([
      ['three-small.example', 74, 62, 12],
      ['one-big.example', 50, 50, 0],
    ]);
    expect(view.data.sources[0].sources).toEqual([
      { ip: '198.51.100.32', ptr: 'h32.three-small.example', messages: 30, fail: 0 },
      { ip: '198.51.100.33', ptr: 'h33.three-small.example', messages: 24, fail: 12 },
      { ip: '198.51.100.34', ptr: 'h34.three-small.example', messages: 20, fail: 0 },
    ]);
  });

  it('When a report names more senders than are looked up at once (64), then the rest are named at the next readings', async () => {
    const { customer, domain } = await customerWithDomain();
    const ips = Array.from({ length: 130 }, (_, i) => `203.0.${113 + Math.floor(i / 100)}.${(i % 100) + 1}`);
    for (const ip of ips) dns.ptr(ip, `h${ip.replaceAll('.', '-')}.lookups.example`);
    await intake(dmarcReport(domain.name, `ptr-${domain.id}`, daysBack(1), ips.map((ip) => passing(ip, 1))));
    type Organisation = { organisation: string; messages: number; sources: { ip: string; ptr: string }[] };
    const reading = async () => (await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 2 }, { token: customer.token })).data.sources as Organisation[];
    // 64 when stored, 64 more at the first reading, the last 2 at the second; until then they stand as their addresses, unnamed.
    const first = await reading();
    expect(first.find((o) => o.organisation === 'lookups.example')?.messages).toBe(128);
    const unnamed = first.filter((o) => ips.includes(o.organisation));
    expect(unnamed.map((o) => [o.messages, o.sources.map((s) => [s.ip === o.organisation, s.ptr])])).toEqual([
      [1, [[true, '']]],
      [1, [[true, '']]],
    ]);
    expect((await reading()).find((o) => o.organisation === 'lookups.example')?.messages).toBe(130);
  });
});

describe('reverse names kept a week', () => {
  it('When exactly a week has passed since a name was looked up it is still shown; a millisecond later it is looked up again', async () => {
    const { customer, domain } = await customerWithDomain();
    dns.ptr('198.51.100.77', 'old.week.example');
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    try {
      await intake(dmarcReport(domain.name, `week-${domain.id}`, daysBack(1), [passing('198.51.100.77', 1)]));
      dns.ptr('198.51.100.77', 'new.week.example');
      const token = async () => (await t.post('/api/admin/login/login', { email: customer.email, password: customer.password })).data.token;
      const shown = async () => {
        const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 30 }, { token: await token() });
        return view.data.sources[0].organisation;
      };
      vi.setSystemTime(start + 7 * DAY);
      expect(await shown()).toBe('week.example');
      expect((await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 30 }, { token: await token() })).data.sources[0].sources[0].ptr).toBe('old.week.example');
      vi.setSystemTime(start + 7 * DAY + 1);
      expect((await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 30 }, { token: await token() })).data.sources[0].sources[0].ptr).toBe('new.week.example');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the latest reports and the summary', () => {
  it('When reports were received over several days, then each picture lists those received within its window, newest first, at most 20', async () => {
    const { customer, domain } = await customerWithDomain();
    try {
      await intake(dmarcReport(domain.name, `old-${domain.id}`, daysBack(1), [passing('192.0.2.1', 1)]));
      await t.moveClock(8 * DAY);
      for (let i = 0; i < 21; i++) await intake(dmarcReport(domain.name, `new-${domain.id}-${i}`, daysBack(-7), [passing('192.0.2.1', 1)]));
      const token = (await t.post('/api/admin/login/login', { email: customer.email, password: customer.password })).data.token;
      const week = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 7 }, { token });
      expect(week.data.reports).toHaveLength(20);
      expect(week.data.reports.map((r: { report_id: string }) => r.report_id)).not.toContain(`old-${domain.id}`);
      const received = week.data.reports.map((r: { received_at: string }) => r.received_at);
      expect(received).toEqual([...received].sort().reverse());
      expect(week.data.reports[0]).toMatchObject({ report_id: `new-${domain.id}-20`, org_name: 'google.com', contact: 'noreply-dmarc-support@google.com', domain: domain.name, messages: 1, failed: 0 });
      const month = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 30 }, { token });
      expect(month.data.totals.messages).toBe(22);
    } finally {
      t.resetClock();
    }
  });

  it('When the summary is read, then domains are listed most failures first across DMARC and TLS, and refusals newest first with their parameters', async () => {
    const a = await customerWithDomain();
    const b = await customerWithDomain();
    await intake(dmarcReport(a.domain.name, `sa-${a.domain.id}`, daysBack(1), [failing('192.0.2.3', 900_001)]));
    await intake(tlsMessage(REPORTS, b.domain.name, `sb-${b.domain.id}`, tlsJson({ org: 'google.com', reportId: `sb-${b.domain.id}`, domain: b.domain.name, begin: daysBack(1), successful: 1, failures: [{ mx: 'mx.example', type: 'validation-failure', sessions: 900_002 }] })));
    await intake(dmarcReport(b.domain.name, `sc-${b.domain.id}`, daysBack(1), [failing('192.0.2.3', 900_000)]));
    const summary = await t.get('/api/manage/reports/summary', { days: 2 }, { token: operator });
    expect(summary.data.domains.slice(0, 3)).toEqual([
      { domain_id: b.domain.id, name: b.domain.name, name_unicode: b.domain.name, kind: 'tls', messages: 900_003, failed: 900_002, reports: 1 },
      { domain_id: a.domain.id, name: a.domain.name, name_unicode: a.domain.name, kind: 'dmarc', messages: 900_001, failed: 900_001, reports: 1 },
      { domain_id: b.domain.id, name: b.domain.name, name_unicode: b.domain.name, kind: 'dmarc', messages: 900_000, failed: 900_000, reports: 1 },
    ]);
    const day = summary.data.days.find((d: { day: string }) => d.day === daysBack(1));
    expect(day.fail).toBeGreaterThanOrEqual(1_800_001);
    expect(day.tls_failed).toBeGreaterThanOrEqual(900_002);
    await intake('From: a@b.example\r\n\r\nfirst\r\n');
    await intake(multipart(['Content-Type: application/octet-stream; name="second.bin"', 'x']));
    const refused = (await t.get('/api/manage/reports/summary', { days: 1 }, { token: operator })).data.refused;
    expect(refused.latest.slice(0, 2)).toMatchObject([
      { reason: 'not_a_report', detail: 'report_refused.neither_dmarc_nor_tls', params: { name: 'second.bin' } },
      { reason: 'no_report', detail: 'report_refused.no_attachment', params: {} },
    ]);
    expect(refused.latest[0].id).toBeGreaterThan(refused.latest[1].id);
    // Every day of the window is counted in numbers, a day without reports as 0.
    const month = (await t.get('/api/manage/reports/summary', { days: 30 }, { token: operator })).data.days;
    expect(month).toHaveLength(30);
    expect(month.every((d: Record<string, unknown>) => ['messages', 'fail', 'tls_successful', 'tls_failed'].every((k) => typeof d[k] === 'number'))).toBe(true);
  });

  it('When a refusal was kept without readable parameters (from before they were kept), then it is listed with none', async () => {
    const at = new Date().toISOString();
    for (const detail_params of ['[1,2]', '7', 'null', 'not json']) {
      await t.services.db.insertInto('report_refusal').values({ received_at: at, reason: 'malformed', detail: 'report_refused.unreadable_message', detail_params }).execute();
    }
    const latest = (await t.get('/api/manage/reports/summary', { days: 1 }, { token: operator })).data.refused.latest.slice(0, 4);
    expect(latest.map((r: { params: unknown }) => r.params)).toEqual([{}, {}, {}, {}]);
  });
});

describe('who may change the policy', () => {
  it('When a billing operator reads a domain\'s reports they are shown, but changing its policy is refused; support may, and the change is logged with before and after', async () => {
    const { customer, domain } = await customerWithDomain();
    const billing = await operatorWithRole(t, 'billing');
    const support = await operatorWithRole(t, 'support');
    expect((await t.get('/api/manage/reports/dmarc', { domain_id: domain.id }, { token: billing.token })).code).toBe(0);
    expect((await t.get('/api/manage/reports/tls', { domain_id: domain.id }, { token: billing.token })).code).toBe(0);
    expect((await t.get('/api/manage/reports/summary', {}, { token: billing.token })).code).toBe(0);
    expect(await t.post('/api/manage/reports/update_policy', { domain_id: domain.id, policy: 'reject' }, { token: billing.token })).toMatchObject({ status: 403 });
    const changed = await t.post('/api/manage/reports/update_policy', { domain_id: domain.id, policy: 'quarantine' }, { token: support.token });
    expect(changed).toMatchObject({ code: 0, data: { domain_id: domain.id, dmarc_policy: 'quarantine', record: { type: 'TXT', host: `_dmarc.${domain.name}`, value: `v=DMARC1; p=quarantine; rua=mailto:${REPORTS}` } } });
    await t.post('/api/admin/reports/update_policy', { domain_id: domain.id, policy: 'reject' }, { token: customer.token });
    const log = await t.post('/api/admin/log/list', { page_size: 50 }, { token: customer.token });
    const changes = log.data.list.filter((e: { target_type: string }) => e.target_type === 'domain_dmarc');
    expect(changes.map((e: { action: string; target_id: number; before: unknown; after: unknown }) => [e.action, e.target_id, e.before, e.after])).toEqual([
      ['update', domain.id, { dmarc_policy: 'quarantine' }, { dmarc_policy: 'reject' }],
      ['update', domain.id, { dmarc_policy: null }, { dmarc_policy: 'quarantine' }],
    ]);
    const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id }, { token: customer.token });
    expect(view.data.policy).toMatchObject({ chosen: 'reject', current: 'reject', record: `v=DMARC1; p=reject; rua=mailto:${REPORTS}` });
  });
});

describe('housekeeping', () => {
  it('When reports are 400 days old and refusals 90 days old they are removed, and a minute younger they stay', async () => {
    const { domain } = await customerWithDomain();
    const reportsOf = async () => (await t.services.db.selectFrom('mail_report').select('id').where('domain_id', '=', domain.id).execute()).length;
    const rowsOf = async () => (await t.services.db.selectFrom('dmarc_row').select('id').where('domain_id', '=', domain.id).execute()).length;
    const refusedTotal = async () => {
      // The clock moves by days: a fresh session each time.
      const token = await operatorLogin(t);
      return (await t.get('/api/manage/reports/summary', { days: 366 }, { token })).data.refused.total as number;
    };
    try {
      await intake(dmarcReport(domain.name, `hk-${domain.id}`, daysBack(1), [passing('192.0.2.1', 1), failing('192.0.2.2', 1)]));
      const refusalsBefore = await refusedTotal();
      await intake('From: a@b.example\r\n\r\nno report\r\n');
      expect(await refusedTotal()).toBe(refusalsBefore + 1);

      await t.moveClock(90 * DAY - 60_000);
      await t.services.jobs.runSchedule('housekeeping');
      expect(await refusedTotal()).toBe(refusalsBefore + 1);
      await t.moveClock(2 * 60_000);
      await t.services.jobs.runSchedule('housekeeping');
      expect(await refusedTotal()).toBeLessThanOrEqual(refusalsBefore);

      await t.moveClock(310 * DAY - 2 * 60_000);
      await t.services.jobs.runSchedule('housekeeping');
      expect([await reportsOf(), await rowsOf()]).toEqual([1, 2]);
      await t.moveClock(2 * 60_000);
      await t.services.jobs.runSchedule('housekeeping');
      expect([await reportsOf(), await rowsOf()]).toEqual([0, 0]);
    } finally {
      t.resetClock();
    }
  });
});
