/**
 * The business over time in the browser: the operator dashboard draws its charts (zh and en
 * screenshots), and a customer whose block expires soon sees the banner and renews it.
 */
import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, apiCustomer, customerSignIn, launch, openPage, operatorSignIn, shot, type Lang } from './browser';

const GiB = 1024 ** 3;
const DAY = 86_400_000;

let browser: Browser;
let operatorToken: string;
beforeAll(async () => {
  browser = await launch();
  const { username, password } = inject('operator');
  operatorToken = (await api('POST', '/api/manage/login/login', { username, password })).data.token;
});
afterAll(async () => {
  await browser?.close();
});

/** A customer who paid a storage order by points today, so the dashboard has figures to draw. */
async function customerWithOrder(size: number) {
  const customer = await apiCustomer();
  const product = await api('POST', '/api/manage/product/create', { kind: 'storage', name_zh: `存储 ${size / GiB} GB`, name_en: `Storage ${size / GiB} GB`, price: 990, storage_size: size, period_months: 12 }, operatorToken);
  expect(product.code).toBe(0);
  expect((await api('POST', '/api/manage/user/add_points', { user_id: customer.id, points: 5000, note: 'e2e', key: crypto.randomUUID() }, operatorToken)).code).toBe(0);
  const order = await api('POST', '/api/admin/order/create', { product_id: product.data.id, pay_with: 'points' }, customer.token);
  expect(order.data.status).toBe('fulfilled');
  return { customer, product: product.data };
}

describe('operator dashboard', () => {
  for (const lang of ['zh', 'en'] as Lang[]) {
    it(`draws revenue, customers, orders, points, capacity and mail charts, switchable to 12 months (${lang})`, async () => {
      await customerWithOrder(2 * GiB);
      const { page, errors } = await openPage(browser, lang);
      await operatorSignIn(page);
      await page.locator('.business-charts .chart-orders svg').first().waitFor();
      await page.locator('.top-products tbody tr').first().waitFor();
      expect(await page.locator('.business-charts svg').count()).toBeGreaterThanOrEqual(5);
      await expect(page.locator('.top-products').textContent()).resolves.toContain(lang === 'zh' ? '存储 2 GB' : 'Storage 2 GB');
      await shot(page, 'operator-dashboard-charts', lang);
      await page.locator('.period-switch button').nth(1).click();
      await page.locator('.chart-customers svg').first().waitFor();
      await shot(page, 'operator-dashboard-12-months', lang);
      expect(errors).toEqual([]);
    });
  }
});

describe('renewal', () => {
  it('a customer whose block expires in five days sees the banner on the dashboard and renews the same block with points', async () => {
    const { customer } = await customerWithOrder(3 * GiB);
    const blocks = await api('POST', '/api/admin/storage/list', {}, customer.token);
    const block = blocks.data.list[0];
    // The provider moves the block's expiry to five days from now (operators end and extend blocks by hand).
    const soon = new Date(Date.now() + 5 * DAY).toISOString();
    await api('POST', '/api/manage/storage/update', { id: block.id, expires_at: soon }, operatorToken);

    const { page, errors } = await openPage(browser, 'zh');
    await customerSignIn(page, customer.email, customer.password);
    await page.locator('.expiry-banner').waitFor();
    await expect(page.locator('.expiry-banner').textContent()).resolves.toContain('3 GiB');
    await page.locator('.storage-blocks').waitFor();
    await shot(page, 'customer-dashboard-expiring', 'zh');
    await page.locator('.expiry-banner .renew-button').click();
    await page.locator('.renew-dialog .renew-option').waitFor();
    await shot(page, 'customer-renew-dialog', 'zh');
    await page.locator('.renew-dialog .renew-points').click();
    // Points are spent only once the customer says yes to what they buy.
    await expect(page.locator('.dialog-confirm').textContent()).resolves.toContain('积分');
    await page.locator('.dialog-confirm').getByRole('button', { name: '确定' }).click();
    await page.locator('.renew-dialog').waitFor({ state: 'detached' });
    await page.locator('.expiry-banner').waitFor({ state: 'detached' });

    const after = await api('POST', '/api/admin/storage/list', {}, customer.token);
    expect(after.data.total).toBe(1);
    expect(after.data.list[0].id).toBe(block.id);
    expect(Date.parse(after.data.list[0].expires_at)).toBeGreaterThan(Date.parse(soon) + 300 * DAY);
    await shot(page, 'customer-dashboard-renewed', 'zh');
    expect(errors).toEqual([]);
  });
});
