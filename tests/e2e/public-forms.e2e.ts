/**
 * The public pages as a visitor uses them, by label and keyboard: fields named by their labels,
 * a refusal explained beside each field, the sign-in tabs, and every page within a phone's width.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launch, openPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

it('When a visitor sends the sign-in form with a wrong address and no password, then each field says beside it what is wrong, with no dialog; corrected, the server’s refusal is the WARNING dialog', async () => {
  const { page, errors } = await openPage(browser, 'zh');
  await page.goto('/login');
  // The accessible names are the labels without the asterisk that marks a required field.
  const email = page.getByRole('textbox', { name: '邮箱地址', exact: true });
  const password = page.getByLabel('密码');
  await email.fill('a@');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
  expect(await password.getAttribute('aria-invalid')).toBe('true');
  const explanation = async (field: typeof email) => page.locator(`[id="${await field.getAttribute('aria-describedby')}"]`).textContent();
  expect(await explanation(email)).toBe('邮箱地址格式不正确');
  expect(await explanation(password)).toMatch(/[\u4e00-\u9fff]/);
  expect(await page.locator('.alert-warning').count()).toBe(0);
  // Correcting the address and sending again clears its explanation.
  await email.fill('someone@example.com');
  await password.fill('a-password');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.locator('.alert-warning').waitFor();
  // (The dialog hides the page from the accessibility tree meanwhile.)
  expect(await page.locator('input[name=email]').getAttribute('aria-invalid')).toBe('false');
  expect(errors).toEqual([]);
  await page.context().close();
});

it('When a visitor moves to the code tab with the keyboard, then the form asks for the address only and offers to send a code', async () => {
  const { page, errors } = await openPage(browser, 'zh');
  await page.goto('/login');
  const byPassword = page.getByRole('tab', { name: '密码登录' });
  const byCode = page.getByRole('tab', { name: '验证码登录' });
  expect(await byPassword.getAttribute('aria-selected')).toBe('true');
  await byPassword.focus();
  await page.keyboard.press('ArrowRight');
  expect(await byCode.evaluate((tab) => tab === document.activeElement)).toBe(true);
  await page.keyboard.press('Enter');
  expect(await byCode.getAttribute('aria-selected')).toBe('true');
  expect(await byPassword.getAttribute('tabindex')).toBe('-1');
  expect(await page.locator('input[type=password]').count()).toBe(0);
  await page.getByRole('button', { name: '发送验证码' }).waitFor();
  // The arrows go round: from the last tab to the first.
  await page.keyboard.press('ArrowRight');
  expect(await byPassword.evaluate((tab) => tab === document.activeElement)).toBe(true);
  expect(errors).toEqual([]);
  await page.context().close();
});

it('When the public pages are opened on a phone, then none is wider than the screen', async () => {
  const { page, errors } = await openPage(browser, 'en');
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of ['/', '/login', '/register', '/verify?email=someone%40example.com', '/forgot_password', '/login-manage', '/accept-invitation', '/404']) {
    await page.goto(path);
    await page.locator('h1').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
  }
  expect(errors).toEqual([]);
  await page.context().close();
});

it('When a visitor follows a link to a page whose code is still on its way, then the page left is gone and the progress bar runs until the new page comes', async () => {
  const { page, errors } = await openPage(browser, 'en');
  await page.goto('/login');
  const forgotten = page.locator('a[href^="/forgot_password"]');
  await forgotten.waitFor();
  // The registration page's code is held back, as a slow network would.
  let deliver!: () => void;
  const held = new Promise<void>((resolve) => (deliver = resolve));
  await page.route(/\/assets\/RegisterPage-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.locator('main a[href^="/register"]').first().click();
  // The click is seen at once: the bar runs and the sign-in page is no longer shown as if nothing happened.
  await page.locator('.route-progress').waitFor({ state: 'visible' });
  expect(await forgotten.isVisible()).toBe(false);
  deliver();
  await page.locator('input[name=email]').waitFor();
  await page.locator('.route-progress').waitFor({ state: 'detached' });
  expect(await forgotten.count()).toBe(0);
  expect(new URL(page.url()).pathname).toBe('/register');
  expect(errors).toEqual([]);
  await page.context().close();
});
