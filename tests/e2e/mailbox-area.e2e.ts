/**
 * The mailbox owners' area in the browser (issue 21), in Chinese and in English: a customer's
 * mailbox made through the API; its owner signs in at /mail/login, sets an out-of-office reply,
 * makes and revokes an app password and changes the password; the customer sees the reply on the
 * mailbox's page. Screenshots in test-results/e2e/ (mail-*-zh.png, mail-*-en.png).
 */
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, apiCustomer, customerSignIn, expectNoEnglish, landedAt, launch, openPage, shot, type Lang } from './browser';

let browser: Browser;
let operator = '';
beforeAll(async () => {
  browser = await launch();
  operator = (await api('POST', '/api/manage/login/login', inject('operator'))).data.token as string;
});
afterAll(async () => {
  await browser?.close();
});

/** A customer with capacity, an active domain and one mailbox, all through the API. */
async function mailboxOfACustomer(password: string) {
  const customer = await apiCustomer();
  const domainName = `owners-${crypto.randomBytes(3).toString('hex')}.example`;
  await api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 1024 ** 3 }, operator);
  const domain = await api('POST', '/api/admin/domain/create', { name: domainName }, customer.token);
  await api('POST', '/api/manage/domain/update', { id: domain.data.id, status: 'active' }, operator);
  const box = await api('POST', '/api/admin/email/create', { domain_id: domain.data.id, local_part: 'anna', password, quota: 512 * 1024 ** 2 }, customer.token);
  if (box.code !== 0) throw new Error(JSON.stringify(box));
  return { customer, id: box.data.id as number, address: box.data.address as string, domainId: domain.data.id as number };
}

const words = {
  zh: {
    title: '登录您的邮箱',
    submit: '登录',
    ooo: '自动回复',
    oooSaved: '自动回复已保存，将从下一封到达的邮件起生效',
    oooOn: '自动回复已开启，直到 2099年1月31日 18:00 (Asia/Shanghai)。',
    ends: '2099-01-31 18:00',
    appPasswords: '应用专用密码',
    create: '新建应用专用密码',
    make: '创建',
    copy: '复制',
    done: '完成',
    revoke: '撤销',
    ok: '确定',
    none: '还没有应用专用密码。',
    revoked: '应用专用密码“Phone”已撤销',
    password: '密码',
    save: '保存',
    passwordSaved: '密码已修改，您在其他设备上的登录已退出。',
    customerRules: '最后由邮箱用户',
  },
  en: {
    title: 'Sign in to your mailbox',
    submit: 'Sign in',
    ooo: 'Out of office',
    oooSaved: 'The out-of-office reply was saved; it applies to the next message that arrives',
    oooOn: 'The out-of-office reply is on until 31 Jan 2099, 18:00 (Asia/Shanghai).',
    ends: '31/01/2099 18:00',
    appPasswords: 'App passwords',
    create: 'New app password',
    make: 'Create',
    copy: 'Copy',
    done: 'Done',
    revoke: 'Revoke',
    ok: 'OK',
    none: 'No app passwords yet.',
    revoked: 'The app password "Phone" was revoked',
    password: 'Password',
    save: 'Save',
    passwordSaved: 'Password changed. Your other sessions were signed out.',
    customerRules: 'by the mailbox owner',
  },
} as const;

const menu = (page: Page, name: string) => page.getByRole('menuitem', { name, exact: true });

describe.each(['zh', 'en'] as const)('the mailbox owners’ area in %s', (lang: Lang) => {
  const w = words[lang];
  const password = `anna-pass-${lang}-1`;
  const newPassword = `anna-new-${lang}-2`;
  let box: Awaited<ReturnType<typeof mailboxOfACustomer>>;
  beforeAll(async () => {
    box = await mailboxOfACustomer(password);
  });

  it('the owner signs in, sets an out-of-office reply, makes and revokes an app password, and changes the password', { timeout: 120_000 }, async () => {
    const { page, errors } = await openPage(browser, lang);
    const chineseOnly = async () => {
      if (lang === 'zh') await expectNoEnglish(page, [box.address, 'Asia/Shanghai', 'Phone']);
    };

    // Without a session an area page leads to the sign-in, and back to it afterwards.
    await page.goto('/mail/out-of-office');
    await page.waitForURL(/\/mail\/login$/);
    await page.getByText(w.title).waitFor();
    await chineseOnly();
    await shot(page, 'mail-login', lang);
    await page.locator('input[name=email]').fill(box.address);
    await page.locator('input[name=password]').fill(password);
    await page.getByRole('button', { name: w.submit, exact: true }).click();
    await page.waitForURL(/\/mail\/out-of-office$/);

    // Overview.
    await page.goto('/mail');
    await expect(page.locator('.overview-address').textContent()).resolves.toBe(box.address);
    await page.locator('.overview-sign-in').first().waitFor();
    await expect(page.locator('.usage-bar').textContent()).resolves.toContain('512 MiB');
    await chineseOnly();
    await shot(page, 'mail-overview', lang);

    // Out-of-office, until a time of Shanghai.
    await menu(page, w.ooo).click();
    await page.waitForURL(/\/mail\/out-of-office$/);
    const card = page.locator('.out-of-office-card');
    await card.locator('input[name=enabled]').check();
    await card.locator('input[name=time_zone]').fill('Asia/Shang');
    await page.getByRole('option', { name: 'Asia/Shanghai', exact: true }).click();
    await card.locator('input[name=ends_at]').fill(w.ends);
    await card.locator('input[name=subject]').fill(lang === 'zh' ? '休假中' : 'Away until February');
    await card.locator('textarea[name=body]').fill(lang === 'zh' ? '我二月回来，急事请联系同事。' : 'I am back in February; for anything urgent, write to my colleagues.');
    await card.getByRole('button', { name: w.save }).click();
    await page.getByText(w.oooSaved).waitFor();
    await expect(card.locator('.ooo-state-on').textContent()).resolves.toBe(w.oooOn);
    await chineseOnly();
    await shot(page, 'mail-out-of-office', lang);
    const rules = await api('GET', `/api/admin/email/rules?id=${box.id}`, undefined, box.customer.token);
    expect(rules.data.out_of_office).toMatchObject({ enabled: true, time_zone: 'Asia/Shanghai', interval_days: 7 });
    expect(new Date(rules.data.out_of_office.ends_at).toISOString()).toBe('2099-01-31T10:00:00.000Z');
    expect(rules.data.updated_by).toBe(`mailbox:${box.address}`);

    // An app password, shown once, then revoked.
    await menu(page, w.appPasswords).click();
    await page.waitForURL(/\/mail\/app-passwords$/);
    await page.getByText(w.none).waitFor();
    await page.getByRole('button', { name: w.create }).click();
    await page.locator('.app-password-create-dialog input[name=name]').fill('Phone');
    await page.locator('.app-password-create-dialog').getByRole('button', { name: w.make }).click();
    const shown = page.locator('.app-password-value');
    await shown.waitFor();
    expect(await shown.textContent()).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    await expect(page.locator('.app-password-created').getByRole('button', { name: w.copy }).isVisible()).resolves.toBe(true);
    await chineseOnly();
    await shot(page, 'mail-app-password-created', lang);
    await page.getByRole('button', { name: w.done }).click();
    await shown.waitFor({ state: 'detached' });
    const row = page.locator('.app-password-row', { hasText: 'Phone' });
    await row.waitFor();
    expect((await api('GET', `/api/admin/email/get?id=${box.id}`, undefined, box.customer.token)).data.app_passwords).toBe(1);
    await chineseOnly();
    await shot(page, 'mail-app-passwords', lang);
    await row.getByRole('button', { name: w.revoke }).click();
    await page.locator('.dialog-confirm').getByRole('button', { name: w.ok }).click();
    await page.getByText(w.revoked).waitFor();
    await page.getByText(w.none).waitFor();
    expect((await api('GET', `/api/admin/email/get?id=${box.id}`, undefined, box.customer.token)).data.app_passwords).toBe(0);

    // The password, changed with the current one.
    await menu(page, w.password).click();
    await page.waitForURL(/\/mail\/password$/);
    const form = page.locator('.profile-password');
    await form.locator('input[name=old_password]').fill(password);
    await form.locator('input[name=password]').fill(newPassword);
    await form.locator('input[name=confirm]').fill(newPassword);
    await form.getByRole('button', { name: w.save }).click();
    await page.getByText(w.passwordSaved).waitFor();
    await chineseOnly();
    await shot(page, 'mail-password', lang);
    expect((await api('POST', '/api/mail/login/login', { email: box.address, password: newPassword })).code).toBe(0);
    expect((await api('POST', '/api/mail/login/login', { email: box.address, password })).code).not.toBe(0);

    // The mail-program settings.
    await page.goto('/mail/settings');
    await page.locator('.client-host').first().waitFor();
    await chineseOnly();
    await shot(page, 'mail-settings', lang);
    expect(errors).toEqual([]);
  });

  it('the customer sees the owner’s out-of-office reply on the mailbox’s page, with who set it', { timeout: 60_000 }, async () => {
    const { page, errors } = await openPage(browser, lang);
    await customerSignIn(page, box.customer.email, box.customer.password);
    await landedAt(page, /\/admin$/);
    await page.goto(`/admin/email/update?id=${box.id}`);
    await page.locator('.mailbox-rules .ooo-state-on').waitFor();
    await expect(page.locator('.mailbox-rules .rules-last-change').first().textContent()).resolves.toContain(w.customerRules);
    await page.locator('.mailbox-app-passwords').waitFor();
    if (lang === 'zh') await expectNoEnglish(page, [box.address, box.customer.email, 'Asia/Shanghai']);
    await shot(page, 'mail-customer-mailbox-rules', lang);
    expect(errors).toEqual([]);
  });
});
