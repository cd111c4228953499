/**
 * A fresh installation's first day for the operator, on an app of its own (nothing made yet):
 * the dashboard's first steps (a storage product, outgoing mail tested through a real SMTP
 * server, the mail server named and in DNS, the templates made the provider's own), each taken
 * through its button until the card goes; the grouped menu remembering what was opened; the
 * dashboard's charts and a record's full name at phone width. Screenshots in zh and en at
 * 1280 and 390 px.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../helpers/dns-server';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { smtpSink } from '../helpers/smtp-sink';
import { expectNoEnglish, launch, openMenuEntry, openPage, operatorSignIn, shotsAtBothWidths, type Lang } from './browser';

const MAIL_HOSTNAME = 'mx.first-day.test';
/** Names of the settings the pages quote as they are. */
const SETTING_NAMES = ['SMTP_URL', 'MAIL_FROM', 'MAIL_HOSTNAME', 'DATA_DIR/outbox', 'deploy:config --hostname', MAIL_HOSTNAME];

let browser: Browser;
let app: ServerProcess;
let dns: DnsServer;
let sink: Awaited<ReturnType<typeof smtpSink>>;
let dataDir: string;

beforeAll(async () => {
  browser = await launch();
  dns = await startDnsServer();
  sink = await smtpSink();
  await sink.up();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-first-day-'));
  app = await startServerProcess({
    DATA_DIR: dataDir,
    WEB_ROOT: path.resolve('dist/web'),
    SMTP_URL: sink.url,
    MAIL_FROM: 'Example Mail <noreply@example.net>',
    MAIL_HOSTNAME,
    DNS_SERVERS: dns.address,
    DATABASE_URL: '',
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await sink?.close();
  await dns?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signedIn(lang: Lang) {
  const opened = await openPage(browser, lang, app.address);
  await operatorSignIn(opened.page);
  return opened;
}

const steps = (page: Page) => page.locator('.operator-first-steps');
const step = (page: Page, key: string) => page.locator(`.operator-first-steps .step-${key}`);

async function dashboard(page: Page) {
  await page.goto('/manage');
  await page.locator('.operator-dashboard .figure').first().waitFor();
}

describe('the operator’s first day', () => {
  it('a fresh installation shows four open steps, in both languages, each with a button to where it is done', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { page, errors } = await signedIn(lang);
      await steps(page).waitFor();
      expect(await page.locator('.operator-first-steps .step-open').count()).toBe(4);
      expect(await page.locator('.operator-first-steps .step-go').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
        '/manage/product/create',
        '/manage/mail_server',
        '/manage/mail_server',
        '/manage/email_template',
      ]);
      // The mail server's step says what is missing: its address in DNS.
      await expect(step(page, 'hostname').textContent()).resolves.toContain(MAIL_HOSTNAME);
      if (lang === 'zh') await expectNoEnglish(page, ['root', ...SETTING_NAMES]);
      await shotsAtBothWidths(page, 'operator-first-steps', lang);
      expect(errors).toEqual([]);
    }
  });

  it('a storage product made through the first step’s button puts it on sale and ticks the step', async () => {
    const { page, errors } = await signedIn('zh');
    await step(page, 'products').locator('.step-go').click();
    await page.waitForURL(/\/manage\/product\/create$/);
    await page.locator('.ra-input-kind [role=combobox]').click();
    await page.getByRole('option', { name: '存储空间' }).click();
    await page.locator('input[name=name_zh]').fill('存储 5 GB');
    await page.locator('input[name=name_en]').fill('Storage 5 GB');
    await page.locator('input[name=price]').fill('10');
    await page.locator('input[name=storage_size]').fill('5120');
    await page.locator('.ra-input-visible input[type=checkbox]').check();
    await page.locator('.dialog-confirm').getByRole('button', { name: '确定' }).click();
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/manage\/product$/);
    await dashboard(page);
    await step(page, 'products').and(page.locator('.step-done')).waitFor();
    expect(errors).toEqual([]);
  });

  it('the mail server page shows the settings; a test message goes out through the SMTP server and ticks the step', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { page } = await signedIn(lang);
      await page.goto('/manage/mail_server');
      await page.locator('.outgoing-mail .outgoing-smtp').waitFor();
      await page.locator('.mail-server .mail-server-gap').waitFor();
      if (lang === 'zh') await expectNoEnglish(page, ['root', ...SETTING_NAMES, `127.0.0.1:${sink.port}`, 'Example Mail']);
      await shotsAtBothWidths(page, 'operator-mail-server', lang);
    }
    const { page, errors } = await signedIn('zh');
    await dashboard(page);
    await step(page, 'mail').locator('.step-go').click();
    await page.waitForURL(/\/manage\/mail_server$/);
    await expect(page.locator('.outgoing-mail .outgoing-smtp').textContent()).resolves.toContain(`127.0.0.1:${sink.port}`);
    await page.locator('.test-message-form input[name=to]').fill('ops@example.com');
    await page.locator('.test-message-send').click();
    await page.locator('.test-outcome.test-sent').waitFor();
    expect(sink.received.some((m) => m.includes('To: ops@example.com'))).toBe(true);
    await shotsAtBothWidths(page, 'operator-mail-server-tested', 'zh');
    await dashboard(page);
    await step(page, 'mail').and(page.locator('.step-done')).waitFor();
    expect(errors).toEqual([]);
  });

  it('the mail server step is done once DNS knows its address, and saving a template ends the first steps', async () => {
    const { page, errors } = await signedIn('zh');
    dns.host(MAIL_HOSTNAME, '192.0.2.25');
    await dashboard(page);
    await step(page, 'hostname').and(page.locator('.step-done')).waitFor();
    await shotsAtBothWidths(page, 'operator-first-steps-three-done', 'zh');

    await step(page, 'templates').locator('.step-go').click();
    await page.waitForURL(/\/manage\/email_template$/);
    await page.locator('.list-email_template tbody tr').first().locator('td').nth(1).click();
    await page.waitForURL(/\/manage\/email_template\/update\?id=\d+$/);
    const body = page.locator('textarea[name=body]');
    await body.fill((await body.inputValue()).replace(/Maildesk\s*$/, 'Example Mail'));
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/manage\/email_template$/);
    await dashboard(page);
    await page.locator('.business-charts').waitFor();
    expect(await steps(page).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('the operator’s menu', () => {
  it('is in groups; a group opened stays open after a reload, and the group of the page shown opens by itself', async () => {
    const { page, errors } = await signedIn('en');
    for (const group of ['Customer accounts', 'Mail', 'Shop', 'Support', 'System']) {
      await expect(page.getByRole('menuitem', { name: group, exact: true }).getAttribute('aria-expanded')).resolves.toBe('false');
    }
    expect(await page.getByRole('menuitem', { name: 'Products' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Shop', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Products' }).waitFor();
    await page.reload();
    await page.getByRole('menuitem', { name: 'Products' }).waitFor();
    await openMenuEntry(page, 'System', 'Mail server');
    await page.waitForURL(/\/manage\/mail_server$/);
    await page.goto('/manage/domain');
    await expect(page.getByRole('menuitem', { name: 'Mail', exact: true }).getAttribute('aria-expanded')).resolves.toBe('true');
    await page.getByRole('menuitem', { name: 'Deleted mailboxes' }).waitFor();
    await shotsAtBothWidths(page, 'operator-menu', 'en');
    expect(errors).toEqual([]);
  });
});

describe('the dashboards', () => {
  /** A customer with a long address who bought storage twice (made once, for both languages). */
  let bought: Promise<{ email: string; created: { data: { id: number } } }> | undefined;
  const buyer = () =>
    (bought ??= (async () => {
      const root = (await app.call('POST', '/api/manage/login/login', { username: 'root', password: 'root-password-1' })).data.token as string;
      const auth = { authentication: root };
      const product = (await app.call('POST', '/api/manage/product/create', { kind: 'storage', name_zh: '存储 1 GB', name_en: 'Storage 1 GB', price: 500, storage_size: 1024 ** 3 }, auth)).data;
      // A customer with a long address, who buys storage twice.
      const email = `a-customer-with-a-rather-long-address-${crypto.randomBytes(3).toString('hex')}@example-hosting-customer.com`;
      const created = await app.call<{ id: number }>('POST', '/api/manage/user/create', { email, username: email.split('@')[0], password: 'customer-pass-1', is_verified: 1, status: 'active', locale: 'en' }, auth);
      expect(created.code).toBe(0);
      await app.call('POST', '/api/manage/user/add_points', { user_id: created.data.id, points: 5000, note: 'e2e', key: crypto.randomUUID() }, auth);
      const customer = (await app.call('POST', '/api/admin/login/login', { email, password: 'customer-pass-1' })).data.token as string;
      for (let i = 0; i < 2; i++) expect((await app.call('POST', '/api/admin/order/create', { product_id: product.id, pay_with: 'points' }, { authentication: customer })).code).toBe(0);
      return { email, created };
    })());

  // A language a test: each a sign-in, a dashboard and a form drawn and shot at two widths, which together took
  // over 90 s on a busy CI machine.
  it.each(['zh', 'en'] as const)('in %s: the orders-by-status bars carry numbers on their axis, and at 390 px a record’s name is read in full in the title', async (lang) => {
    const { email, created } = await buyer();
    const { page, errors } = await signedIn(lang);
    const ticks = page.locator('.chart-orders .MuiChartsAxis-directionX .MuiChartsAxis-tickLabel');
    await ticks.first().waitFor();
    const numbers = await ticks.allTextContents();
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    expect(numbers.every((n) => /^\d[\d,]*$/.test(n))).toBe(true);
    await shotsAtBothWidths(page, 'operator-dashboard-first-day', lang);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/manage/user/update?id=${created.data.id}`);
    await page.locator('input[name=email]').waitFor();
    const title = page.locator('#react-admin-title');
    await expect(title.textContent()).resolves.toContain(email);
    // All of it shows (no ellipsis), and the bar, however tall, covers none of the form.
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    const bar = (await page.locator('header.MuiAppBar-root').boundingBox())!;
    const form = (await page.locator('.form-user').boundingBox())!;
    expect(form.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    await shotsAtBothWidths(page, 'operator-customer-title', lang);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
