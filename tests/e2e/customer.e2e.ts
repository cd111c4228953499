import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor, customerSignIn, landedAt, launch, openPage, shot, uniqueEmail } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('customer', () => {
  it('registers, verifies with the e-mailed code, signs in, edits the profile and signs out', async () => {
    const { page, errors } = await openPage(browser);
    const email = uniqueEmail('reg');
    const password = 'first-pass-123';

    await page.goto('/register');
    await shot(page, 'register');
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill(password);
    await page.locator('input[name=confirm]').fill(password);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/verify\?email=/);
    await expect(page.locator('input[name=email]').inputValue()).resolves.toBe(email);

    // A wrong code: the WARNING alert with the server's message, translated.
    await page.locator('input[name=code]').fill('000000');
    await page.locator('button[type=submit]').click();
    const alert = page.locator('.alert-warning');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain('验证码错误、已使用或已过期');
    await shot(page, 'verify-wrong-code');
    await alert.getByRole('button', { name: '确定' }).click();
    await alert.waitFor({ state: 'detached' });

    await page.locator('input[name=code]').fill(await codeFor(email));
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/admin$/);
    await page.locator('.customer-dashboard').getByText(email).waitFor();
    expect(JSON.parse((await page.evaluate(() => window.localStorage.getItem('user')))!)).toMatchObject({ email, is_verified: 1 });

    // Sign out, then in again with the password.
    await page.getByRole('button', { name: '个人资料' }).click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL(/\/login$/);
    expect(JSON.parse((await page.evaluate(() => window.localStorage.getItem('user')))!)).toEqual({ id: 0, email: '', is_verified: 0, token: '' });
    await customerSignIn(page, email, password);
    await landedAt(page, /\/admin$/);

    // Profile: a new display name, and a new password.
    await page.getByRole('menuitem', { name: '个人资料' }).click();
    await page.waitForURL(/\/admin\/profile$/);
    const username = page.locator('.profile-username input[name=username]');
    await username.fill('Ada Lovelace');
    await page.locator('.profile-username button[type=submit]').click();
    await page.getByText('已保存').waitFor();
    await page.reload();
    await expect(page.locator('.profile-username input[name=username]').inputValue()).resolves.toBe('Ada Lovelace');

    await page.locator('.profile-password input[name=old_password]').fill('not-my-password');
    await page.locator('.profile-password input[name=password]').fill('second-pass-123');
    await page.locator('.profile-password input[name=confirm]').fill('second-pass-123');
    await page.locator('.profile-password button[type=submit]').click();
    // The server's field error appears beside the field.
    await page.locator('.profile-password').getByText('当前密码不正确').waitFor();
    await shot(page, 'customer-profile-field-error');
    await page.locator('.profile-password input[name=old_password]').fill(password);
    await page.locator('.profile-password button[type=submit]').click();
    await page.getByText('密码已修改').waitFor();
    await shot(page, 'customer-profile');

    await page.getByRole('button', { name: '个人资料' }).click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL(/\/login$/);
    await customerSignIn(page, email, 'second-pass-123');
    await landedAt(page, /\/admin$/);
    expect(errors).toEqual([]);
  });

  it('signs in with a code e-mailed to them', async () => {
    const { page } = await openPage(browser);
    const email = uniqueEmail('code');
    await page.goto('/register');
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill('code-pass-123');
    await page.locator('input[name=confirm]').fill('code-pass-123');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/verify/);
    const before = 1;
    await page.goto('/login');
    await page.locator('.tab-by-code').click();
    await page.locator('input[name=email]').fill(email);
    await page.locator('button[type=submit]').click();
    await page.locator('input[name=code]').waitFor();
    await page.locator('input[name=code]').fill(await codeFor(email, before));
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/admin$/);
  });
});
