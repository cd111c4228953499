import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, apiCustomer, customerSignIn, landedAt, launch, openPage, operatorSignIn, shot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('sessions and unknown paths', () => {
  it('a visitor without a session is sent to /login, and back to the page they wanted after signing in', async () => {
    const customer = await apiCustomer();
    const { page } = await openPage(browser);
    await page.goto('/admin/log');
    await page.waitForURL(/\/login$/);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin\/log$/);
    await page.locator('.list-log').waitFor();
  });

  it('a visitor without an operator session is sent to /login-manage and back afterwards', async () => {
    const { page } = await openPage(browser);
    await page.goto('/manage/guest_message');
    await page.waitForURL(/\/login-manage$/);
    await operatorSignInKeepingState(page);
    await page.waitForURL(/\/manage\/guest_message$/);
  });

  it('a customer session revoked on the server lands back on /login', async () => {
    const customer = await apiCustomer();
    const { page } = await openPage(browser);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.locator('.customer-dashboard .figure').first().waitFor();
    const token = JSON.parse((await page.evaluate(() => window.localStorage.getItem('user')))!).token as string;
    expect(token).not.toBe('');
    // The server ends the session (as when it expires or the account is disabled).
    await expect(api('POST', '/api/admin/login/logout', {}, token)).resolves.toMatchObject({ code: 0 });
    await page.getByRole('menuitem', { name: '操作日志' }).click();
    await page.waitForURL(/\/login\?session_ended=1$/);
    // The sign-in page says why the visitor is there.
    await page.locator('.session-ended').getByText('您的登录已失效').waitFor();
    expect(JSON.parse((await page.evaluate(() => window.localStorage.getItem('user')))!)).toEqual({ id: 0, email: '', is_verified: 0, token: '' });
  });

  it('unknown paths show the 404 page, in the public pages and in both areas', async () => {
    const { page } = await openPage(browser);
    await page.goto('/no/such/page');
    await page.waitForURL(/\/404$/);
    await page.locator('.not-found-page').getByRole('heading', { name: '页面不存在' }).waitFor();
    await shot(page, 'not-found');
    await operatorSignIn(page);
    await page.goto('/manage/no_such_screen');
    await page.waitForURL(/\/404$/);
    const response = await page.request.get('/api/no/such/call');
    expect(response.status()).toBe(404);
  });
});

/** Signs in on the page the guard sent us to (keeping the wanted path in the history state). */
async function operatorSignInKeepingState(page: Page) {
  const { username, password } = inject('operator');
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
}
