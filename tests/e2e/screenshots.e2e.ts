/** The main screens in both languages, written to test-results/e2e/ for people to look at. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiCustomer, customerSignIn, landedAt, launch, openPage, operatorSignIn, shot, type Lang } from './browser';

let browser: Browser;
let customer: Awaited<ReturnType<typeof apiCustomer>>;

beforeAll(async () => {
  browser = await launch();
  customer = await apiCustomer();
  await api('POST', '/api/message/send', { name: 'Grace', email: 'grace@example.com', subject: 'Pricing', content: 'How much is 10 GiB?' });
});
afterAll(async () => {
  await browser?.close();
});

async function visit(page: Page, path: string, name: string, lang: Lang, ready: string) {
  await page.goto(path);
  await page.locator(ready).first().waitFor();
  await shot(page, name, lang);
}

describe.each(['zh', 'en'] as const)('screens in %s', (lang) => {
  it('public pages', async () => {
    const { page, errors } = await openPage(browser, lang);
    await visit(page, '/', 'index', lang, '.contact-form');
    await visit(page, '/login', 'login', lang, '.login-page');
    await visit(page, '/register', 'register-form', lang, '.register-page');
    await visit(page, '/verify?email=someone%40example.com', 'verify', lang, '.verify-page');
    await visit(page, '/forgot_password', 'forgot-password', lang, '.forgot-page');
    await visit(page, '/login-manage', 'login-manage', lang, '.operator-login-page');
    await visit(page, '/404', '404', lang, '.not-found-page');
    expect(errors).toEqual([]);
  });

  it('customer area', async () => {
    const { page, errors } = await openPage(browser, lang);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await visit(page, '/admin', 'customer-dashboard', lang, '.customer-dashboard .figure');
    await visit(page, '/admin/profile', 'customer-profile-page', lang, '.profile-storage');
    await visit(page, '/admin/admin', 'customer-team', lang, '.RaList-main, .RaEmpty-message');
    await visit(page, '/admin/admin/create', 'customer-team-form', lang, '.form-admin');
    await visit(page, '/admin/log', 'customer-log', lang, '.list-log');
    const firstLog = await api('POST', '/api/admin/log/list', { page: 1, page_size: 1 }, customer.token);
    await visit(page, `/admin/log/view?id=${firstLog.data.list[0].id}`, 'customer-log-view', lang, '.view-log');
    expect(errors).toEqual([]);
  });

  it('operator area', async () => {
    const { page, errors } = await openPage(browser, lang);
    await operatorSignIn(page);
    await visit(page, '/manage', 'operator-dashboard', lang, '.operator-dashboard .figure');
    await visit(page, '/manage/profile', 'operator-profile', lang, '.profile-password');
    await visit(page, '/manage/admin', 'operator-admins', lang, '.list-admin');
    await visit(page, '/manage/admin/create', 'operator-admin-form', lang, '.form-admin');
    await visit(page, '/manage/user', 'operator-customers', lang, '.list-user');
    await visit(page, `/manage/user/update?id=${customer.id}`, 'operator-customer-form', lang, '.form-user');
    await visit(page, '/manage/log', 'operator-logs', lang, '.list-log');
    await visit(page, '/manage/log/view?id=1', 'operator-log-view', lang, '.view-log');
    await visit(page, '/manage/email_template', 'operator-templates', lang, '.list-email_template');
    await visit(page, '/manage/email_template/update?id=1', 'operator-template-form', lang, '.form-email_template');
    await visit(page, '/manage/email_send_log', 'operator-send-log', lang, '.list-email_send_log');
    await visit(page, '/manage/guest_message', 'operator-guest-messages', lang, '.list-guest_message');
    expect(errors).toEqual([]);
  });
});
