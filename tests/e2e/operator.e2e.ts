import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, openMenuEntry, openPage, operatorSignIn, shot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('operator', () => {
  it('a wrong password shows the WARNING alert', async () => {
    const { page } = await openPage(browser);
    await page.goto('/login-manage');
    await page.locator('input[name=username]').fill('root');
    await page.locator('input[name=password]').fill('wrong-password');
    await page.locator('button[type=submit]').click();
    await page.locator('.alert-warning').waitFor();
    await expect(page.locator('.alert-warning').textContent()).resolves.toContain('警告');
    await shot(page, 'operator-login-warning');
  });

  it('creates an administrator, edits it through its ?id= path and deletes it through the confirm dialog', async () => {
    const { page, errors } = await openPage(browser);
    await operatorSignIn(page);
    const username = `sam-${crypto.randomBytes(3).toString('hex')}`;

    await openMenuEntry(page, '系统', '管理员');
    await page.waitForURL(/\/manage\/admin$/);
    await page.getByRole('link', { name: '新建' }).click();
    await page.waitForURL(/\/manage\/admin\/create$/);
    await page.locator('input[name=username]').fill(username);
    await page.locator('input[name=password]').fill('short');
    await page.locator('.ra-input-role [role=combobox]').click();
    await page.getByRole('option', { name: '客服' }).click();
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('至少 8 个字符').waitFor(); // client-side rule from the declaration
    await page.locator('input[name=password]').fill('operator-pass-1');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/manage\/admin$/);
    const row = page.locator('tr', { hasText: username });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('客服');

    // Row click opens the shared form page with the id in the query string.
    await row.locator('td').nth(1).click();
    await page.waitForURL(/\/manage\/admin\/update\?id=\d+$/);
    const id = new URL(page.url()).searchParams.get('id');
    await page.goto(`/manage/admin/update?id=${id}`);
    await expect(page.locator('input[name=username]').inputValue()).resolves.toBe(username);
    await page.locator('.ra-input-role [role=combobox]').click();
    await page.getByRole('option', { name: '财务' }).click();
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/manage\/admin$/);
    await expect(page.locator('tr', { hasText: username }).textContent()).resolves.toContain('财务');

    // Delete: cancelling keeps it, confirming removes it.
    await page.goto(`/manage/admin/update?id=${id}`);
    await page.locator('input[name=username]').waitFor();
    await page.getByRole('button', { name: '删除' }).click();
    const dialog = page.locator('.dialog-confirm');
    await dialog.getByText('此操作将永久删除该记录，是否继续？').waitFor();
    await shot(page, 'operator-delete-confirm');
    await dialog.getByRole('button', { name: '取消' }).click();
    await page.getByText('已取消删除').waitFor();
    await page.getByRole('button', { name: '删除' }).click();
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('删除成功').waitFor();
    await page.waitForURL(/\/manage\/admin$/);
    await page.locator('tr', { hasText: 'root' }).waitFor();
    await expect(page.locator('tr', { hasText: username }).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });
});
