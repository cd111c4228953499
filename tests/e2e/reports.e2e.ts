/**
 * DMARC and TLS reports in the browser, in Chinese and in English: reports handed over as the
 * mail server does (POST /api/mail-server/reports), then a customer opens the domain's page and
 * sees the pictures (messages per day, sources by organisation, TLS failures), the advice and
 * the policy with its effect, and tightens it; an operator sees the installation's page with a
 * refused report. Screenshots in test-results/e2e/ (reports-domain-*, reports-operator-*).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../helpers/dns-server';
import { attachedMessage, dmarcXml, entityBomb, gzip, tlsJson, tlsMessage, zip, zipBodyMessage, type DmarcRecordFixture } from '../helpers/report-fixtures';
import { api, apiCustomer, baseUrl, customerSignIn, expectNoEnglish, landedAt, launch, openMenuEntry, openPage, operatorSignIn, shot, suiteApp, type Lang } from './browser';
import { MAIL_SERVER_TOKEN } from './server';

const REPORTS = 'reports@mx.maildesk.test';
const daysBack = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
let browser: Browser;
let dns: DnsServer;
beforeAll(async () => {
  browser = await launch();
  dns = await startDnsServer(suiteApp().dnsPort);
  dns.ptr('209.85.220.41', 'mail-sor-f41.google.com');
  dns.ptr('198.51.100.7', 'o7.out.sendservice.net');
  dns.ptr('192.0.2.10', 'lists.forwarding-example.org');
});
afterAll(async () => {
  await browser?.close();
  await dns?.close();
});

/** As the mail server's pipe hands a report over. */
async function handOver(message: string) {
  const response = await fetch(`${baseUrl()}/api/mail-server/reports`, { method: 'POST', headers: { authorization: `Bearer ${MAIL_SERVER_TOKEN}`, 'content-type': 'message/rfc822' }, body: message });
  return (await response.json()) as { code: number; data: { stored: unknown[]; refused: { reason: string }[] } };
}

/** A customer with an active domain that three weeks of reports speak about. */
async function domainWithReports() {
  const customer = await apiCustomer();
  const operator = (await api('POST', '/api/manage/login/login', inject('operator'))).data.token as string;
  const name = `reports-${Date.now().toString(36)}.example`;
  const domain = (await api('POST', '/api/admin/domain/create', { name }, customer.token)).data;
  await api('POST', '/api/manage/domain/update', { id: domain.id, status: 'active' }, operator);
  for (let day = 20; day >= 1; day--) {
    const xml = dmarcXml({
      org: 'google.com',
      reportId: `${name}-${day}`,
      domain: name,
      begin: daysBack(day),
      records: (
        [
        { ip: '209.85.220.41', count: 80 + ((day * 37) % 60), dkim: 'pass', spf: 'pass', dkimResults: [`${name}=pass`] },
        { ip: '198.51.100.7', count: 20 + (day % 7) * 5, dkim: 'pass', spf: 'fail', dkimResults: [`${name}=pass`], spfResults: [`${name}=softfail`] },
        { ip: '192.0.2.10', count: day % 3, dkim: 'fail', spf: 'fail', dkimResults: [`${name}=fail`], spfResults: ['forwarding-example.org=pass'] },
        { ip: '203.0.113.66', count: day % 4 === 0 ? 9 : 0, dkim: 'fail', spf: 'fail', spfResults: [`${name}=fail`] },
        ] as DmarcRecordFixture[]
      ).filter((r) => r.count > 0),
    });
    const message = day % 2 ? zipBodyMessage(REPORTS, name, `${name}-${day}`, zip({ 'report.xml': xml })) : attachedMessage(REPORTS, `Report Domain: ${name}`, { filename: 'report.xml.gz', contentType: 'application/gzip', data: gzip(xml) });
    expect((await handOver(message)).data.stored).toHaveLength(1);
    if (day % 5 === 0) {
      const json = tlsJson({ org: 'google.com', reportId: `tls-${name}-${day}`, domain: name, begin: daysBack(day), successful: 300, failures: [{ mx: 'mx.maildesk.test', type: day === 10 ? 'certificate-expired' : 'starttls-not-supported', sessions: 4 + day }] });
      expect((await handOver(tlsMessage(REPORTS, name, `tls-${name}-${day}`, json))).data.stored).toHaveLength(1);
    }
  }
  return { customer, domain: { id: domain.id as number, name } };
}

const words = {
  zh: { pass: 'DMARC 通过', spfAdvice: '请将其加入 SPF 记录', choose: '使用此策略', saved: 'DMARC 策略已保存', tls: '到邮件服务器的 TLS 连接', menuGroup: '邮件服务', menu: 'DMARC 与 TLS 报告', refused: 'XML 实体' },
  en: { pass: 'DMARC pass', spfAdvice: 'add it to the SPF record', choose: 'Use this policy', saved: 'DMARC policy saved', tls: 'TLS connections to the mail server', menuGroup: 'Mail', menu: 'DMARC and TLS reports', refused: 'XML entities' },
};

describe.each(['zh', 'en'] as const)('in %s', (lang: Lang) => {
  const w = words[lang];

  it('a customer sees who sends as the domain, what fails, what to change, and tightens the policy after seeing its effect', async () => {
    const { customer, domain } = await domainWithReports();
    const { page, errors } = await openPage(browser, lang);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.goto(`/admin/domain/update?id=${domain.id}`);
    const reports = page.locator('.domain-reports');
    await reports.locator('.reports-dmarc-chart svg').first().waitFor();
    await reports.getByText(w.pass).first().waitFor();
    await reports.locator('.reports-sources-chart svg').first().waitFor();
    await reports.locator('.reports-tls-chart svg').first().waitFor();
    await expect.poll(() => reports.locator('.reports-advice-item').count()).toBe(3);
    await expect(reports.locator('.reports-advice-spf_missing').textContent()).resolves.toContain('ip4:198.51.100.7');
    await expect(reports.locator('.reports-advice-spf_missing').textContent()).resolves.toContain(w.spfAdvice);
    await expect(reports.locator('.reports-source', { hasText: 'mail-sor-f41.google.com' }).count()).resolves.toBe(1);
    await expect.poll(() => reports.locator('.reports-tls-failure').count()).toBe(2);
    // The effect of each policy is shown before it is chosen: the failing share of the reported mail.
    const affected = await reports.locator('.reports-policy-reject .reports-policy-affected').textContent();
    expect(affected).toMatch(/\d+(\.\d)?%/);
    if (lang === 'zh') await expectNoEnglish(page, ['none', 'quarantine', 'reject', 'include', 'ip4', customer.email]);
    await shot(page, 'reports-domain', lang);

    await reports.locator('.reports-policy-reject').getByRole('button', { name: w.choose }).click();
    await page.getByText(w.saved).waitFor();
    await expect.poll(() => reports.locator('.reports-policy-record').textContent()).toBe(`v=DMARC1; p=reject; rua=mailto:${REPORTS}`);
    const dnsView = await api('GET', `/api/admin/domain/dns?id=${domain.id}`, undefined, customer.token);
    expect(dnsView.data.records.find((r: { kind: string }) => r.kind === 'dmarc').value).toBe(`v=DMARC1; p=reject; rua=mailto:${REPORTS}`);
    expect(errors).toEqual([]);
  });

  it('an operator sees the installation\'s reports and a refused one', async () => {
    await domainWithReports();
    const refused = await handOver(attachedMessage(REPORTS, 'lol', { filename: 'r.xml', contentType: 'text/xml', data: Buffer.from(entityBomb('x.example')) }));
    expect(refused.data.refused).toMatchObject([{ reason: 'entities' }]);
    const { page, errors } = await openPage(browser, lang);
    await operatorSignIn(page);
    await openMenuEntry(page, w.menuGroup, w.menu);
    await page.waitForURL(/\/manage\/reports$/);
    await page.locator('.reports-summary-chart svg').first().waitFor();
    await expect.poll(() => page.locator('.reports-domain-row').count()).toBeGreaterThan(0);
    await page.locator('.reports-refused-row', { hasText: w.refused }).first().waitFor();
    if (lang === 'zh') await expectNoEnglish(page, [inject('operator').username, 'XML']);
    await shot(page, 'reports-operator', lang);
    expect(errors).toEqual([]);
  });
});
