/**
 * Mailbox deletion in the browser (issue 12): the customer's delete dialog says the mail is kept
 * for a while; the operator finds the mailbox under "recently deleted" from the mailbox list, and
 * restores it from its page. Chinese throughout (no English slips in), the list also in English.
 */
import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { api, apiCustomer, customerSignIn, expectNoEnglish, landedAt, launch, openPage, operatorSignIn, shot } from './browser';

let browser: Browser;
const domainName = `gone-${crypto.randomBytes(3).toString('hex')}.example`;
const address = `info@${domainName}`;
let customer: Awaited<ReturnType<typeof apiCustomer>>;
let mailboxId = 0;

beforeAll(async () => {
  browser = await launch();
  customer = await apiCustomer();
  const operator = (await api('POST', '/api/manage/login/login', inject('operator'))).data.token as string;
  await api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 1024 ** 3 }, operator);
  const domain = await api('POST', '/api/admin/domain/create', { name: domainName }, customer.token);
  await api('POST', '/api/manage/domain/update', { id: domain.data.id, status: 'active' }, operator);
  const box = await api('POST', '/api/admin/email/create', { domain_id: domain.data.id, local_part: 'info', password: 'mailbox-pass-1', quota: 1024 ** 2 }, customer.token);
  if (box.code !== 0) throw new Error(JSON.stringify(box));
  mailboxId = box.data.id;
});
afterAll(async () => {
  await browser?.close();
});

it('the customer deletes a mailbox after being told its mail is kept for a while', async () => {
  const { page, errors } = await openPage(browser);
  await customerSignIn(page, customer.email, customer.password);
  await landedAt(page, /\/admin$/);
  await page.goto('/admin/email');
  await page.locator('tr', { hasText: address }).locator('.delete-record').click();
  const dialog = page.locator('.dialog-confirm');
  await dialog.getByText('删除该邮箱？它将立即停止收信和登录。其邮件会保留一段时间，在此期间客服可以恢复它；之后将被删除。').waitFor();
  await dialog.getByRole('button', { name: '确定' }).click();
  await page.getByText('删除成功').waitFor();
  await expect(page.locator('tr', { hasText: address }).count()).resolves.toBe(0);
  expect(errors).toEqual([]);
});

it('the operator finds it under recently deleted and restores it', async () => {
  const { page, errors } = await openPage(browser);
  await operatorSignIn(page);
  await page.goto('/manage/email');
  await page.locator('.recently-deleted').getByRole('link', { name: '最近删除的邮箱' }).click();
  await page.waitForURL(/\/manage\/deleted_email\?/);
  const row = page.locator('.list-deleted_email tr', { hasText: address });
  await expect(row.textContent()).resolves.toContain('可恢复');
  await expectNoEnglish(page, [address, customer.email, inject('operator').username]);
  await shot(page, 'deleted-mailboxes');

  await row.locator('td').nth(1).click();
  await page.waitForURL(/\/manage\/deleted_email\/view\?id=\d+$/);
  await page.locator('.view-deleted_email').getByText(address).first().waitFor();
  await expectNoEnglish(page, [address, customer.email, inject('operator').username, `/var/vmail/${domainName}/info`]);
  await page.locator('.mailbox-restore').click();
  const dialog = page.locator('.dialog-confirm');
  await dialog.getByText(`恢复 ${address}？`, { exact: false }).waitFor();
  await dialog.getByRole('button', { name: '确定' }).click();
  await page.waitForURL(new RegExp(`/manage/email/update\\?id=${mailboxId}$`));
  await page.getByText(`邮箱 ${address} 已恢复`).waitFor();

  // Restored: listed as such (the list remembers its filter: ask for restored ones), and no second restore offered.
  await page.goto(`/manage/deleted_email?filter=${encodeURIComponent(JSON.stringify({ state: 'restored' }))}`);
  const restored = page.locator('.list-deleted_email tr', { hasText: address });
  await expect(restored.textContent()).resolves.toContain('已恢复');
  await restored.locator('td').nth(1).click();
  await page.waitForURL(/\/manage\/deleted_email\/view\?id=\d+$/);
  await page.locator('.view-deleted_email').getByText(address).first().waitFor();
  expect(await page.locator('.mailbox-restore').count()).toBe(0);
  expect(errors).toEqual([]);
});

it('the deleted mailboxes list reads in English too', async () => {
  const { page, errors } = await openPage(browser, 'en');
  await operatorSignIn(page);
  await page.goto('/manage/deleted_email');
  await page.locator('.list-deleted_email tr', { hasText: address }).waitFor();
  await expect(page.locator('.list-deleted_email').textContent()).resolves.toContain('Restored');
  await page.getByRole('menuitem', { name: 'Deleted mailboxes' }).waitFor();
  await shot(page, 'deleted-mailboxes', 'en');
  expect(errors).toEqual([]);
});
