/**
 * Mail stores in the operators' area (issue 34): registered from System → Mail stores, with the
 * refusal of a wrong address beside the field; shown on the dashboard with their state and what
 * they hold; a store's link lists exactly its mailboxes (the store in the filter, and in each row on a wide screen).
 */
import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { api, apiCustomer, launch, openMenuEntry, openPage, operatorSignIn } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

it('When an operator registers a store with a wrong address, then the refusal is beside it; registered, the store is listed and on the dashboard, and its link lists its mailboxes', async () => {
  const { page, errors } = await openPage(browser);
  await operatorSignIn(page);
  const name = `store-${crypto.randomBytes(3).toString('hex')}`;

  await openMenuEntry(page, '系统', '邮件存储');
  await page.waitForURL(/\/manage\/mail_store$/);
  await expect.poll(() => page.locator('tr', { hasText: 'main' }).textContent()).toContain('启用');
  await page.getByRole('link', { name: '新建' }).click();
  await page.waitForURL(/\/manage\/mail_store\/create$/);
  await page.locator('input[name=name]').fill(name);
  await page.locator('input[name=address]').fill('not a host');
  await page.locator('.ra-input-state [role=combobox]').click();
  await page.getByRole('option', { name: '迁出中' }).click();
  await page.getByRole('button', { name: '保存' }).click();
  await page.getByText('请输入主机名（如 store1.example.net）或 IP 地址').waitFor();
  await page.locator('input[name=address]').fill('10.9.8.7');
  await page.getByRole('button', { name: '保存' }).click();
  await page.waitForURL(/\/manage\/mail_store$/);
  await expect.poll(() => page.locator('tr', { hasText: name }).textContent()).toMatch(/10\.9\.8\.7.*迁出中/);

  // A mailbox on main (placed there: the new store is draining), for its list.
  const { username, password } = inject('operator');
  const token = (await api('POST', '/api/manage/login/login', { username, password })).data.token;
  const customer = await apiCustomer();
  await api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 64 * 1024 ** 2 }, token);
  const domain = (await api('POST', '/api/admin/domain/create', { name: `${name}.example` }, customer.token)).data;
  await api('POST', '/api/manage/domain/update', { id: domain.id, status: 'active' }, token);
  const box = await api('POST', '/api/admin/email/create', { domain_id: domain.id, local_part: 'desk', password: 'mailbox-pass-1', quota: 1024 ** 2 }, customer.token);
  expect(box.code).toBe(0);

  // The dashboard: each store, its state and what it holds.
  await page.goto('/manage');
  const card = page.locator('.mail-stores');
  await expect.poll(() => card.locator('.mail-store-figure', { hasText: name }).textContent()).toMatch(/迁出中.*尚未统计/);
  await expect.poll(() => card.locator('.mail-store-figure', { hasText: 'main' }).textContent()).toContain('启用');

  // main's link: its mailboxes, each with its store.
  await card.getByRole('link', { name: 'main' }).click();
  await page.waitForURL(/\/manage\/email\?filter=/);
  await page.locator('tr', { hasText: `desk@${name}.example` }).waitFor();
  // At 1280 px the filter names the store; on a wide screen (≥ 1680 px) each row shows it too.
  await expect.poll(() => page.getByRole('combobox', { name: '邮件存储' }).inputValue()).toBe('main');
  await page.setViewportSize({ width: 1920, height: 1000 });
  await expect.poll(() => page.locator('thead').textContent()).toContain('邮件存储');
  await expect.poll(async () => (await page.locator('tbody tr').allTextContents()).every((row) => row.includes('main'))).toBe(true);
  expect(errors).toEqual([]);
});
