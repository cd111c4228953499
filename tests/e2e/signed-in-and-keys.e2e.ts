/**
 * Where you are signed in, and API keys (issue 22), in Chinese and in English: a customer sees
 * their sessions and ends the one of another device; a customer makes an API key, sees it once, a
 * script calls the API with it, and the key is revoked. Screenshots in test-results/e2e/
 * (signed-in-*, api-key-*).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiCustomer, baseUrl, customerSignIn, expectNoEnglish, landedAt, launch, openPage, shot, type Lang } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const words = {
  zh: { menuSignedIn: '登录设备', thisOne: '本设备', end: '结束', ok: '确定', ended: '会话已结束。', menuKeys: 'API 密钥', create: '新建 API 密钥', make: '生成密钥', write: '读写', shownOnce: '密钥只显示这一次', done: '完成', revoke: '撤销', revoked: '已撤销', notUsed: '尚未使用' },
  en: { menuSignedIn: 'Signed-in devices', thisOne: 'This device', end: 'End', ok: 'OK', ended: 'The session was ended.', menuKeys: 'API keys', create: 'New API key', make: 'Make the key', write: 'Read and write', shownOnce: 'This is the only time the key is shown', done: 'Done', revoke: 'Revoke', revoked: 'was revoked', notUsed: 'Not used yet' },
};

/** A call from a script (Node's fetch) with an API key. */
async function scriptCall(key: string) {
  const response = await fetch(`${baseUrl()}/api/admin/me/info`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
  return (await response.json()) as { code: number; data: { email: string } };
}

describe.each(['zh', 'en'] as const)('in %s', (lang: Lang) => {
  const w = words[lang];

  it('a customer sees where they are signed in and ends the session of another device', async () => {
    const customer = await apiCustomer();
    // The other device: a program signed in through the API.
    const other = (await api('POST', '/api/admin/login/login', { email: customer.email, password: customer.password })).data.token as string;
    await api('POST', '/api/admin/login/logout', {}, customer.token);
    const { page, errors } = await openPage(browser, lang);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.getByRole('menuitem', { name: w.menuSignedIn }).click();
    await page.waitForURL(/\/admin\/signed-in$/);
    const rows = page.locator('.signed-in-row');
    await expect.poll(() => rows.count()).toBe(2);
    await page.locator('.signed-in-current').getByText(w.thisOne).waitFor();
    await expect(page.locator('.signed-in-current .signed-in-device').textContent()).resolves.toMatch(/Chrome/);
    if (lang === 'zh') await expectNoEnglish(page, [customer.email]);
    await shot(page, 'signed-in', lang);

    await page.locator('.signed-in-row:not(.signed-in-current)').getByRole('button', { name: w.end }).click();
    await page.locator('.dialog-confirm').getByRole('button', { name: w.ok }).click();
    await page.getByText(w.ended).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect((await api('POST', '/api/admin/me/info', {}, other)).code).toBe(20000);
    await shot(page, 'signed-in-ended', lang);
    expect(errors).toEqual([]);
  });

  it('a customer makes an API key, sees it once, a script calls with it, then the key is revoked', async () => {
    const customer = await apiCustomer();
    const { page, errors } = await openPage(browser, lang);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.getByRole('menuitem', { name: w.menuKeys }).click();
    await page.waitForURL(/\/admin\/api-keys$/);
    await page.getByRole('button', { name: w.create }).click();
    const dialog = page.locator('.api-key-create-dialog');
    await dialog.locator('input[name=name]').fill('Backup script');
    await dialog.locator('[role=combobox]').first().click();
    await page.getByRole('option', { name: w.write }).click();
    await dialog.locator('input[name=allowed_ips]').fill('127.0.0.1, ::1');
    // A key outlives the session: the password is asked for again (issue 33, 3.5).
    await dialog.locator('input[name=confirmation]').fill(customer.password);
    await dialog.getByRole('button', { name: w.make }).click();

    const created = page.locator('.api-key-created');
    await created.getByText(w.shownOnce).waitFor();
    const key = (await created.locator('.api-key-value').textContent())!.trim();
    expect(key).toMatch(/^mdk_[\w-]{43}$/);
    await expect(created.locator('.api-key-example').textContent()).resolves.toContain(`Authorization: Bearer ${key}`);
    if (lang === 'zh') await expectNoEnglish(page, [customer.email, 'Backup script']);
    await shot(page, 'api-key-created', lang);
    await created.getByRole('button', { name: w.done }).click();

    // The script's call works, as the customer.
    await expect(scriptCall(key)).resolves.toMatchObject({ code: 0, data: { email: customer.email } });
    // Shown once: the list has its first characters, never the key.
    await page.reload();
    const row = page.locator('.api-key-row', { hasText: 'Backup script' });
    await row.waitFor();
    await expect(page.locator('.api-keys-page').textContent()).resolves.not.toContain(key);
    await expect(row.locator('.api-key-last-used').textContent()).resolves.not.toContain(w.notUsed);
    if (lang === 'zh') await expectNoEnglish(page, [customer.email, 'Backup script']);
    await shot(page, 'api-key-list', lang);

    await row.getByRole('button', { name: w.revoke }).click();
    await page.locator('.dialog-confirm').getByRole('button', { name: w.ok }).click();
    await page.getByText(w.revoked, { exact: false }).waitFor();
    await page.locator('.api-keys-empty').waitFor();
    await expect(scriptCall(key)).resolves.toMatchObject({ code: 20000 });
    await shot(page, 'api-key-revoked', lang);
    expect(errors).toEqual([]);
  });
});
