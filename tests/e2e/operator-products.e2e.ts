/**
 * What a newcomer operator hit (issue 33, part 2: 1–4, 13): products edited as their kind needs,
 * the price typed in yuan with how customers see it, a new product off sale until put on sale on
 * purpose, on/off sale and delete from the list (offering "off sale" while orders refer to it);
 * the server's refusals shown at the field on the spam defaults and the PostfixAdmin source (whose
 * connection string can be shown); the reports page's domains linking to their pages; revoke
 * dialogs titled "Revoke …"; the allow/block select labelled. In both languages where it speaks.
 * Screenshots in test-results/e2e/ (operator-products-*).
 */
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { attachedMessage, dmarcXml } from '../helpers/report-fixtures';
import { api, apiCustomer, baseUrl, launch, openPage, operatorSignIn, shot, type Lang } from './browser';
import { MAIL_SERVER_TOKEN } from './server';

let browser: Browser;
let root: string;
const tag = crypto.randomBytes(3).toString('hex');
beforeAll(async () => {
  browser = await launch();
  root = (await api('POST', '/api/manage/login/login', inject('operator'))).data.token as string;
});
afterAll(async () => {
  await browser?.close();
});

const words = {
  zh: { save: '保存', ok: '确定', storage: '存储空间', junkBelow: '垃圾邮件分数必须低于拒收分数。', unreachable: '无法连接 PostfixAdmin 数据库服务器：请检查主机、端口和 sslmode。', revoke: '撤销', allowOrBlock: '允许或拦截', cannotDelete: '不能删除', offSaleInstead: '改为下架吗' },
  en: { save: 'Save', ok: 'OK', storage: 'Storage', junkBelow: 'The junk score must be below the reject score.', unreachable: 'The PostfixAdmin database server could not be reached: check its host, port and sslmode.', revoke: 'Revoke', allowOrBlock: 'Allow or block', cannotDelete: 'cannot be deleted', offSaleInstead: 'Take it off sale instead?' },
};

async function signedIn(lang: Lang) {
  const opened = await openPage(browser, lang);
  await operatorSignIn(opened.page);
  return opened;
}

const productOf = async (id: number) => (await api('GET', `/api/manage/product/get?id=${id}`, undefined, root)).data;
const productNamed = async (nameEn: string) => (await api('POST', '/api/manage/product/list', { q: nameEn, page_size: 10 }, root)).data.list.find((p: { name_en: string }) => p.name_en === nameEn);
const confirmDialog = (page: Page) => page.locator('.dialog-confirm');

describe('products as operators make and edit them', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`a storage product (${lang}): only its own fields, the price in yuan with the customers' view, off sale when made; renamed and repriced afterwards`, async () => {
      const w = words[lang];
      const { page, errors } = await signedIn(lang);
      await page.goto('/manage/product/create');
      await page.locator('.ra-input-kind [role=combobox]').click();
      await page.getByRole('option', { name: w.storage, exact: true }).click();
      // A top-up's field is not asked of a storage product.
      await page.locator('input[name=storage_size]').waitFor();
      expect(await page.locator('input[name=points_granted]').count()).toBe(0);
      const nameEn = `Storage 2 GiB ${lang} ${tag}`;
      await page.locator('input[name=name_zh]').fill(`存储 2 GiB ${lang} ${tag}`);
      await page.locator('input[name=name_en]').fill(nameEn);
      // The price in yuan: the unit is shown, and how customers will read it.
      await expect(page.locator('.price-input').textContent()).resolves.toContain(lang === 'en' ? 'CN¥' : '¥');
      await page.locator('input[name=price]').fill('99');
      await expect(page.locator('.price-preview').textContent()).resolves.toContain('¥99.00');
      await expect(page.locator('.price-preview').textContent()).resolves.toContain('CN¥99.00');
      await page.locator('input[name=storage_size]').fill('2048');
      // Off sale until put on sale on purpose.
      expect(await page.locator('.ra-input-visible input[type=checkbox]').isChecked()).toBe(false);
      await shot(page, 'operator-products-create', lang);
      await page.getByRole('button', { name: w.save }).click();
      await page.waitForURL(/\/manage\/product$/);
      const made = await productNamed(nameEn);
      expect(made).toMatchObject({ kind: 'storage', price: 9900, storage_size: 2 * 1024 ** 3, visible: 0, points_granted: null });

      // Edited: renamed and repriced (129.50 yuan), with no points asked of it.
      await page.goto(`/manage/product/update?id=${made.id}`);
      await page.locator('input[name=name_en]').waitFor();
      await expect.poll(() => page.locator('input[name=price]').inputValue()).toBe('99.00');
      expect(await page.locator('input[name=points_granted]').count()).toBe(0);
      await page.locator('input[name=name_en]').fill(`${nameEn} plus`);
      await page.locator('input[name=price]').fill('129.5');
      await expect(page.locator('.price-preview').textContent()).resolves.toContain('CN¥129.50');
      await page.getByRole('button', { name: w.save }).click();
      await page.waitForURL(/\/manage\/product$/);
      expect(await productOf(made.id)).toMatchObject({ name_en: `${nameEn} plus`, price: 12950 });
      // A slip the form refuses: three decimals.
      await page.goto(`/manage/product/update?id=${made.id}`);
      await page.locator('input[name=price]').fill('1.999');
      await page.getByRole('button', { name: w.save }).click();
      await page.locator('.ra-input-price.Mui-error, .price-input .Mui-error').first().waitFor();
      expect((await productOf(made.id)).price).toBe(12950);
      expect(errors).toEqual([]);
    });
  }

  it('a points top-up is edited without a size or period, and a storage period is emptied to "never expires"', async () => {
    const points = (await api('POST', '/api/manage/product/create', { kind: 'points', name_zh: `积分 ${tag}`, name_en: `Points ${tag}`, price: 1000, points_granted: 1000 }, root)).data;
    const storage = (await api('POST', '/api/manage/product/create', { kind: 'storage', name_zh: `存储 ${tag}`, name_en: `Storage ${tag}`, price: 1000, storage_size: 1024 ** 3, period_months: 12 }, root)).data;
    const { page, errors } = await signedIn('en');
    await page.goto(`/manage/product/update?id=${points.id}`);
    await page.locator('input[name=points_granted]').waitFor();
    expect(await page.locator('input[name=storage_size], input[name=period_months]').count()).toBe(0);
    await page.locator('input[name=price]').fill('12');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/manage\/product$/);
    expect(await productOf(points.id)).toMatchObject({ price: 1200, points_granted: 1000, storage_size: null });

    await page.goto(`/manage/product/update?id=${storage.id}`);
    await page.locator('input[name=period_months]').fill('');
    expect(await page.locator('input[name=points_granted]').count()).toBe(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/manage\/product$/);
    expect(await productOf(storage.id)).toMatchObject({ period_months: null, points_granted: null });
    expect(errors).toEqual([]);
  });

  it('put on sale from the list (asked, with the price) and taken off again', async () => {
    const made = (await api('POST', '/api/manage/product/create', { kind: 'storage', name_zh: `上架 ${tag}`, name_en: `On sale ${tag}`, price: 2550, storage_size: 1024 ** 3, visible: 0 }, root)).data;
    const { page, errors } = await signedIn('zh');
    await page.goto('/manage/product');
    const row = page.locator('.list-product tr', { hasText: `上架 ${tag}` });
    await row.locator('.put-on-sale').click();
    await expect(confirmDialog(page).textContent()).resolves.toContain('¥25.50');
    await shot(page, 'operator-products-put-on-sale', 'zh');
    await confirmDialog(page).getByRole('button', { name: '确定' }).click();
    await expect.poll(async () => (await productOf(made.id)).visible).toBe(1);
    await row.locator('.take-off-sale').click();
    await expect.poll(async () => (await productOf(made.id)).visible).toBe(0);
    expect(errors).toEqual([]);
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`deleting (${lang}): a product with an order is offered "off sale" instead; one without is deleted`, async () => {
      const w = words[lang];
      const ordered = (await api('POST', '/api/manage/product/create', { kind: 'storage', name_zh: `有订单 ${lang} ${tag}`, name_en: `Ordered ${lang} ${tag}`, price: 100, storage_size: 1024 ** 3 }, root)).data;
      const unused = (await api('POST', '/api/manage/product/create', { kind: 'storage', name_zh: `无订单 ${lang} ${tag}`, name_en: `Unused ${lang} ${tag}`, price: 100, storage_size: 1024 ** 3 }, root)).data;
      const customer = await apiCustomer();
      await api('POST', '/api/manage/user/add_points', { user_id: customer.id, points: 100, note: 'e2e', key: crypto.randomUUID() }, root);
      expect((await api('POST', '/api/admin/order/create', { product_id: ordered.id, pay_with: 'points' }, customer.token)).code).toBe(0);

      const { page, errors } = await signedIn(lang);
      await page.goto('/manage/product');
      const name = (p: { name_zh: string; name_en: string }) => (lang === 'en' ? p.name_en : p.name_zh);
      await page.locator('.list-product tr', { hasText: name(ordered) }).locator('.delete-product').click();
      const dialog = confirmDialog(page);
      await expect(dialog.textContent()).resolves.toContain(w.cannotDelete);
      await expect(dialog.textContent()).resolves.toContain(w.offSaleInstead);
      await shot(page, 'operator-products-delete-refused', lang);
      await dialog.getByRole('button', { name: w.ok }).click();
      await expect.poll(async () => (await productOf(ordered.id)).visible).toBe(0);
      expect((await productOf(ordered.id)).id).toBe(ordered.id);

      await page.locator('.list-product tr', { hasText: name(unused) }).locator('.delete-product').click();
      await confirmDialog(page).getByRole('button', { name: w.ok }).click();
      await expect.poll(async () => (await api('GET', `/api/manage/product/get?id=${unused.id}`, undefined, root)).code).toBe(40400);
      expect(errors).toEqual([]);
    });
  }
});

describe('the server’s refusals at the field', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`spam defaults (${lang}): a junk score at or above the reject score is refused under the junk score`, async () => {
      const w = words[lang];
      const { page, errors } = await signedIn(lang);
      await page.goto('/manage/spam_held');
      const junk = page.locator('.spam-default-junk_score');
      await junk.locator('input').fill('30');
      await page.locator('.spam-default-reject_score input').fill('20');
      await page.locator('.spam-defaults button').last().click();
      await expect(junk.locator('.MuiFormHelperText-root').textContent()).resolves.toBe(w.junkBelow);
      await shot(page, 'operator-products-spam-defaults-refused', lang);
      const defaults = (await api('GET', '/api/manage/spam/defaults', undefined, root)).data;
      expect(defaults.junk_score).toBeLessThan(defaults.reject_score);
      expect(errors).toEqual([]);
    });

    it(`PostfixAdmin source (${lang}): a database server that cannot be reached says so at the field; the connection string can be shown`, async () => {
      const w = words[lang];
      const { page, errors } = await signedIn(lang);
      await page.goto('/manage/import_postfixadmin');
      const source = page.locator('.import-source-url');
      await source.fill('mysql://reader:wrong-password@127.0.0.1:1/postfixadmin');
      expect(await source.getAttribute('type')).toBe('password');
      await page.locator('.import-source-show').click();
      expect(await source.getAttribute('type')).toBe('text');
      await page.locator('.import-read').click();
      await expect(page.locator('.import-source-error').textContent()).resolves.toBe(w.unreachable);
      expect(await page.locator('.import-source-error').textContent()).not.toContain('wrong-password');
      await shot(page, 'operator-products-postfixadmin-refused', lang);
      expect(errors).toEqual([]);
    });
  }
});

describe('links, titles and labels', () => {
  it('the reports page links a domain to its page in the operators’ area', async () => {
    const customer = await apiCustomer();
    const name = `linked-${tag}.example`;
    const domain = (await api('POST', '/api/admin/domain/create', { name }, customer.token)).data;
    await api('POST', '/api/manage/domain/update', { id: domain.id, status: 'active' }, root);
    // An address no other file names: the app keeps a reverse name it could not find for a week, and
    // reports.e2e.ts expects the one its DNS zone gives for 209.85.220.41.
    const xml = dmarcXml({ org: 'google.com', reportId: `${name}-1`, domain: name, begin: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10), records: [{ ip: '192.0.2.201', count: 10, dkim: 'pass', spf: 'pass' }] });
    const message = attachedMessage('reports@mx.maildesk.test', `Report Domain: ${name}`, { filename: 'report.xml', contentType: 'text/xml', data: Buffer.from(xml) });
    const handed = await fetch(`${baseUrl()}/api/mail-server/reports`, { method: 'POST', headers: { authorization: `Bearer ${MAIL_SERVER_TOKEN}`, 'content-type': 'message/rfc822' }, body: message });
    expect(((await handed.json()) as { data: { stored: unknown[] } }).data.stored).toHaveLength(1);
    const { page, errors } = await signedIn('en');
    await page.goto('/manage/reports');
    await page.locator('.reports-domain-row', { hasText: name }).locator('a').click();
    await page.waitForURL(new RegExp(`/manage/domain/update\\?id=${domain.id}$`));
    await page.locator('.form-domain').waitFor();
    expect(await page.locator('.record-not-found').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('revoking an API key asks in a dialog titled "Revoke “…”", and the allow/block select has its label, in both languages', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const w = words[lang];
      const { page, errors } = await signedIn(lang);
      const token = (await api('POST', '/api/manage/login/login', inject('operator'))).data.token as string;
      const keyName = `Backup ${lang} ${tag}`;
      let made = await api('POST', '/api/manage/api_key/create', { name: keyName, access: 'read', confirmation: inject('operator').password }, token);
      if (made.code !== 0) made = await api('POST', '/api/manage/api_key/create', { name: keyName, access: 'read' }, token);
      expect(made.code).toBe(0);
      await page.goto('/manage/api-keys');
      await page.locator('.api-key-row', { hasText: keyName }).locator('.api-key-revoke').click();
      await expect(confirmDialog(page).locator('.MuiDialogTitle-root').textContent()).resolves.toBe(`${w.revoke} “${keyName}”`);
      await shot(page, 'operator-products-revoke-dialog', lang);
      await confirmDialog(page).getByRole('button', { name: w.ok }).click();
      await page.locator('.api-key-row', { hasText: keyName }).waitFor({ state: 'detached' });

      const customer = await apiCustomer();
      const domain = (await api('POST', '/api/admin/domain/create', { name: `lists-${lang}-${tag}.example` }, customer.token)).data;
      await page.goto(`/manage/domain/update?id=${domain.id}`);
      await page.getByLabel(w.allowOrBlock).first().waitFor();
      expect(errors).toEqual([]);
    }
  });
});
