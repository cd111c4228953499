/** Chromium from Debian through playwright-core (no browser is ever downloaded), and helpers the flows share. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { readOutbox } from '../helpers/outbox';

export const baseUrl = () => inject('baseUrl');
export const SHOTS = path.resolve('test-results/e2e');

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export type Lang = 'zh' | 'en';

/** A fresh page (own storage) in a language; every uncaught page error fails the test that reads `errors`. */
export async function openPage(browser: Browser, lang: Lang = 'zh') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: baseUrl() });
  await context.addInitScript((locale) => {
    if (!window.localStorage.getItem('maildesk.locale')) window.localStorage.setItem('maildesk.locale', locale);
  }, lang);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

export async function shot(page: Page, name: string, lang: Lang = 'zh') {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300); // let the progress bar and transitions finish
  await page.screenshot({ path: path.join(SHOTS, `${name}-${lang}.png`), fullPage: true });
}

export const uniqueEmail = (prefix = 'e2e') => `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;

/** The 6-digit code of the newest message to an address, as the person would read it in their mail. */
export async function codeFor(email: string, after = 0): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const messages = readOutbox(path.join(inject('dataDir'), 'outbox')).filter((m) => m.to === email);
    const code = messages.length > after ? /\b(\d{6})\b/.exec(messages.at(-1)!.text)?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code was mailed to ${email}`);
}

export const mailCount = (email: string) => readOutbox(path.join(inject('dataDir'), 'outbox')).filter((m) => m.to === email).length;

/** A call to the API as a client program would make it. */
export async function api<T = any>(method: 'GET' | 'POST', url: string, body?: unknown, token = ''): Promise<{ code: number; data: T; message: string }> {
  const response = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authentication: token },
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
  return response.json() as Promise<{ code: number; data: T; message: string }>;
}

/** A verified customer made through the API (register → code from the outbox → verify). */
export async function apiCustomer(password = 'customer-pass-1') {
  const email = uniqueEmail('cust');
  const registered = await api('POST', '/api/admin/login/register', { email, password });
  if (registered.code !== 0) throw new Error(JSON.stringify(registered));
  const verified = await api('POST', '/api/admin/login/verify', { email, code: await codeFor(email) });
  if (verified.code !== 0) throw new Error(JSON.stringify(verified));
  return { email, password, token: verified.data.token as string, id: verified.data.id as number };
}

/** Signs in on /login-manage. */
export async function operatorSignIn(page: Page) {
  const { username, password } = inject('operator');
  await page.goto('/login-manage');
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/manage$/);
}

/** Signs in on /login with a password. */
export async function customerSignIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
}
