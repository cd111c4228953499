/** Chromium from Debian through playwright-core (no browser is ever downloaded), and helpers the flows share. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { readOutbox } from '../helpers/outbox';

/** This worker's app (server.ts): VITEST_POOL_ID numbers the workers from 1. */
export const suiteApp = () => {
  const apps = inject('apps');
  return apps[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % apps.length];
};
export const baseUrl = () => suiteApp().baseUrl;
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

/** Every CSP violation any page reported; csp-guard.ts fails the test during which one happened. */
export const cspViolations: string[] = [];

/** A fresh page (own storage) in a language, on the suite's app or another (`base`); every uncaught page error fails the test that reads `errors`. */
export async function openPage(browser: Browser, lang: Lang = 'zh', base = baseUrl()) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: base });
  await context.addInitScript((locale) => {
    if (!window.localStorage.getItem('maildesk.locale')) window.localStorage.setItem('maildesk.locale', locale);
  }, lang);
  // The app runs under the server's Content-Security-Policy: anything it blocks is a bug of ours.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`));
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (message) => {
    if (/Refused to|CSP violation|Content Security Policy/i.test(message.text())) {
      cspViolations.push(`${page.url()}: ${message.text()}`);
      errors.push(message.text());
    }
  });
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
    const messages = readOutbox(path.join(suiteApp().dataDir, 'outbox')).filter((m) => m.to === email);
    const code = messages.length > after ? /\b(\d{6})\b/.exec(messages.at(-1)!.text)?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code was mailed to ${email}`);
}

/** The token of the team-invitation link in the newest message to an address, as the invitee would follow it. */
export async function invitationTokenFor(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const text = readOutbox(path.join(suiteApp().dataDir, 'outbox')).filter((m) => m.to === email).at(-1)?.text ?? '';
    const token = /\/accept-invitation\?token=([\w-]+)/.exec(text)?.[1];
    if (token) return token;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no invitation link was mailed to ${email}`);
}

export const mailCount = (email: string) => readOutbox(path.join(suiteApp().dataDir, 'outbox')).filter((m) => m.to === email).length;

/** A call to the API as a client program would make it. */
export async function api<T = any>(method: 'GET' | 'POST', url: string, body?: unknown, token = '', headers: Record<string, string> = {}): Promise<{ code: number; data: T; message: string }> {
  const response = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authentication: token, ...headers },
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
  return response.json() as Promise<{ code: number; data: T; message: string }>;
}

/** A verified customer made through the API (register → code from the outbox → verify). */
export async function apiCustomer(password = 'customer-pass-1') {
  const email = uniqueEmail('cust');
  // Each customer signs up from an address of their own (the server trusts the proxy's header), as
  // people do: the suite's many sign-ups would otherwise share one address's hourly limit on codes.
  const from = { 'x-forwarded-for': `10.${[...crypto.getRandomValues(new Uint8Array(3))].join('.')}` };
  const registered = await api('POST', '/api/admin/login/register', { email, password }, '', from);
  if (registered.code !== 0) throw new Error(JSON.stringify(registered));
  const verified = await api('POST', '/api/admin/login/verify', { email, code: await codeFor(email) }, '', from);
  if (verified.code !== 0) throw new Error(JSON.stringify(verified));
  return { email, password, token: verified.data.token as string, id: verified.data.id as number };
}

/**
 * Sends a sign-in form and waits for the server's answer: a refused sign-in fails here with the
 * server's reason, not half a minute later on a page that never came.
 */
async function submitSignIn(page: Page, call: string) {
  const [answer] = await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === call && response.request().method() === 'POST'),
    page.locator('button[type=submit]').click(),
  ]);
  const body = (await answer.json().catch(() => undefined)) as { code?: number } | undefined;
  if (body?.code !== 0) throw new Error(`${call} answered ${answer.status()}: ${JSON.stringify(body)}`);
}

/** Waits for the page a sign-in leads to; when it does not come, says where the page is and what it shows. */
export async function landedAt(page: Page, url: RegExp) {
  await page.waitForURL(url).catch(async (error: Error) => {
    const shown = await page.locator('body').innerText({ timeout: 1_000 }).catch(() => '');
    throw new Error(`${error.message}\nThe page is at ${page.url()} and shows: ${shown.replace(/\s+/g, ' ').slice(0, 300)}`);
  });
}

/** Signs in on /login-manage. */
export async function operatorSignIn(page: Page) {
  const { username, password } = inject('operator');
  await page.goto('/login-manage');
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await submitSignIn(page, '/api/manage/login/login');
  await landedAt(page, /\/manage$/);
}

/**
 * Opens an entry of a grouped side menu (the operators'): its group's title first, when the group
 * is closed, and the entry once the group has opened. A click while the group still unfolds
 * could land on nothing under load (seen in CI: the page stayed where it was).
 */
export async function openMenuEntry(page: Page, group: string, entry: string) {
  const title = page.getByRole('menuitem', { name: group, exact: true });
  if ((await title.getAttribute('aria-expanded')) !== 'true') await title.click();
  await expect.poll(() => title.getAttribute('aria-expanded')).toBe('true');
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'), undefined, { polling: 50, timeout: 10_000 });
  await page.getByRole('menuitem', { name: entry }).click();
}

/** Signs in on /login with a password (the caller waits for the page it leads to). */
export async function customerSignIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await submitSignIn(page, '/api/admin/login/login');
}

/**
 * Words that may appear in Latin letters inside the Chinese UI: the brand, protocol and record
 * names, units, product names. Everything else in Latin letters is English that slipped in.
 */
export const LATIN_ALLOWED = new Set([
  'Maildesk', 'English', 'ID', 'IP', 'DNS', 'MX', 'TXT', 'SPF', 'DKIM', 'DMARC', 'CNAME', 'SRV', 'TTL', 'A', 'AAAA', 'PTR',
  'IMAP', 'SMTP', 'SSL', 'TLS', 'STARTTLS', 'POP', 'API', 'B', 'KiB', 'MiB', 'GiB', 'TiB',
  'Thunderbird', 'Outlook', 'iPhone', 'iPad', 'Mac', 'UTC', 'MTA-STS', 'CSV', 'PostfixAdmin',
]);

/** Elements whose text is the user's data or a value to copy (addresses, hosts, record values), not UI wording. */
const USER_DATA = ['[data-user-data]', 'input', 'textarea', 'code', 'pre', '.dns-host', '.dns-value', '.client-host', '.client-username', '.log-changes td:not(:first-child)', '.guest-reply-sent'];

/**
 * Fails when the visible text of the page holds English outside user data: every Latin word
 * that is not on the allow-list, nor part of an address, host name or URL, nor one of the
 * user data values the test passes (names it typed in).
 */
export async function expectNoEnglish(page: Page, userData: string[] = []) {
  const texts = await page.evaluate(([skip, skipAttributes]) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim()) continue;
      if (element.closest(skip.join(',')) || element.closest('script,style,noscript')) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none' || element.getClientRects().length === 0) continue;
      out.push(node.textContent.trim());
    }
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('[placeholder],[aria-label],[title]'))) {
      // An input's placeholder and label are wording; its value is the user's.
      if (element.closest(skipAttributes.join(','))) continue;
      for (const name of ['placeholder', 'aria-label', 'title']) {
        const value = element.getAttribute(name);
        if (value) out.push(value);
      }
    }
    return out;
  }, [USER_DATA, USER_DATA.filter((s) => s !== 'input' && s !== 'textarea')] as const);
  const english: string[] = [];
  for (const text of texts) {
    let rest = text
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/[\w.+-]+@[\w.-]+/g, ' ') // addresses
      .replace(/\b[\w-]+(\.[\w-]+)+\b/g, ' '); // host and domain names
    for (const value of userData) rest = rest.split(value).join(' ');
    for (const word of rest.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []) {
      if (!LATIN_ALLOWED.has(word)) english.push(`${word} (in "${text.slice(0, 80)}")`);
    }
  }
  expect(english, `English in the Chinese UI of ${page.url()}`).toEqual([]);
}

/** A screenshot at 1280 px and at 390 px (a phone), then back to 1280. */
export async function shotsAtBothWidths(page: Page, name: string, lang: Lang) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, `${name}-1280`, lang);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await shot(page, `${name}-390`, lang);
  await page.setViewportSize({ width: 1280, height: 800 });
}
