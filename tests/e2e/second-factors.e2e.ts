/**
 * Second factors in Chromium, in both languages: a customer enrols a passkey (Chromium's virtual
 * authenticator, through the DevTools WebAuthn domain) and signs in with it, without a password
 * and as the second step; another enrols an authenticator app by reading the secret off the page
 * and signs in with a code. WebAuthn needs a domain name (never an IP address) as its relying
 * party, so these flows run against an app of their own whose PUBLIC_URL is http://localhost:<port>.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../helpers/outbox';
import { launch, openPage, shot, uniqueEmail, type Lang } from './browser';
import { freePort, waitUntilUp } from './server';

let browser: Browser;
let app: ChildProcess;
let base: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-e2e-2fa-'));
  const port = await freePort();
  base = `http://localhost:${port}`;
  let output = '';
  app = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-1', LOG_LEVEL: 'warn', SMTP_URL: '', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  app.stdout!.on('data', (d) => (output += d));
  app.stderr!.on('data', (d) => (output += d));
  await waitUntilUp(base, app, () => output);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  app?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function api(url: string, body: unknown, token = '') {
  const response = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', authentication: token }, body: JSON.stringify(body) });
  return response.json() as Promise<{ code: number; data: any; message: string }>;
}

/** A verified customer, made through the API (register → the e-mailed code → verify). */
async function customer() {
  const email = uniqueEmail('2fa');
  const password = 'customer-pass-1';
  await api('/api/admin/login/register', { email, password });
  let code: string | undefined;
  for (let i = 0; i < 100 && !code; i++) {
    code = /\b(\d{6})\b/.exec(readOutbox(path.join(dataDir, 'outbox')).filter((m) => m.to === email).at(-1)?.text ?? '')?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  const verified = await api('/api/admin/login/verify', { email, code });
  if (verified.code !== 0) throw new Error(JSON.stringify(verified));
  return { email, password };
}

/** A platform authenticator with a resident key and user verification, as a phone or laptop has. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

async function passwordSignIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
}

const signOut = async (page: Page) => {
  await page.evaluate(() => window.localStorage.removeItem('user'));
  await page.goto('/login');
};

const texts = {
  zh: { title: '两步验证', passkeyName: '工作电脑' },
  en: { title: 'Two-step sign-in', passkeyName: 'Work laptop' },
} as const;

describe.each(['zh', 'en'] as Lang[])('second factors (%s)', (lang) => {
  it('a customer adds a passkey, signs in with it without a password, and after the password it is the second step', async () => {
    const person = await customer();
    const { page, errors } = await openPage(browser, lang, base);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    await passwordSignIn(page, person.email, person.password);
    await page.waitForURL(/\/admin$/);
    await page.goto('/admin/security');
    await page.locator('.security-page .passkeys-empty').waitFor();
    await page.getByRole('heading', { name: texts[lang].title }).first().waitFor().catch(() => undefined);
    await page.locator('.passkey-add').click();
    await page.locator('.passkey-add-dialog input[name=name]').fill(texts[lang].passkeyName);
    await page.locator('.passkey-add-dialog button[type=submit]').click();
    await page.locator('.passkey-row .passkey-name', { hasText: texts[lang].passkeyName }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);
    expect(credentials[0].rpId).toBe('localhost');
    await shot(page, 'second-factor-passkey-added', lang);

    // Without a password: the passkey names the person.
    await signOut(page);
    await shot(page, 'second-factor-sign-in-page', lang);
    await page.locator('.passkey-sign-in-button').click();
    await page.waitForURL(/\/admin$/);
    expect(JSON.parse((await page.evaluate(() => window.localStorage.getItem('user')))!).email).toBe(person.email);

    // With the password, the passkey is the second step.
    await signOut(page);
    await passwordSignIn(page, person.email, person.password);
    await page.locator('.second-factor-page .second-step-passkey').waitFor();
    await shot(page, 'second-factor-passkey-step', lang);
    await page.locator('.second-step-passkey').click();
    await page.waitForURL(/\/admin$/);
    const { credentials: after } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after[0].signCount).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
  });

  it('a customer enrols an authenticator app by reading the secret from the page, keeps the recovery codes, and signs in with a code', async () => {
    const person = await customer();
    const { page, errors } = await openPage(browser, lang, base);
    await passwordSignIn(page, person.email, person.password);
    await page.waitForURL(/\/admin$/);
    await page.goto('/admin/security');
    await page.locator('.totp-set-up').click();
    const secret = (await page.locator('.totp-setup-dialog .totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.locator('.totp-setup-dialog .totp-qr').waitFor();
    await shot(page, 'second-factor-totp-setup', lang);
    const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    await page.locator('.totp-setup-dialog input[name=code]').fill(app.generate());
    await page.locator('.totp-setup-dialog button[type=submit]').click();
    await page.locator('.recovery-codes-dialog .recovery-code').first().waitFor();
    expect(await page.locator('.recovery-codes-dialog .recovery-code').count()).toBe(10);
    await shot(page, 'second-factor-recovery-codes', lang);
    await page.locator('.recovery-codes-done').click();
    await page.locator('.totp-turn-off').waitFor();
    expect(await page.locator('.security-page').textContent()).not.toContain(secret);

    await signOut(page);
    await passwordSignIn(page, person.email, person.password);
    await page.locator('.second-factor-page input[name=code]').waitFor();
    // A wrong code is refused with a translated message.
    await page.locator('.second-factor-page input[name=code]').fill('000000');
    await page.locator('.second-factor-page button[type=submit]').click();
    await page.locator('.alert-warning').waitFor();
    await shot(page, 'second-factor-wrong-code', lang);
    await page.locator('.alert-warning button').first().click();
    // The code the app shows next (the one used to enrol may not be used again).
    await page.locator('.second-factor-page input[name=code]').fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await shot(page, 'second-factor-code-step', lang);
    await page.locator('.second-factor-page button[type=submit]').click();
    await page.waitForURL(/\/admin$/);
    expect(errors).toEqual([]);
  });
});

describe.each(['zh', 'en'] as Lang[])('a second factor required of every operator (%s)', (lang) => {
  it('an operator without one is led through setting up an authenticator app at the next sign-in', async () => {
    const root = (await api('/api/manage/login/login', { username: 'root', password: 'root-password-1' })).data.token as string;
    const username = `ops-${lang}-${Date.now().toString(36)}`;
    expect((await api('/api/manage/admin/create', { username, password: 'operator-pass-1', role: 'support' }, root)).code).toBe(0);
    expect((await api('/api/manage/second_factor/update_policy', { operators_required: true }, root)).code).toBe(0);
    try {
      const { page, errors } = await openPage(browser, lang, base);
      await page.goto('/login-manage');
      await page.locator('input[name=username]').fill(username);
      await page.locator('input[name=password]').fill('operator-pass-1');
      await page.locator('button[type=submit]').click();
      await page.locator('.second-step-enrol button[type=submit]').click();
      const secret = (await page.locator('.second-step-enrol .totp-secret').textContent())!.trim();
      await shot(page, 'second-factor-enrol-at-sign-in', lang);
      const code = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
      await page.locator('.second-step-enrol input[name=code]').fill(code);
      await page.locator('.second-step-enrol button[type=submit]').click();
      await page.locator('.second-step-recovery .recovery-code').first().waitFor();
      expect(await page.locator('.second-step-recovery .recovery-code').count()).toBe(10);
      await shot(page, 'second-factor-enrol-recovery-codes', lang);
      await page.locator('.second-step-continue').click();
      await page.waitForURL(/\/manage$/);
      expect(errors).toEqual([]);
    } finally {
      await api('/api/manage/second_factor/update_policy', { operators_required: false }, root);
    }
  });
});
