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

  it('a customer enrols an authenticator app by reading the secret from the page, keeps the recovery codes, signs in with a code, and turns it off with the password asked again (a wrong one refused in the dialog)', async () => {
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

    // Turning it off asks for the password again: a wrong one is refused in the dialog (issue 33, 3.5).
    await page.goto('/admin/security');
    await page.locator('.totp-turn-off').click();
    const off = page.locator('.totp-turn-off-dialog');
    await off.locator('input[name=confirmation]').fill('not-my-password');
    await off.locator('button[type=submit]').click();
    await off.getByText(lang === 'zh' ? '这既不是您的密码' : 'This is neither your password').waitFor();
    await shot(page, 'second-factor-turn-off-refused', lang);
    await off.locator('input[name=confirmation]').fill(person.password);
    await off.locator('button[type=submit]').click();
    await page.locator('.totp-set-up').waitFor();
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

describe("the customer's policy for its mailbox owners", () => {
  it('the customer turns it on with its switch; a mailbox owner is led through enrolment at sign-in and enrols a passkey there; that last passkey cannot be removed, and the page says why', async () => {
    const person = await customer();
    const signedIn = (await api('/api/admin/login/login', { email: person.email, password: person.password })).data as { token: string; id: number };
    const root = (await api('/api/manage/login/login', { username: 'root', password: 'root-password-1' })).data.token as string;
    expect((await api('/api/manage/storage/create', { owner_id: signedIn.id, size: 1024 ** 3 }, root)).code).toBe(0);
    const domain = (await api('/api/admin/domain/create', { name: `policy-${Date.now().toString(36)}.example` }, signedIn.token)).data;
    expect((await api('/api/manage/domain/update', { id: domain.id, status: 'active' }, root)).code).toBe(0);
    const box = (await api('/api/admin/email/create', { domain_id: domain.id, local_part: 'owner', password: 'mailbox-pass-1', quota: 256 * 1024 ** 2 }, signedIn.token)).data;

    // The customer's switch, on the security page.
    const { page, errors } = await openPage(browser, 'zh', base);
    await passwordSignIn(page, person.email, person.password);
    await page.waitForURL(/\/admin$/);
    await page.goto('/admin/security');
    const toggle = page.locator('.team-policy-card input[name=mailbox_second_factor_required]');
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.reload();
    await page.locator('.team-policy-card').waitFor();
    expect(await page.locator('.team-policy-card input[name=mailbox_second_factor_required]').isChecked()).toBe(true);
    await shot(page, 'second-factor-mailbox-policy', 'zh');

    // The mailbox owner: enrolment at sign-in, with a passkey.
    const owner = await openPage(browser, 'zh', base);
    const { cdp, authenticatorId } = await virtualAuthenticator(owner.page);
    await owner.page.goto('/mail/login');
    await owner.page.locator('input[name=email]').fill(box.address);
    await owner.page.locator('input[name=password]').fill('mailbox-pass-1');
    await owner.page.locator('button[type=submit]').click();
    await owner.page.locator('.second-step-enrol .second-step-enrol-passkey').click();
    await owner.page.waitForURL(/\/mail$/);
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);

    // Its only passkey stays: the refusal is shown where they acted.
    await owner.page.goto('/mail/security');
    await owner.page.locator('.passkey-row .passkey-remove').click();
    await owner.page.locator('.dialog-confirm').getByRole('button', { name: '确定' }).click();
    await owner.page.getByText('此处要求您使用第二重验证：请先添加另一种方式（通行密钥或身份验证器应用），再移除最后一种。').waitFor();
    await shot(owner.page, 'second-factor-last-passkey-kept', 'zh');
    expect(await owner.page.locator('.passkey-row').count()).toBe(1);
    expect(errors).toEqual([]);
    expect(owner.errors).toEqual([]);
  });
});
