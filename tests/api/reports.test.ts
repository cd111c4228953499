/**
 * DMARC aggregate and TLS reports as the mail server hands them over (POST
 * /api/mail-server/reports, the raw message), in the formats the large receivers send; read back
 * through both areas' calls; hostile archives refused and logged; the same report stored once;
 * the DMARC policy the DNS page proposes.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organisationOf } from '../../server/reports/sources.js';
import { reportQueries } from '../../server/reports/views.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { signUpCustomer, teamMemberOf } from '../helpers/fixtures.js';
import { GiB, mailFixtures } from '../helpers/mail-fixtures.js';
import { attachedMessage, dmarcXml, entityBomb, gzip, tlsJson, tlsMessage, zeros, zip, zipBodyMessage, type DmarcRecordFixture } from '../helpers/report-fixtures.js';

const TOKEN = 'mail-server-token-0123456789';
const REPORTS = 'reports@maildesk.test';
let t: TestApp;
let dns: DnsServer;
let mail: ReturnType<typeof mailFixtures>;
let operator: string;
const daysBack = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  dns = await startDnsServer();
  t = await startTestApp({ MAIL_SERVER_TOKEN: TOKEN, DNS_SERVERS: dns.address, REPORT_MAX_BYTES: String(2 * 1024 * 1024) });
  mail = mailFixtures(t);
  operator = await mail.operator();
  dns.ptr('209.85.220.41', 'mail-sor-f41.google.com');
  dns.ptr('209.85.220.69', 'mail-sor-f69.google.com');
  dns.ptr('198.51.100.7', 'o7.out.sendservice.net');
  dns.ptr('192.0.2.10', 'lists.forwarding-example.org');
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

const hand = (message: string | Buffer, token = TOKEN) =>
  t.app.inject({ method: 'POST', url: '/api/mail-server/reports', headers: { authorization: `Bearer ${token}`, 'content-type': 'message/rfc822' }, payload: typeof message === 'string' ? Buffer.from(message) : message });

async function customerWithDomain() {
  const customer = await signUpCustomer(t);
  await mail.grant(customer.id, GiB);
  const domain = await mail.activeDomain(customer);
  return { customer, domain: { id: domain.id as number, name: domain.name as string } };
}

/** A month of a domain's senders as one receiver saw them: its own server, a newsletter service, a forwarder, a stranger. */
function senders(domain: string): DmarcRecordFixture[] {
  return [
    { ip: '209.85.220.41', count: 120, dkim: 'pass', spf: 'pass', dkimResults: [`${domain}=pass`], spfResults: [`${domain}=pass`] },
    { ip: '209.85.220.69', count: 30, dkim: 'pass', spf: 'pass', dkimResults: [`${domain}=pass`], spfResults: [`${domain}=pass`] },
    { ip: '198.51.100.7', count: 40, dkim: 'pass', spf: 'fail', dkimResults: [`${domain}=pass`], spfResults: [`${domain}=softfail`] },
    { ip: '192.0.2.10', count: 6, dkim: 'fail', spf: 'fail', dkimResults: [`${domain}=fail`], spfResults: ['forwarding-example.org=pass'] },
    { ip: '203.0.113.66', count: 4, dkim: 'fail', spf: 'fail', dkimResults: [], spfResults: [`${domain}=fail`] },
  ];
}

describe('DMARC aggregate reports', () => {
  it('When Google (zip as the body) and Microsoft (gzip attached) report on a domain, then its pictures show the days, the sources by organisation with reverse names, and advice', async () => {
    const { customer, domain } = await customerWithDomain();
    const google = dmarcXml({ org: 'google.com', reportId: `g-${domain.id}`, domain: domain.name, begin: daysBack(2), records: senders(domain.name) });
    const microsoft = dmarcXml({ org: 'Outlook.com', reportId: `m-${domain.id}`, domain: domain.name, begin: daysBack(1), records: [{ ip: '209.85.220.41', count: 50, dkim: 'pass', spf: 'pass', dkimResults: [`${domain.name}=pass`] }] });
    const first = await hand(zipBodyMessage(REPORTS, domain.name, `g-${domain.id}`, zip({ [`google.com!${domain.name}!1!2.xml`]: google })));
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ stored: [{ kind: 'dmarc', domain: domain.name, report_id: `g-${domain.id}` }], duplicates: [], refused: [] });
    const second = await hand(attachedMessage(REPORTS, `Report Domain: ${domain.name} Submitter: protection.outlook.com`, { filename: `protection.outlook.com!${domain.name}!1!2.xml.gz`, contentType: 'application/gzip', data: gzip(microsoft) }));
    expect(second.json().data.stored).toHaveLength(1);

    const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 7 }, { token: customer.token });
    expect(view.code).toBe(0);
    expect(view.data.days).toHaveLength(7);
    expect(view.data.days.find((d: { day: string }) => d.day === daysBack(2))).toEqual({ day: daysBack(2), messages: 200, dkim_aligned: 190, spf_aligned: 150, pass: 190, fail: 10 });
    expect(view.data.days.find((d: { day: string }) => d.day === daysBack(1))).toMatchObject({ messages: 50, pass: 50, fail: 0 });
    expect(view.data.totals).toEqual({ messages: 250, pass: 240, fail: 10, share_failing: 4 });
    const google_ = view.data.sources.find((s: { organisation: string }) => s.organisation === 'google.com');
    expect(google_).toMatchObject({ messages: 200, fail: 0 });
    expect(google_.sources.map((s: { ip: string; ptr: string }) => [s.ip, s.ptr])).toEqual([
      ['209.85.220.41', 'mail-sor-f41.google.com'],
      ['209.85.220.69', 'mail-sor-f69.google.com'],
    ]);
    expect(view.data.sources.find((s: { organisation: string }) => s.organisation === '203.0.113.66')).toMatchObject({ messages: 4, fail: 4, sources: [{ ip: '203.0.113.66', ptr: '' }] });
    // The advice, most messages first: the newsletter service missing from SPF, the forwarder, the stranger.
    expect(view.data.advice).toEqual([
      { kind: 'spf_missing', organisation: 'sendservice.net', messages: 40, ips: ['198.51.100.7'], spf_addition: 'ip4:198.51.100.7' },
      { kind: 'forwarded', organisation: 'forwarding-example.org', messages: 6, ips: ['192.0.2.10'] },
      { kind: 'unauthorised', organisation: '203.0.113.66', messages: 4, ips: ['203.0.113.66'] },
    ]);
    // What each policy would have done with the failing 10 of 250 (6 of them forwarded).
    expect(view.data.policy).toMatchObject({ chosen: null, current: 'none', record: `v=DMARC1; p=none; rua=mailto:${REPORTS}` });
    expect(view.data.policy.options).toEqual([
      { policy: 'none', affected: 0, share: 0, forwarded: 0 },
      { policy: 'quarantine', affected: 10, share: 4, forwarded: 6 },
      { policy: 'reject', affected: 10, share: 4, forwarded: 6 },
    ]);
    expect(view.data.reports.map((r: { org_name: string }) => r.org_name).sort()).toEqual(['Outlook.com', 'google.com']);
    // Operators see the same through their area, and the installation's summary counts it.
    const managed = await t.get('/api/manage/reports/dmarc', { domain_id: domain.id, days: 7 }, { token: operator });
    expect(managed.data.totals).toEqual(view.data.totals);
    const summary = await t.get('/api/manage/reports/summary', { days: 7 }, { token: operator });
    expect(summary.data.domains).toEqual(expect.arrayContaining([{ domain_id: domain.id, name: domain.name, name_unicode: domain.name, kind: 'dmarc', messages: 250, failed: 10, reports: 2 }]));
    expect(summary.data.days.find((d: { day: string }) => d.day === daysBack(2)).messages).toBeGreaterThanOrEqual(200);
  });

  it('When the same report arrives twice, then it is stored once and the figures do not double', async () => {
    const { customer, domain } = await customerWithDomain();
    const xml = dmarcXml({ org: 'yahoo.com', reportId: '1700000000.123456', domain: domain.name, begin: daysBack(1), records: senders(domain.name).slice(0, 1) });
    const message = attachedMessage(REPORTS, `Report Domain: ${domain.name}`, { filename: 'yahoo.xml.gz', contentType: 'application/gzip', data: gzip(xml) }, 'noreply@dmarc.yahoo.com');
    expect((await hand(message)).json().data.stored).toHaveLength(1);
    const again = (await hand(message)).json();
    expect(again).toMatchObject({ code: 0, data: { stored: [], duplicates: [{ kind: 'dmarc', domain: domain.name, report_id: '1700000000.123456' }], refused: [] } });
    const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id }, { token: customer.token });
    expect(view.data.totals.messages).toBe(120);
    expect(view.data.reports).toHaveLength(1);
  });
});

describe('reverse names', () => {
  it('When a sender\'s reverse name changes, then the one looked up is shown for a week, and the new one once the week is over', async () => {
    const { customer, domain } = await customerWithDomain();
    dns.ptr('198.51.100.23', 'mx1.oldhost.net');
    const xml = dmarcXml({ org: 'google.com', reportId: `ptr-${domain.id}`, domain: domain.name, begin: daysBack(1), records: [{ ip: '198.51.100.23', count: 5, dkim: 'pass', spf: 'pass', dkimResults: [`${domain.name}=pass`], spfResults: [`${domain.name}=pass`] }] });
    expect((await hand(attachedMessage(REPORTS, `Report Domain: ${domain.name}`, { filename: 'r.xml.gz', contentType: 'application/gzip', data: gzip(xml) }))).json().data.stored).toHaveLength(1);
    // The clock moves by days: a fresh session each time.
    const shown = async () => {
      const token = (await t.post('/api/admin/login/login', { email: customer.email, password: customer.password })).data.token;
      const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id, days: 30 }, { token });
      return view.data.sources.flatMap((o: { sources: { ip: string; ptr: string }[] }) => o.sources).find((s: { ip: string }) => s.ip === '198.51.100.23')?.ptr;
    };
    try {
      expect(await shown()).toBe('mx1.oldhost.net');
      dns.ptr('198.51.100.23', 'mx1.newhost.net');
      await t.moveClock(7 * 86_400_000 - 60_000);
      expect(await shown()).toBe('mx1.oldhost.net');
      await t.moveClock(2 * 60_000);
      expect(await shown()).toBe('mx1.newhost.net');
    } finally {
      t.resetClock();
    }
  });
});

describe('organisations', () => {
  it('When senders are grouped, then each reverse name counts under its registrable domain by the Public Suffix List', () => {
    const names = ['mail-sor-f41.google.com', 'mx2.mail.example.co.uk', 'relay.x.city.kawasaki.jp', 'ec2-198-51-100-9.compute-1.amazonaws.com', 'out.yandex.com.tr', 'mailhost.', 'mail.example.org.'];
    expect(names.map(organisationOf)).toEqual(['google.com', 'example.co.uk', 'city.kawasaki.jp', 'amazonaws.com', 'yandex.com.tr', 'mailhost', 'example.org']);
  });
});

describe('TLS reports', () => {
  it('When a TLS report (multipart/report, gzipped JSON) arrives, then failures show by receiving server and type', async () => {
    const { customer, domain } = await customerWithDomain();
    const json = tlsJson({ org: 'google.com', reportId: `2026-tls-${domain.id}`, domain: domain.name, begin: daysBack(1), successful: 90, failures: [{ mx: 'mx.maildesk.test', type: 'certificate-expired', sessions: 7 }, { mx: 'mx.maildesk.test', type: 'starttls-not-supported', sessions: 3 }] });
    const reply = await hand(tlsMessage(REPORTS, domain.name, `2026-tls-${domain.id}`, json));
    expect(reply.json().data).toMatchObject({ stored: [{ kind: 'tls', domain: domain.name }], refused: [] });
    expect((await hand(tlsMessage(REPORTS, domain.name, `2026-tls-${domain.id}`, json))).json().data.duplicates).toHaveLength(1);
    const view = await t.get('/api/admin/reports/tls', { domain_id: domain.id, days: 3 }, { token: customer.token });
    expect(view.data.days).toEqual([
      { day: daysBack(2), successful: 0, failed: 0 },
      { day: daysBack(1), successful: 90, failed: 10 },
      { day: daysBack(0), successful: 0, failed: 0 },
    ]);
    expect(view.data.totals).toEqual({ successful: 90, failed: 10, share_failed: 10 });
    expect(view.data.failures).toEqual([
      { receiving_mx: 'mx.maildesk.test', result_type: 'certificate-expired', sessions: 7 },
      { receiving_mx: 'mx.maildesk.test', result_type: 'starttls-not-supported', sessions: 3 },
    ]);
    expect(view.data.reports).toMatchObject([{ org_name: 'google.com', report_id: `2026-tls-${domain.id}`, messages: 100, failed: 10 }]);
  });
});

describe('TLS report counts', () => {
  it('When a report\'s failure details name fewer sessions than its summary, then the failures counted are the summary\'s total-failure-session-count', async () => {
    const { customer, domain } = await customerWithDomain();
    // RFC 8460 §4.4: the details may be a sample; the summary carries the totals.
    const json = JSON.stringify({
      'organization-name': 'Microsoft Corporation',
      'date-range': { 'start-datetime': `${daysBack(1)}T00:00:00Z`, 'end-datetime': `${daysBack(1)}T23:59:59Z` },
      'contact-info': 'tlsrpt-noreply@microsoft.com',
      'report-id': `ms-tls-${domain.id}`,
      policies: [
        {
          policy: { 'policy-type': 'no-policy-found', 'policy-domain': domain.name },
          summary: { 'total-successful-session-count': 75, 'total-failure-session-count': 25 },
          'failure-details': [
            { 'result-type': 'validation-failure', 'receiving-mx-hostname': 'mx.maildesk.test.', 'failed-session-count': 7 },
            { 'result-type': 'certificate-host-mismatch', 'receiving-mx-hostname': 'MX.maildesk.test', 'failed-session-count': 3 },
          ],
        },
      ],
    });
    expect((await hand(tlsMessage(REPORTS, domain.name, `ms-tls-${domain.id}`, json, 'tlsrpt-noreply@microsoft.com'))).json().data.stored).toHaveLength(1);
    const view = await t.get('/api/admin/reports/tls', { domain_id: domain.id, days: 3 }, { token: customer.token });
    expect(view.data.days.find((d: { day: string }) => d.day === daysBack(1))).toEqual({ day: daysBack(1), successful: 75, failed: 25 });
    expect(view.data.totals).toEqual({ successful: 75, failed: 25, share_failed: 25 });
    expect(view.data.failures).toEqual([
      { receiving_mx: 'mx.maildesk.test', result_type: 'validation-failure', sessions: 7 },
      { receiving_mx: 'mx.maildesk.test', result_type: 'certificate-host-mismatch', sessions: 3 },
    ]);
    expect(view.data.reports).toMatchObject([{ org_name: 'Microsoft Corporation', messages: 100, failed: 25 }]);
  });
});

describe('hostile and wrong reports', () => {
  it('When archives are bombs, XML declares entities, a message is huge or holds no report, then each is refused and logged, nothing is stored, and the panel keeps answering', async () => {
    const { customer, domain } = await customerWithDomain();
    const before = (await t.get('/api/manage/reports/summary', { days: 1 }, { token: operator })).data.refused.total;
    const xml = dmarcXml({ org: 'evil.example', reportId: 'x', domain: domain.name, begin: daysBack(1), records: senders(domain.name) });
    const tries: [string, string | Buffer, string, number?][] = [
      ['zip bomb', zipBodyMessage(REPORTS, domain.name, 'bomb', zip({ 'report.xml': zeros(8) })), 'bomb'],
      ['gzip bomb', attachedMessage(REPORTS, 'bomb', { filename: 'r.xml.gz', contentType: 'application/gzip', data: gzip(zeros(8)) }), 'bomb'],
      ['entity bomb', attachedMessage(REPORTS, 'lol', { filename: 'r.xml', contentType: 'text/xml', data: Buffer.from(entityBomb(domain.name)) }, 'x@evil.example', 'multipart/mixed'), 'entities'],
      ['zip of many files', zipBodyMessage(REPORTS, domain.name, 'many', zip(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`r${i}.xml`, xml])))), 'malformed'],
      ['a PDF', attachedMessage(REPORTS, 'invoice', { filename: 'invoice.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF') }), 'not_a_report'],
      ['no attachment', `From: a@b.example\r\nTo: ${REPORTS}\r\nSubject: hello\r\n\r\nJust text.\r\n`, 'no_report'],
      ['broken XML', attachedMessage(REPORTS, 'x', { filename: 'r.xml', contentType: 'application/xml', data: Buffer.from(xml.replace('<count>120</count>', '<count>many</count>')) }), 'malformed'],
      ['truncated gzip', attachedMessage(REPORTS, 'x', { filename: 'r.xml.gz', contentType: 'application/gzip', data: gzip(xml).subarray(0, 60) }), 'malformed'],
      ['a domain not hosted here', attachedMessage(REPORTS, 'x', { filename: 'r.xml.gz', contentType: 'application/gzip', data: gzip(xml.replaceAll(domain.name, 'not-hosted.example')) }), 'unknown_domain'],
      ['huge', Buffer.concat([Buffer.from(`From: a@b.example\r\nTo: ${REPORTS}\r\nContent-Type: application/gzip\r\n\r\n`), Buffer.alloc(3 * 1024 * 1024, 65)]), 'too_large', 413],
    ];
    for (const [what, message, reason, status] of tries) {
      const reply = await hand(message);
      expect(reply.statusCode, what).toBe(status ?? 200);
      expect(reply.json().data, what).toMatchObject({ stored: [], refused: [{ reason }] });
    }
    const summary = await t.get('/api/manage/reports/summary', { days: 1 }, { token: operator });
    expect(summary.data.refused.total - before).toBe(tries.length);
    expect(summary.data.refused.latest[0]).toMatchObject({ reason: 'too_large' });
    expect((await t.get('/api/admin/reports/dmarc', { domain_id: domain.id }, { token: customer.token })).data.totals.messages).toBe(0);
    // Still serving, and a good report after all that is stored.
    const good = await hand(attachedMessage(REPORTS, 'x', { filename: 'r.xml.gz', contentType: 'application/gzip', data: gzip(xml) }));
    expect(good.json().data.stored).toHaveLength(1);
  });

  it('When the mail server\'s token is wrong or missing, then nothing is read (401)', async () => {
    expect((await hand('From: a@b\r\n\r\nx', 'wrong-token-0123456789')).statusCode).toBe(401);
    const none = await t.app.inject({ method: 'POST', url: '/api/mail-server/reports', headers: { 'content-type': 'message/rfc822' }, payload: 'x' });
    expect(none.statusCode).toBe(401);
  });
});

describe('who sees which reports, and the DMARC policy', () => {
  it('When another customer, or a team member without the domain, asks for a domain\'s reports, then it is not found', async () => {
    const a = await customerWithDomain();
    const b = await signUpCustomer(t);
    for (const path of ['/api/admin/reports/dmarc', '/api/admin/reports/tls']) {
      expect(await t.get(path, { domain_id: a.domain.id }, { token: b.token }), path).toMatchObject({ status: 404, code: 40400 });
    }
    expect(await t.post('/api/admin/reports/update_policy', { domain_id: a.domain.id, policy: 'reject' }, { token: b.token })).toMatchObject({ code: 40400 });
    const member = await teamMemberOf(t, a.customer, { domain_ids: [] });
    expect(await t.get('/api/admin/reports/dmarc', { domain_id: a.domain.id }, { token: member.token })).toMatchObject({ code: 40400 });
  });

  it('When the customer tightens the policy, then the DNS page proposes it with the reporting address and checks the published one against it', async () => {
    const { customer, domain } = await customerWithDomain();
    const dnsView = async () => (await t.get('/api/admin/domain/dns', { id: domain.id }, { token: customer.token })).data.records.find((r: { kind: string }) => r.kind === 'dmarc');
    // The first proposal is the first step the domain's page advises: p=none, with the reporting address.
    expect((await dnsView()).value).toBe(`v=DMARC1; p=none; rua=mailto:${REPORTS}`);
    dns.txt(`_dmarc.${domain.name}`, `v=DMARC1; p=none; rua=mailto:${REPORTS}`);
    // Nothing chosen yet: any policy published is fine, as long as reports come here.
    expect((await dnsView()).status).toBe('ok');
    const set = await t.post('/api/admin/reports/update_policy', { domain_id: domain.id, policy: 'reject' }, { token: customer.token });
    expect(set).toMatchObject({ code: 0, data: { dmarc_policy: 'reject', record: { type: 'TXT', host: `_dmarc.${domain.name}`, value: `v=DMARC1; p=reject; rua=mailto:${REPORTS}` } } });
    expect(await dnsView()).toMatchObject({ value: `v=DMARC1; p=reject; rua=mailto:${REPORTS}`, status: 'wrong' });
    dns.txt(`_dmarc.${domain.name}`, `v=DMARC1; p=reject; rua=mailto:someone@elsewhere.example`);
    expect((await dnsView()).status).toBe('wrong');
    dns.txt(`_dmarc.${domain.name}`, `v=DMARC1; p=reject; rua=mailto:${REPORTS}`);
    expect((await dnsView()).status).toBe('ok');
    const view = await t.get('/api/admin/reports/dmarc', { domain_id: domain.id }, { token: customer.token });
    expect(view.data.policy).toMatchObject({ chosen: 'reject', current: 'reject' });
    const log = await t.post('/api/admin/log/list', { page_size: 20 }, { token: customer.token });
    expect(log.data.list.map((e: { target_type: string }) => e.target_type)).toContain('domain_dmarc');
    const bad = await t.post('/api/admin/reports/update_policy', { domain_id: domain.id, policy: 'bounce' }, { token: customer.token, locale: 'zh' });
    expect(bad).toMatchObject({ status: 400, code: 40000 });
    expect(bad.errors?.policy).toBeDefined();
  });
});

describe('index reads', () => {
  /** The plan's steps: SQLite's EXPLAIN QUERY PLAN; PostgreSQL's nodes, planned with sequential scans as the last resort (tables here are tiny). */
  async function planOf(compiled: { sql: string; parameters: readonly unknown[] }): Promise<string[]> {
    const { db, dialect } = t.services;
    if (dialect === 'sqlite') return (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => r.detail);
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
      const steps: string[] = [];
      const walk = (node: any) => {
        steps.push([node['Node Type'], node['Relation Name'] && `on ${node['Relation Name']}`, node['Index Name'] && `using ${node['Index Name']}`].filter(Boolean).join(' '));
        for (const child of node.Plans ?? []) walk(child);
      };
      walk((rows[0]['QUERY PLAN'] as any[])[0].Plan);
      return steps;
    });
  }
  const scans = (steps: string[]) => steps.filter((step) => (t.dialect === 'sqlite' ? /^SCAN (?!.*USING)/.test(step) : step.startsWith('Seq Scan')));

  it('When the pictures, the summary and the housekeeping read reports, then every query reads an index, on both databases (EXPLAIN)', async () => {
    const { db } = t.services;
    const q = reportQueries;
    const queries = {
      latest: q.latest(db, 'dmarc', 1, '2026-01-01'),
      dmarcDays: q.dmarcDays(db, 1, '2026-01-01'),
      dmarcSources: q.dmarcSources(db, 1, '2026-01-01'),
      tlsDays: q.tlsDays(db, 1, '2026-01-01'),
      tlsFailures: q.tlsFailures(db, 1, '2026-01-01'),
      summaryDmarc: q.summaryDmarc(db, '2026-01-01'),
      summaryTls: q.summaryTls(db, '2026-01-01'),
      summaryDomains: q.summaryDomains(db, 'tls', '2026-01-01'),
      refusals: q.refusals(db, '2026-01-01'),
    };
    const problems: Record<string, string[]> = {};
    for (const [name, query] of Object.entries(queries)) {
      const found = scans(await planOf(query.compile()));
      if (found.length) problems[name] = found;
    }
    expect(problems).toEqual({});
  });
});
