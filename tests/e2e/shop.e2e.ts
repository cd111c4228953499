/**
 * The shop in the browser: the operator makes a storage product and a promotion and gives a
 * customer points; the customer buys storage with points at the promoted price, then by card
 * on the (local stand-in) Stripe checkout page, sees the capacity grow and makes a bigger
 * mailbox; the operator refunds an order. Screenshots of the shop screens in zh and en.
 */
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { api, apiCustomer, customerSignIn, landedAt, launch, openPage, operatorSignIn, shot, suiteApp, type Lang } from './browser';

let browser: Browser;
let customer: Awaited<ReturnType<typeof apiCustomer>>;
const tag = crypto.randomBytes(3).toString('hex');
const productZh = `存储 512M ${tag}`;
const productEn = `Storage 512M ${tag}`;
const domainName = `buy-${tag}.example`;
const orders: number[] = [];

beforeAll(async () => {
  browser = await launch();
  customer = await apiCustomer();
});
afterAll(async () => {
  await browser?.close();
});

async function choose(page: Page, source: string, text: string) {
  await page.locator(`.ra-input-${source} input`).first().fill(text);
  await page.getByRole('option', { name: text }).first().click();
}

async function signedInCustomer(lang: Lang = 'zh') {
  const opened = await openPage(browser, lang);
  await customerSignIn(opened.page, customer.email, customer.password);
  await landedAt(opened.page, /\/admin$/);
  return opened;
}

const localInput = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

async function rootToken() {
  const { username, password } = inject('operator');
  return (await api('POST', '/api/manage/login/login', { username, password })).data.token as string;
}

describe('shop', () => {
  it('the operator makes a 512 MiB storage product and a 50 % promotion on it, and gives the customer points', { timeout: 180_000 }, async () => {
    const { page, errors } = await openPage(browser);
    await operatorSignIn(page);
    await page.goto('/manage/product/create');
    await page.locator('input[name=name_zh]').waitFor({ timeout: 60_000 });
    await page.locator('.ra-input-kind [role=combobox]').click();
    await page.getByRole('option', { name: '存储空间' }).click();
    await page.locator('input[name=name_zh]').fill(productZh);
    await page.locator('input[name=name_en]').fill(productEn);
    // In yuan, with the price customers will see beside it.
    await page.locator('input[name=price]').fill('20');
    await expect(page.locator('.price-preview').textContent()).resolves.toContain('¥20.00');
    await page.locator('input[name=storage_size]').fill('512');
    await page.locator('input[name=period_months]').fill('12');
    // A new product is off sale until it is put on sale on purpose (asked, with its price).
    await page.locator('.ra-input-visible input[type=checkbox]').check();
    await expect(page.locator('.dialog-confirm').textContent()).resolves.toContain('¥20.00');
    await page.locator('.dialog-confirm').getByRole('button', { name: '确定' }).click();
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/manage\/product$/);
    await expect(page.locator('tr', { hasText: productZh }).textContent()).resolves.toContain('512 MiB');
    await shot(page, 'shop-manage-products');

    await page.goto('/manage/activity/create');
    await page.locator('input[name=name_zh]').fill(`五折 ${tag}`);
    await page.locator('input[name=name_en]').fill(`Half price ${tag}`);
    await page.locator('.ra-input-kind [role=combobox]').click();
    await page.getByRole('option', { name: '折扣' }).click();
    await page.locator('input[name=value]').fill('50');
    await choose(page, 'product_ids', productZh);
    await page.locator('input[name=starts_at]').fill(localInput(new Date(Date.now() - 3600_000)));
    await page.locator('input[name=ends_at]').fill(localInput(new Date(Date.now() + 7 * 24 * 3600_000)));
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/manage\/activity$/);
    await expect(page.locator('tr', { hasText: `五折 ${tag}` }).textContent()).resolves.toContain(productZh);
    await shot(page, 'shop-manage-activities');

    await page.goto(`/manage/user/update?id=${customer.id}`);
    await page.locator('button.add-points').click();
    await page.locator('.add-points-dialog input[name=points]').fill('3000');
    await page.locator('.add-points-dialog input[name=note]').fill('开业礼包');
    await page.locator('.add-points-dialog button[type=submit]').click();
    await page.getByText('当前余额 3000 积分').waitFor();
    expect(errors).toEqual([]);
  });

  it('the customer buys storage with points at the promoted price', async () => {
    const { page, errors } = await signedInCustomer();
    await page.goto('/admin/storage/buy');
    const card = page.locator('.product', { hasText: productZh });
    await expect(card.locator('.price').textContent()).resolves.toBe('¥10.00');
    await expect(card.locator('.list-price').textContent()).resolves.toBe('¥20.00');
    await expect(page.locator('.points-balance').textContent()).resolves.toContain('3000');
    await shot(page, 'shop-buy');
    await card.locator('.buy-points').click();
    // Asked first: 1000 points (¥10.00) for the storage, and the balance after.
    await expect(page.locator('.dialog-confirm').textContent()).resolves.toContain('支付 1000 积分（¥10.00）');
    await expect(page.locator('.dialog-confirm').textContent()).resolves.toContain('从 3000 积分变为 2000 积分');
    await page.locator('.dialog-confirm').getByRole('button', { name: '确定' }).click();
    await page.waitForURL(/\/admin\/order\/view\?id=\d+$/);
    orders.push(Number(new URL(page.url()).searchParams.get('id')));
    await page.locator('.view-order .status-fulfilled').first().waitFor();
    await page.locator('.order-history .history-fulfilled').waitFor();
    // The order is named by its number; its database id is nowhere on the page.
    const { number } = (await api('GET', `/api/admin/order/get?id=${orders[0]}`, undefined, customer.token)).data;
    await expect(page.locator('.view-order').textContent()).resolves.toContain(number);
    await expect(page.locator('.view-order .ra-field-id').count()).resolves.toBe(0);
    await shot(page, 'shop-order-view');
    expect(errors).toEqual([]);
  });

  it('the customer buys the same storage by card on the checkout page; the capacity grows to 1 GiB', { timeout: 180_000 }, async () => {
    const { page, errors } = await signedInCustomer();
    await page.goto('/admin/storage/buy');
    await page.locator('.product', { hasText: productZh }).locator('.buy-card').click();
    await page.waitForURL((url) => url.href.startsWith(suiteApp().stripeUrl));
    await expect(page.locator('[data-amount]').textContent()).resolves.toBe('CN¥10.00');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/admin\/order\/view\?id=\d+&paid=1$/);
    orders.push(Number(new URL(page.url()).searchParams.get('id')));
    // The page refreshes itself until the queued fulfilment has run.
    await page.locator('.view-order .status-fulfilled').first().waitFor({ timeout: 60_000 });
    await page.goto('/admin/storage');
    await expect(page.locator('.capacity-figures').textContent()).resolves.toContain('1 GiB');
    await page.goto('/admin/order');
    await page.locator('.list-order tr', { hasText: '银行卡' }).first().waitFor();
    const byCard = (await api('GET', `/api/admin/order/get?id=${orders[1]}`, undefined, customer.token)).data;
    await expect(page.locator('.list-order tr', { hasText: '银行卡' }).first().locator('td').first().textContent()).resolves.toBe(byCard.number);
    await expect(page.locator('.list-order th.column-id').count()).resolves.toBe(0);
    await shot(page, 'shop-orders');
    expect(errors).toEqual([]);
  });

  it('the customer makes a 768 MiB mailbox, bigger than one block, and sees the ledger on the dashboard', { timeout: 180_000 }, async () => {
    const domain = await api('POST', '/api/admin/domain/create', { name: domainName }, customer.token);
    expect(domain.code).toBe(0);
    expect((await api('POST', '/api/manage/domain/update', { id: domain.data.id, status: 'active' }, await rootToken())).code).toBe(0);
    const { page, errors } = await signedInCustomer();
    await page.goto('/admin/email/create');
    await page.locator('input[name=local_part]').waitFor({ timeout: 60_000 });
    await choose(page, 'domain_id', domainName);
    await page.locator('input[name=local_part]').fill('big');
    await page.locator('input[name=password]').fill('mailbox-pass-1');
    await page.locator('input[name=quota]').fill('768');
    await page.getByRole('button', { name: '保存' }).click();
    // A new mailbox opens on its page (with the mail-program settings); the list shows its quota.
    await page.waitForURL(/\/admin\/email\/update\?id=\d+$/);
    await page.goto('/admin/email');
    const row = page.locator('tr', { hasText: `big@${domainName}` });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('768 MiB');
    await page.goto('/admin');
    await page.locator('.points-card').getByText('订单支付').first().waitFor();
    // The ledger and the recent orders name orders by number, linking to them.
    const first = (await api('GET', `/api/admin/order/get?id=${orders[0]}`, undefined, customer.token)).data;
    await expect(page.locator('.points-card .order-number').first().textContent()).resolves.toBe(first.number);
    await page.locator('.recent-orders .order-number', { hasText: first.number }).waitFor();
    await page.goto('/admin/points');
    await page.locator('.list-points .order-number', { hasText: first.number }).click();
    await page.waitForURL(new RegExp(`/admin/order/view\\?id=${orders[0]}$`));
    await page.goto('/admin');
    await shot(page, 'shop-dashboard');
    expect(errors).toEqual([]);
  });

  it('the operator cannot refund capacity the mailbox uses, buys back a third block\'s worth, and refunds that order', { timeout: 180_000 }, async () => {
    const { page, errors } = await openPage(browser);
    await operatorSignIn(page);
    await page.goto(`/manage/order/view?id=${orders[0]}`);
    await page.locator('button.refund-order').click();
    await page.locator('.refund-dialog button[type=submit]').click();
    await page.getByText('请先把邮箱配额降低').waitFor();
    await shot(page, 'shop-refund-refused');
    // A third block bought with points; its refund leaves 1 GiB for the 768 MiB mailbox.
    const third = await api('POST', '/api/admin/order/create', { product_id: (await api('POST', '/api/admin/product/list', {}, customer.token)).data.list.find((p: { name_zh: string }) => p.name_zh === productZh).id, pay_with: 'points' }, customer.token);
    expect(third.data.status).toBe('fulfilled');
    await page.goto(`/manage/order/view?id=${third.data.id}`);
    await page.locator('button.refund-order').click();
    await page.locator('.refund-dialog input[name=reason]').fill('买多了');
    await page.locator('.refund-dialog button[type=submit]').click();
    await page.locator('.view-order .status-refunded').first().waitFor();
    await page.locator('.order-history .history-refunded').waitFor();
    await shot(page, 'shop-manage-order-refunded');
    await page.goto('/manage/order');
    await shot(page, 'shop-manage-orders');
    expect(errors).toEqual([]);
  });

  it('the shop screens read in English too', { timeout: 240_000 }, async () => {
    const { page, errors } = await signedInCustomer('en');
    await page.goto('/admin/storage/buy');
    const card = page.locator('.product', { hasText: productEn });
    await expect(card.locator('.price').textContent()).resolves.toBe('CN¥10.00');
    await shot(page, 'shop-buy', 'en');
    await page.goto(`/admin/order/view?id=${orders[1]}`);
    await page.locator('.order-history .history-fulfilled').waitFor();
    await shot(page, 'shop-order-view', 'en');
    await page.goto('/admin');
    await page.locator('.points-card').waitFor();
    await shot(page, 'shop-dashboard', 'en');
    const operator = await openPage(browser, 'en');
    await operatorSignIn(operator.page);
    await operator.page.goto('/manage/activity');
    await operator.page.locator('tr', { hasText: `Half price ${tag}` }).waitFor();
    await shot(operator.page, 'shop-manage-activities', 'en');
    await operator.page.goto('/manage/order');
    await shot(operator.page, 'shop-manage-orders', 'en');
    await operator.page.goto('/');
    await operator.page.locator('.products .product', { hasText: productEn }).waitFor();
    await shot(operator.page, 'shop-index', 'en');
    expect([...errors, ...operator.errors]).toEqual([]);
  });
});
