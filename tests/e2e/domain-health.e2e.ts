/**
 * Domain health in the browser, in Chinese and in English: a customer's domain whose DKIM record
 * was removed and put back shows the watch's history (the break e-mailed once, the repair), and
 * the MTA-STS switch moves the policy from testing to enforce. Screenshots in test-results/e2e/
 * (domain-health-*).
 */
import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startDnsServer, type DnsServer } from '../helpers/dns-server';
import { api, apiCustomer, baseUrl, customerSignIn, expectNoEnglish, landedAt, launch, mailCount, openPage, shot, suiteApp, type Lang } from './browser';

let browser: Browser;
let dns: DnsServer;
beforeAll(async () => {
  browser = await launch();
  dns = await startDnsServer(suiteApp().dnsPort);
});
afterAll(async () => {
  await browser?.close();
  await dns?.close();
});

const words = {
  zh: { ok: '确定', watch: 'DNS 监测', enforce: '模式：强制', testing: '模式：测试', dkim: 'DKIM' },
  en: { ok: 'OK', watch: 'DNS watch', enforce: 'Mode: enforce', testing: 'Mode: testing', dkim: 'DKIM' },
};

interface Record {
  kind: string;
  type: string;
  host: string;
  value: string;
  priority?: number;
}

/** An active domain whose DKIM record broke and was put back, as the watch saw it. */
async function domainWithHistory(customer: Awaited<ReturnType<typeof apiCustomer>>) {
  const name = `health-${crypto.randomBytes(3).toString('hex')}.example`;
  const created = await api('POST', '/api/admin/domain/create', { name }, customer.token);
  const records = (await api('GET', `/api/admin/domain/dns?id=${created.data.id}`, undefined, customer.token)).data.records as Record[];
  for (const record of records) dns.publish(record);
  expect((await api('POST', '/api/admin/domain/verify', { id: created.data.id }, customer.token)).code).toBe(0);
  const look = () => api('POST', '/api/admin/domain/dns_check', { id: created.data.id }, customer.token);
  await look();
  const dkim = records.find((r) => r.kind === 'dkim')!;
  dns.clear(dkim.host);
  await look();
  dns.publish(dkim);
  await look();
  return { id: created.data.id as number, name };
}

describe.each(['zh', 'en'] as const)('in %s', (lang: Lang) => {
  const w = words[lang];

  it('the domain page shows the DNS watch history and switches MTA-STS to enforce', async () => {
    const customer = await apiCustomer();
    const domain = await domainWithHistory(customer);
    await expect.poll(() => mailCount(customer.email), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const { page, errors } = await openPage(browser, lang);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.goto(`/admin/domain/update?id=${domain.id}`);
    await page.locator('.domain-health').getByText(w.watch).waitFor();
    const changes = page.locator('.health-change');
    await expect.poll(() => changes.count()).toBe(2);
    // Newest first: the repair, then the break that was e-mailed.
    await expect(changes.nth(0).locator('.health-status').allTextContents()).resolves.toEqual(lang === 'zh' ? ['缺少', '正确'] : ['Missing', 'OK']);
    await expect(changes.nth(1).locator('.health-notified').count()).resolves.toBe(1);
    await expect(changes.nth(0).locator('.health-notified').count()).resolves.toBe(0);
    await expect(page.locator('.health-record-dkim .health-status').textContent()).resolves.toBe(lang === 'zh' ? '正确' : 'OK');
    await expect(page.locator('.health-mode').textContent()).resolves.toBe(w.testing);
    // DMARC's own policy names (the reports panel on the same page shows them as the protocol spells them).
    if (lang === 'zh') await expectNoEnglish(page, [customer.email, domain.name, 'none', 'quarantine', 'reject']);
    await page.locator('.domain-health').scrollIntoViewIfNeeded();
    await shot(page, 'domain-health', lang);

    await page.locator('.health-enforce input').click();
    await page.locator('.dialog-confirm').getByRole('button', { name: w.ok }).click();
    await page.locator('.health-mode', { hasText: w.enforce }).waitFor();
    await expect(page.locator('.health-policy').textContent()).resolves.toContain('mode: enforce');
    // The served policy follows, on the domain's mta-sts host only.
    const policy = await fetch(`${baseUrl()}/.well-known/mta-sts.txt`, { headers: { 'x-forwarded-host': `mta-sts.${domain.name}` } });
    expect(await policy.text()).toContain('mode: enforce');
    // The DNS page asks for the new policy id.
    const records = (await api('GET', `/api/admin/domain/dns?id=${domain.id}`, undefined, customer.token)).data.records as (Record & { status: string })[];
    expect(records.find((r) => r.kind === 'mta_sts')).toMatchObject({ status: 'wrong' });
    await shot(page, 'domain-health-enforced', lang);
    expect(errors).toEqual([]);
  });
});
