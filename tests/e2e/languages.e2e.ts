/**
 * A page downloads the texts of its visitor's language only; the other language's come when it
 * is chosen, and the page and the ones after it switch to it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { baseUrl, launch, openPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

it('When a Chinese visitor chooses English on the sign-in page, then the English texts load and the page reads in English; back in Chinese, so do the next pages', async () => {
  const { page, errors } = await openPage(browser, 'zh');
  const texts = new Set<string>();
  page.on('request', (r) => {
    const file = /\/assets\/(texts-\w+)-/.exec(r.url())?.[1];
    if (file) texts.add(file);
  });
  await page.goto('/login');
  await expect.poll(() => page.locator('h1').textContent()).toBe('登录 Maildesk');
  expect([...texts]).toEqual(['texts-zh']);

  await page.locator('select.locale-switch').selectOption('en');
  await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in to Maildesk');
  expect([...texts].sort()).toEqual(['texts-en', 'texts-zh']);
  expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('maildesk.locale')])).toEqual(['en', 'en']);

  // A fresh load in the chosen language needs only its texts.
  texts.clear();
  await page.reload();
  await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in to Maildesk');
  expect([...texts]).toEqual(['texts-en']);

  await page.locator('select.locale-switch').selectOption('zh');
  await expect.poll(() => page.locator('h1').textContent()).toBe('登录 Maildesk');
  await page.getByRole('link', { name: '注册' }).first().click();
  await expect.poll(() => page.locator('h1').textContent()).not.toBe('登录 Maildesk');
  expect(await page.locator('h1').textContent()).toMatch(/[\u4e00-\u9fff]/);
  expect(errors).toEqual([]);
  await page.context().close();
});

it('When an English browser opens the public pages with no language chosen, then they read in English (Accept-Language); once the person chooses Chinese, that choice wins and is remembered', async () => {
  // No stored choice: the context's locale is what Chromium sends as Accept-Language and navigator.languages.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: baseUrl(), locale: 'en-GB' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/login');
  await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in to Maildesk');
  expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('maildesk.locale')])).toEqual(['en', null]);
  await page.goto('/register');
  await expect.poll(() => page.locator('h1').textContent()).toMatch(/^[^\u4e00-\u9fff]+$/);

  await page.goto('/login');
  await page.locator('select.locale-switch').selectOption('zh');
  await expect.poll(() => page.locator('h1').textContent()).toBe('登录 Maildesk');
  await page.reload();
  await expect.poll(() => page.locator('h1').textContent()).toBe('登录 Maildesk');
  expect(await page.evaluate(() => localStorage.getItem('maildesk.locale'))).toBe('zh');
  expect(errors).toEqual([]);
  await context.close();

  // A browser listing a language we lack first still gets the first one we have; one listing neither gets Chinese.
  for (const [locale, heading] of [['fr-FR,en;q=0.8', 'Sign in to Maildesk'], ['zh-TW', '登录 Maildesk'], ['de-DE', '登录 Maildesk']] as const) {
    const other = await browser.newContext({ baseURL: baseUrl(), locale: locale.split(',')[0], extraHTTPHeaders: { 'Accept-Language': locale } });
    await other.addInitScript((languages) => Object.defineProperty(navigator, 'languages', { get: () => languages }), locale.split(',').map((l) => l.split(';')[0]));
    const p = await other.newPage();
    await p.goto('/login');
    await expect.poll(() => p.locator('h1').textContent()).toBe(heading);
    await other.close();
  }
});
