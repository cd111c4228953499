/**
 * What a newcomer customer hit in the browser (#33 part 2): an account an operator made, signed
 * in to from an English browser, verified on a page that tells the truth about the code, and
 * taken on to the page first asked for; the activity log then says "You signed in".
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readOutbox } from '../helpers/outbox';
import { api, apiCustomer, customerSignIn, landedAt, launch, mailCount, openPage, shot, suiteApp, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function operatorToken() {
  const { username, password } = inject('operator');
  return (await api('POST', '/api/manage/login/login', { username, password })).data.token as string;
}

const lastMailTo = (email: string) => readOutbox(path.join(suiteApp().dataDir, 'outbox')).filter((m) => m.to === email).at(-1);

describe('a customer an operator made', () => {
  it('signs in from an English browser on the page they asked for: no false "code e-mailed", the code in English, then that page; the log says "You signed in"', async () => {
    const email = uniqueEmail('made');
    // The operator's language (Chinese) is the account's until the person says otherwise.
    const created = await api('POST', '/api/manage/user/create', { email, password: 'made-by-operator-1', locale: 'zh' }, await operatorToken());
    expect(created.code).toBe(0);

    const { page, errors } = await openPage(browser, 'en');
    await page.goto('/admin/domain');
    await page.waitForURL(/\/login$/);
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill('made-by-operator-1');
    await page.locator('button[type=submit]').click();

    // Not verified yet: the page asks for a code instead of claiming one was sent.
    await page.waitForURL(/\/verify\?/);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/admin/domain');
    const intro = page.locator('.verify-page');
    await expect.poll(() => intro.textContent()).toContain('not verified yet');
    expect(await intro.textContent()).not.toContain('we e-mailed you');
    expect(await page.locator('.verify-page [role=alert]').count()).toBe(0);
    expect(mailCount(email)).toBe(0);
    await shot(page, 'newcomer-verify-unsent', 'en');

    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await expect.poll(() => intro.textContent()).toContain(`A 6-digit code was sent to ${email}`);
    await expect.poll(() => mailCount(email)).toBe(1);
    const mail = lastMailTo(email)!;
    expect(mail.subject).toMatch(/^Your Maildesk verification code: \d{6}$/);
    await page.locator('input[name=code]').fill(/\d{6}/.exec(mail.subject)![0]);
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL(/\/admin\/domain$/);

    await page.goto('/admin/log');
    const sentences = page.locator('.list-log .log-sentence');
    await sentences.first().waitFor();
    const all = await sentences.allTextContents();
    expect(all).toContain('You signed in');
    expect(all.join('\n')).not.toMatch(/visitor|#\d/);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('deliverability with nothing yet', () => {
  it('the domain’s reports say where reports arrive and what will appear, the TLS card says so too, and the proposed DMARC record starts at p=none with the panel’s reporting address', async () => {
    const customer = await apiCustomer();
    const name = `fresh-${Date.now().toString(36)}.example`;
    const domain = (await api('POST', '/api/admin/domain/create', { name }, customer.token)).data;
    await api('POST', '/api/manage/domain/update', { id: domain.id, status: 'active' }, await operatorToken());

    const { page, errors } = await openPage(browser, 'en');
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.goto(`/admin/domain/update?id=${domain.id}`);
    const reports = page.locator('.domain-reports');
    await reports.locator('.reports-none').waitFor();
    const days = await reports.locator('.reports-dmarc-days').textContent();
    expect(days).toContain('They arrive at reports@mx.maildesk.test');
    expect(days).not.toContain('—');
    expect(await reports.locator('.reports-none').textContent()).toContain('What will appear here');
    expect(await reports.locator('.reports-tls-none').textContent()).toContain('No TLS report has arrived yet');
    const dns = await api('GET', `/api/admin/domain/dns?id=${domain.id}`, undefined, customer.token);
    expect(dns.data.records.find((r: { kind: string }) => r.kind === 'dmarc').value).toBe('v=DMARC1; p=none; rua=mailto:reports@mx.maildesk.test');
    await shot(page, 'newcomer-deliverability-empty', 'en');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the customer’s own screens', () => {
  it('"End all other sessions" shows only when there are others, and "Keep a copy" explains the switch as it is set', async () => {
    const customer = await apiCustomer();
    const root = await operatorToken();
    // apiCustomer's verification left one session; end it, so that the browser's is the only one.
    await api('POST', '/api/admin/login/logout', {}, customer.token);
    const { page, errors } = await openPage(browser, 'en');
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.goto('/admin/signed-in');
    await page.locator('.signed-in-current').waitFor();
    expect(await page.locator('.signed-in-end-others').count()).toBe(0);
    const second = (await api('POST', '/api/admin/login/login', { email: customer.email, password: customer.password })).data.token as string;
    await page.reload();
    await page.locator('.signed-in-end-others').waitFor();

    await api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 1024 ** 3 }, root);
    const domain = await api('POST', '/api/admin/domain/create', { name: `copy-${Date.now().toString(36)}.example` }, second);
    await api('POST', '/api/manage/domain/update', { id: domain.data.id, status: 'active' }, root);
    const box = await api('POST', '/api/admin/email/create', { domain_id: domain.data.id, local_part: 'anna', password: 'mailbox-pass-1', quota: 512 * 1024 ** 2 }, second);
    await page.goto(`/admin/email/update?id=${box.data.id}`);
    const keep = page.locator('.forwarding-card .forwarding-keep-copy');
    await keep.waitFor();
    // On by default: the help says what "on" does.
    await expect.poll(() => keep.textContent()).toContain('On: forwarded mail is also kept in this mailbox.');
    await keep.locator('input[type=checkbox]').click();
    await expect.poll(() => keep.textContent()).toContain('Off: forwarded mail is not kept here.');
    await shot(page, 'newcomer-keep-copy', 'en');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
