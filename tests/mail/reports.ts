/**
 * DMARC aggregate and TLS reports with the real mail server, inside the mail-server suite: a
 * receiver sends them over SMTP to the reporting address named in the domain's DMARC record;
 * Postfix pipes them (deploy/templates/reports.ts) to the panel, where they are read back through
 * the API; the same report delivered twice is stored once; a refused report is not bounced.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { DnsServer } from '../helpers/dns-server.js';
import { dmarcXml, entityBomb, tlsJson, tlsMessage, zip, zipBodyMessage, attachedMessage } from '../helpers/report-fixtures.js';
import { MAIL_HOSTNAME, ROOT_OPERATOR, type MailStack } from './mail-stack.js';
import { panelApi } from './panel.js';
import { smtpSend } from './smtp.js';

const MiB = 1024 ** 2;
const REPORTS = `reports@${MAIL_HOSTNAME}`;
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

export function reportScenarios(ctx: { stack: () => MailStack; dns: () => DnsServer }) {
  const tag = crypto.randomBytes(3).toString('hex');
  const domain = `reports-${tag}.test`;
  let domainId = 0;
  let customerToken = '';
  const { ok } = panelApi(() => ctx.stack().baseUrl, () => customerToken, () => ctx.stack().panelErrors());
  /** A receiver's mail server: from outside mynetworks, on port 25. */
  const fromReceiver = (from: string, text: string) => smtpSend(ctx.stack().ports.smtp, { from, to: [REPORTS], localAddress: '127.0.0.2' }, text);
  /** Postfix's log lines of deliveries to the reporting address through the pipe. */
  const piped = () => (fs.readFileSync(path.join(ctx.stack().paths.logs, 'postfix.log'), 'utf8').match(new RegExp(`to=<${REPORTS}>.*relay=maildesk-reports.*status=sent`, 'g')) ?? []).length;

  it('Reports: a customer\'s domain names the reporting address in its DMARC record', async () => {
    const operatorToken = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
    const email = `reports-${tag}@client.test`;
    const customer = await ok('/api/manage/user/create', { email, password: 'customer-pass-1', is_verified: 1 }, operatorToken);
    await ok('/api/manage/storage/create', { owner_id: customer.id, size: 16 * MiB, label: 'reports' }, operatorToken);
    customerToken = (await ok('/api/admin/login/login', { email, password: 'customer-pass-1' }, '')).token;
    domainId = (await ok('/api/admin/domain/create', { name: domain })).id;
    const view = await ok('/api/admin/domain/dns', { id: domainId }, customerToken, 'GET');
    for (const record of view.records) ctx.dns().publish(record);
    await ok('/api/admin/domain/verify', { id: domainId });
    const dmarc = view.records.find((r: { kind: string }) => r.kind === 'dmarc');
    // The first record proposed watches before it acts (p=none), with the panel's reporting address.
    expect(dmarc.value).toBe(`v=DMARC1; p=none; rua=mailto:${REPORTS}`);
  });

  it('Reports: a DMARC report (zip) and a TLS report (gzip) sent over SMTP reach the panel through Postfix\'s pipe and read back; the same report twice is stored once', async () => {
    const stack = ctx.stack();
    const before = piped();
    const xml = dmarcXml({
      org: 'google.com',
      reportId: `mail-${tag}`,
      domain,
      begin: yesterday(),
      records: [
        { ip: '192.0.2.25', count: 42, dkim: 'pass', spf: 'pass', dkimResults: [`${domain}=pass`] },
        { ip: '198.51.100.99', count: 3, dkim: 'fail', spf: 'fail', spfResults: [`${domain}=fail`] },
      ],
    });
    const report = zipBodyMessage(REPORTS, domain, `mail-${tag}`, zip({ [`google.com!${domain}!1!2.xml`]: xml }), 'noreply-dmarc-support@google.com');
    const sent = await fromReceiver('noreply-dmarc-support@google.com', report);
    expect(sent, JSON.stringify(sent.replies)).toMatchObject({ accepted: true });
    const json = tlsJson({ org: 'google.com', reportId: `tls-${tag}`, domain, begin: yesterday(), successful: 20, failures: [{ mx: MAIL_HOSTNAME, type: 'certificate-host-mismatch', sessions: 2 }] });
    expect((await fromReceiver('smtp-tls-reporting@google.com', tlsMessage(REPORTS, domain, `tls-${tag}`, json))).accepted).toBe(true);

    const dmarcView = await stack.waitFor('the DMARC report in the panel', async () => {
      const view = await ok('/api/admin/reports/dmarc', { domain_id: domainId, days: 7 }, customerToken, 'GET');
      return view.totals.messages > 0 ? view : undefined;
    });
    expect(dmarcView.totals).toEqual({ messages: 45, pass: 42, fail: 3, share_failing: 6.7 });
    expect(dmarcView.reports).toMatchObject([{ org_name: 'google.com', report_id: `mail-${tag}` }]);
    expect(dmarcView.advice).toMatchObject([{ kind: 'unauthorised', messages: 3, ips: ['198.51.100.99'] }]);
    const tls = await stack.waitFor('the TLS report in the panel', async () => {
      const view = await ok('/api/admin/reports/tls', { domain_id: domainId, days: 7 }, customerToken, 'GET');
      return view.totals.failed > 0 ? view : undefined;
    });
    expect(tls.failures).toEqual([{ receiving_mx: MAIL_HOSTNAME, result_type: 'certificate-host-mismatch', sessions: 2 }]);

    // The receiver sends it again (it does, after a timeout): delivered, and still counted once.
    expect((await fromReceiver('noreply-dmarc-support@google.com', report)).accepted).toBe(true);
    // A hostile one is delivered to the pipe too, refused by the panel and not bounced (no retry either).
    const bomb = attachedMessage(REPORTS, 'lol', { filename: 'r.xml', contentType: 'text/xml', data: Buffer.from(entityBomb(domain)) }, 'x@evil.test');
    expect((await fromReceiver('x@evil.test', bomb)).accepted).toBe(true);
    await stack.waitFor('four deliveries through the pipe', async () => (piped() - before >= 4 ? true : undefined));
    const again = await ok('/api/admin/reports/dmarc', { domain_id: domainId, days: 7 }, customerToken, 'GET');
    expect(again.totals.messages).toBe(45);
    expect(again.reports).toHaveLength(1);
    const operatorToken = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
    const summary = await ok('/api/manage/reports/summary', { days: 1 }, operatorToken, 'GET');
    expect(summary.refused.latest.map((r: { reason: string }) => r.reason)).toContain('entities');
  });
}
