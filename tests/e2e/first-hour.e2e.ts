/**
 * A customer's first hour and an operator's day, in Chromium: a brand-new customer follows
 * the first steps to a working mailbox and its mail-program settings; Thunderbird's and
 * Outlook's automatic configuration answer for the mailbox's domain; an operator answers a
 * guest message and the reply is in the outbox; the activity log reads as sentences. Every
 * Chinese page visited is checked for English, and screenshotted at 1280 and 390 px.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../helpers/dns-server';
import { readOutbox } from '../helpers/outbox';
import { api, apiCustomer, customerSignIn, expectNoEnglish, landedAt, launch, openPage, operatorSignIn, shotsAtBothWidths, suiteApp, uniqueEmail, type Lang } from './browser';

let browser: Browser;
let dns: DnsServer;
let customer: Awaited<ReturnType<typeof apiCustomer>>;
const domainName = `first-${crypto.randomBytes(3).toString('hex')}.example`;
const address = `anna@${domainName}`;
let domainId = '';
let mailboxId = '';

beforeAll(async () => {
  browser = await launch();
  dns = await startDnsServer(suiteApp().dnsPort);
  customer = await apiCustomer();
});
afterAll(async () => {
  await browser?.close();
  await dns?.close();
});

async function choose(page: Page, source: string, text: string) {
  await page.locator(`.ra-input-${source} input`).first().fill(text);
  await page.getByRole('option', { name: text }).first().click();
}

async function operatorToken() {
  const { username, password } = inject('operator');
  return (await api('POST', '/api/manage/login/login', { username, password })).data.token as string;
}

/** What the customer's pages show of their own data: the address and the name made from it. */
const customerData = (...more: string[]) => [customer.email, customer.email.split('@')[0], 'Start', ...more];

async function signedInCustomer(lang: Lang) {
  const opened = await openPage(browser, lang);
  await customerSignIn(opened.page, customer.email, customer.password);
  await landedAt(opened.page, /\/admin$/);
  return opened;
}

describe('a customer’s first hour', () => {
  it('a brand-new customer follows the first steps to a working mailbox and its mail-program settings', async () => {
    const { page, errors } = await signedInCustomer('zh');
    await page.locator('.first-steps').waitFor();
    expect(await page.locator('.first-step.step-open').count()).toBe(4);
    await expectNoEnglish(page, customerData());
    await shotsAtBothWidths(page, 'first-steps', 'zh');

    // 1. Add the domain: it opens on its DNS instructions, with the mail-program records.
    await page.locator('.step-domain .step-go').click();
    await page.waitForURL(/\/admin\/domain\/create$/);
    await page.locator('input[name=name]').fill(domainName);
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/admin\/domain\/update\?id=\d+$/);
    domainId = new URL(page.url()).searchParams.get('id')!;
    await page.locator('.dns-record').nth(9).waitFor();
    await page.locator('.dns-client-heading').first().waitFor();
    await expectNoEnglish(page, customerData(domainName));
    const records = (await api('GET', `/api/admin/domain/dns?id=${domainId}`, undefined, customer.token)).data.records as { type: string; host: string; value: string; priority?: number }[];
    for (const record of records) dns.publish(record);
    await page.locator('.dns-check-now').click();
    await page.locator('.dns-autoconfig.dns-ok').waitFor();
    await page.locator('.dns-submission_srv.dns-ok').waitFor();
    await page.locator('.domain-verify').click();
    await page.locator('.domain-state .status-active').waitFor();

    // 2. Storage: the step leads to the storage page; the operator's grant stands for the purchase.
    await page.goto('/admin');
    await page.locator('.step-domain.step-done').waitFor();
    expect(await page.locator('.step-storage .step-go').getAttribute('href')).toBe('/admin/storage/buy');
    const granted = await api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 1024 ** 3, label: 'Start' }, await operatorToken());
    expect(granted.code).toBe(0);
    await page.reload();
    await page.locator('.step-storage.step-done').waitFor();

    // 3. The mailbox: it opens on its page with the settings a mail program needs.
    await page.locator('.step-mailbox .step-go').click();
    await page.waitForURL(/\/admin\/email\/create$/);
    await choose(page, 'domain_id', domainName);
    await page.locator('input[name=local_part]').fill('anna');
    await page.locator('input[name=password]').fill('mailbox-pass-1');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/admin\/email\/update\?id=\d+$/);
    mailboxId = new URL(page.url()).searchParams.get('id')!;
    const settings = page.locator('.client-settings');
    await settings.waitFor();
    await expect(settings.locator('.client-imap .client-host').textContent()).resolves.toBe('mx.maildesk.test');
    await expect(settings.locator('.client-imap .client-port').textContent()).resolves.toBe('993');
    await expect(settings.locator('.client-imap .client-security').textContent()).resolves.toBe('SSL/TLS');
    await expect(settings.locator('.client-smtp .client-port').textContent()).resolves.toBe('587');
    await expect(settings.locator('.client-smtp .client-security').textContent()).resolves.toBe('STARTTLS');
    await expect(settings.locator('.client-imap .client-username').textContent()).resolves.toBe(address);
    // In service: an active mailbox of a verified domain (no warning).
    expect(await settings.locator('.MuiAlert-standardWarning').count()).toBe(0);
    const download = page.waitForEvent('download');
    await settings.locator('.apple-profile').click();
    expect((await download).suggestedFilename()).toBe(`${address}.mobileconfig`);
    await expectNoEnglish(page, customerData(address, domainName));
    await shotsAtBothWidths(page, 'mailbox-client-settings', 'zh');

    // 4. Having opened the settings, every step is done: the checklist is gone.
    await page.goto('/admin');
    await page.locator('.customer-dashboard .figure').first().waitFor();
    expect(await page.locator('.first-steps').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 240_000);

  it('Thunderbird’s autoconfig and Outlook’s autodiscover answer valid XML with their schemas’ required elements', async () => {
    const { page } = await openPage(browser);
    await page.goto('/');
    const thunderbird = await page.request.get(`/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(address)}`);
    expect(thunderbird.status()).toBe(200);
    const outlook = await page.request.post('/autodiscover/autodiscover.xml', {
      headers: { 'content-type': 'text/xml' },
      data: `<?xml version="1.0" encoding="utf-8"?><Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/requestschema/2006"><Request><EMailAddress>${address}</EMailAddress><AcceptableResponseSchema>http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a</AcceptableResponseSchema></Request></Autodiscover>`,
    });
    expect(outlook.status()).toBe(200);
    // Parsed by the browser's own XML parser; the elements each schema requires are there.
    const checked = await page.evaluate(
      ([tb, ol]) => {
        const parse = (text: string) => new DOMParser().parseFromString(text, 'application/xml');
        const t = parse(tb);
        const o = parse(ol);
        const has = (doc: Document, selector: string) => doc.querySelectorAll(selector).length;
        const text = (doc: Document, selector: string) => doc.querySelector(selector)?.textContent;
        const R = 'http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a';
        const inResponse = (name: string) => o.getElementsByTagNameNS(R, name);
        return {
          parseErrors: has(t, 'parsererror') + has(o, 'parsererror'),
          tbRoot: `${t.documentElement.nodeName} ${t.documentElement.getAttribute('version')}`,
          tbProvider: t.querySelector('emailProvider')?.getAttribute('id'),
          tbDomain: text(t, 'emailProvider > domain'),
          tbIncoming: ['hostname', 'port', 'socketType', 'username', 'authentication'].map((e) => text(t, `incomingServer[type=imap] > ${e}`)),
          tbOutgoing: ['hostname', 'port', 'socketType', 'username', 'authentication'].map((e) => text(t, `outgoingServer[type=smtp] > ${e}`)),
          olRoot: `${o.documentElement.localName} ${o.documentElement.namespaceURI}`,
          olAccount: [inResponse('AccountType')[0]?.textContent, inResponse('Action')[0]?.textContent],
          olProtocols: Array.from(inResponse('Protocol')).map((p) => ['Type', 'Server', 'Port', 'LoginName'].map((n) => p.getElementsByTagNameNS(R, n)[0]?.textContent).join(' ')),
        };
      },
      [await thunderbird.text(), await outlook.text()] as const,
    );
    expect(checked).toEqual({
      parseErrors: 0,
      tbRoot: 'clientConfig 1.1',
      tbProvider: domainName,
      tbDomain: domainName,
      tbIncoming: ['mx.maildesk.test', '993', 'SSL', '%EMAILADDRESS%', 'password-cleartext'],
      tbOutgoing: ['mx.maildesk.test', '587', 'STARTTLS', '%EMAILADDRESS%', 'password-cleartext'],
      olRoot: 'Autodiscover http://schemas.microsoft.com/exchange/autodiscover/responseschema/2006',
      olAccount: ['email', 'settings'],
      olProtocols: [`IMAP mx.maildesk.test 993 ${address}`, `SMTP mx.maildesk.test 587 ${address}`],
    });
    // An unknown domain gets a bare 404.
    expect((await page.request.get('/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=x%40unknown.example')).status()).toBe(404);
  });

  it.each(['zh', 'en'] as const)('the activity log reads as sentences (%s)', async (lang) => {
    const { page, errors } = await signedInCustomer(lang);
    await page.goto('/admin/log');
    const sentences = page.locator('.list-log .log-sentence');
    await sentences.first().waitFor();
    const all = await sentences.allTextContents();
    const expected = lang === 'zh' ? [`您添加了域名「${domainName}」`, `您验证了域名「${domainName}」`, `您添加了邮箱「${address}」`] : [`You added the domain “${domainName}”`, `You verified the domain “${domainName}”`, `You added the mailbox “${address}”`];
    for (const sentence of expected) expect(all).toContain(sentence);
    // The view page: the sentence and a before/after table with labels and readable values.
    await page.locator('.list-log tr', { hasText: expected[1] }).locator('td').nth(1).click();
    await page.waitForURL(/\/admin\/log\/view\?id=\d+$/);
    await page.locator('.log-changes').waitFor();
    const changes = await page.locator('.log-changes').textContent();
    expect(changes).toContain(lang === 'zh' ? '状态' : 'Status');
    expect(changes).toContain(lang === 'zh' ? '启用' : 'Active');
    expect(changes).not.toContain('{');
    if (lang === 'zh') await expectNoEnglish(page, customerData(domainName, address));
    await shotsAtBothWidths(page, 'log-view', lang);
    await page.goto('/admin/log');
    await sentences.first().waitFor();
    if (lang === 'zh') await expectNoEnglish(page, customerData(domainName, address));
    await shotsAtBothWidths(page, 'log-list', lang);
    expect(errors).toEqual([]);
  }, 240_000);
});

describe('an operator’s day', () => {
  it('an operator replies to a guest message from the panel and the reply is in the outbox', async () => {
    const guest = uniqueEmail('guest');
    const { page, errors } = await openPage(browser);
    await page.goto('/');
    const form = page.locator('.contact-form');
    await form.locator('input[name=name]').fill('Grace Guest');
    await form.locator('input[name=email]').fill(guest);
    await form.locator('input[name=subject]').fill('价格');
    await form.locator('textarea[name=content]').fill('10 GB 多少钱？');
    await form.getByRole('button').click();
    await form.getByRole('alert').getByText('谢谢！您的留言已发送。').waitFor();
    // The form is emptied for the next message.
    await expect(form.locator('input[name=name]').inputValue()).resolves.toBe('');

    await operatorSignIn(page);
    await page.goto('/manage/guest_message');
    const row = page.locator('.list-guest_message tr', { hasText: guest });
    await row.waitFor();
    await expectNoEnglish(page, [guest, 'Grace Guest', inject('operator').username]);
    await shotsAtBothWidths(page, 'guest-messages', 'zh');
    await row.locator('td').nth(1).click();
    await page.waitForURL(/\/manage\/guest_message\/view\?id=\d+$/);
    await page.locator('.guest-reply').click();
    const dialog = page.locator('.guest-reply-dialog');
    await expect(dialog.locator('input[name=subject]').inputValue()).resolves.toBe('Re: 价格');
    // Sending without text is refused beside the field, in Chinese, with no alert.
    await dialog.getByRole('button', { name: '发送回复' }).click();
    await dialog.getByText('必填').waitFor();
    expect(await page.locator('.alert-warning').count()).toBe(0);
    await dialog.locator('textarea[name=body]').fill('10 GB 每年 20 元。');
    await dialog.getByRole('button', { name: '发送回复' }).click();
    await page.locator('.guest-replies .guest-reply-sent').waitFor();
    await expectNoEnglish(page, [guest, 'Grace Guest', 'Re: 价格', inject('operator').username]);
    await shotsAtBothWidths(page, 'guest-message-replied', 'zh');

    const deadline = Date.now() + 15_000;
    let reply;
    while (!reply && Date.now() < deadline) {
      reply = readOutbox(path.join(suiteApp().dataDir, 'outbox')).find((m) => m.to === guest);
      if (!reply) await new Promise((r) => setTimeout(r, 200));
    }
    expect(reply?.subject).toBe('Re: 价格');
    expect(reply?.text).toContain('10 GB 每年 20 元。');
    expect(reply?.text).toContain('10 GB 多少钱？');

    // Handled: it leaves the open list.
    await page.goto(`/manage/guest_message?filter=${encodeURIComponent(JSON.stringify({ handled: 0, q: guest }))}`);
    // The list says so, beside a way to clear the filter.
    await page.getByText('当前筛选条件下没有').waitFor();
    expect(await page.locator('.list-guest_message tr', { hasText: guest }).count()).toBe(0);
    await page.goto('/manage/email_send_log');
    await page.locator('.list-email_send_log .template-name', { hasText: '留言回复' }).first().waitFor();
    await expectNoEnglish(page, [guest, 'Re: 价格', inject('operator').username, ...customerData(address)]);
    expect(errors).toEqual([]);
  }, 240_000);

  it.each(['zh', 'en'] as const)('screenshots at 1280 and 390 px (%s): dashboard, domains and DNS, mailboxes, operator lists', async (lang) => {
    const { page, errors } = await signedInCustomer(lang);
    const data = customerData(domainName, address);
    const visit = async (url: string, ready: string, name: string) => {
      await page.goto(url);
      await page.locator(ready).first().waitFor();
      if (lang === 'zh') await expectNoEnglish(page, data);
      await shotsAtBothWidths(page, name, lang);
    };
    await visit('/admin', '.customer-dashboard .figure', 'dashboard');
    await visit('/admin/domain', '.list-domain', 'domains');
    await visit(`/admin/domain/update?id=${domainId}`, '.dns-record >> nth=9', 'domain-dns');
    await visit('/admin/email', '.list-email', 'mailboxes');
    await visit(`/admin/email/update?id=${mailboxId}`, '.client-settings', 'mailbox');
    await visit('/admin/domain/update', '.record-not-found', 'not-found-record');
    // At phone width the DNS page shows every record's value without scrolling sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/admin/domain/update?id=${domainId}`);
    await page.locator('.dns-record >> nth=9').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.locator('.dns-value').first().isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);

    const operator = await openPage(browser, lang);
    await operatorSignIn(operator.page);
    for (const [url, ready, name] of [
      ['/manage/user', '.list-user', 'operator-customers'],
      ['/manage/log', '.list-log .log-sentence', 'operator-log'],
      ['/manage/email_send_log', '.list-email_send_log', 'operator-send-log'],
      ['/manage/email_template', '.list-email_template', 'operator-templates'],
    ] as const) {
      await operator.page.goto(url);
      await operator.page.locator(ready).first().waitFor();
      if (lang === 'zh') await expectNoEnglish(operator.page, [...data, inject('operator').username]);
      await shotsAtBothWidths(operator.page, name, lang);
    }
    expect(operator.errors).toEqual([]);
  }, 300_000);
});
