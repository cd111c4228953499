/**
 * "Bring my mail" on a mailbox's page, in Chinese and in English: the customer opens the dialog,
 * gives the old server and its password, and follows the copy on the card. No IMAP server runs in
 * the browser suite (the mail suite copies 1,000 real messages between two real Dovecots): here the
 * old server is a closed port, so the copy stops at once and the card says why. The progress bar is
 * then shown with a copy under way as the job writes it (setup only), which ends while the page
 * is open. Screenshots in test-results/e2e/ (mail-copy-*).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, apiCustomer, customerSignIn, expectNoEnglish, landedAt, launch, openPage, shot, suiteApp, type Lang } from './browser';
import { freePort } from './server';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const words = {
  zh: { start: '搬迁我的邮件', none: '尚未向此邮箱搬迁过邮件', started: '复制已开始', failed: '已停止', unreachable: '无法连接旧服务器', running: '正在复制', progress: '邮箱中已有 250 / 1000 封邮件', done: '已完成', doneProgress: '邮箱中已有 1000 / 1000 封邮件', required: '必填' },
  en: { start: 'Bring my mail', none: 'No mail has been brought here yet', started: 'The copy has started', failed: 'Stopped', unreachable: 'The old server could not be reached', running: 'Copying', progress: '250 of 1000 messages in the mailbox', done: 'Done', doneProgress: '1000 of 1000 messages in the mailbox', required: 'Required' },
};

async function operatorToken() {
  const { username, password } = inject('operator');
  return (await api('POST', '/api/manage/login/login', { username, password })).data.token as string;
}

/** A customer with capacity, an active domain and a mailbox, made through the API. */
async function customerWithMailbox() {
  const customer = await apiCustomer();
  const operator = await operatorToken();
  await api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 1024 ** 3, label: 'Moving in' }, operator);
  const domain = (await api('POST', '/api/admin/domain/create', { name: `moving-${customer.id}.test` }, customer.token)).data;
  await api('POST', '/api/manage/domain/update', { id: domain.id, status: 'active' }, operator);
  const mailbox = (await api('POST', '/api/admin/email/create', { domain_id: domain.id, local_part: 'anna', password: 'mailbox-pass-1', quota: 64 * 1024 ** 2 }, customer.token)).data;
  return { customer, mailbox };
}

describe.each(['zh', 'en'] as const)('in %s', (lang: Lang) => {
  const w = words[lang];

  it('a customer brings the mail of an old account: the dialog, the copy stopping with its reason, then a copy under way and done', async () => {
    const { customer, mailbox } = await customerWithMailbox();
    const oldPassword = `old-secret-${mailbox.id}`;
    const closed = await freePort();
    const { page, errors } = await openPage(browser, lang);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.goto(`/admin/email/update?id=${mailbox.id}`);
    const card = page.locator('.mail-copy-card');
    await card.getByText(w.none).waitFor();

    await card.getByRole('button', { name: w.start }).click();
    const dialog = page.locator('.mail-copy-dialog');
    await dialog.locator('input[name=source_host]').waitFor();
    // Nothing typed: the required fields say so, and nothing starts.
    await dialog.getByRole('button', { name: w.start }).click();
    await expect.poll(() => dialog.getByText(w.required).count()).toBeGreaterThan(0);
    await dialog.locator('input[name=source_host]').fill('127.0.0.1');
    await dialog.locator('input[name=source_port]').fill(String(closed));
    await dialog.locator('input[name=source_user]').fill('anna@old.example');
    await dialog.locator('input[name=password]').fill(oldPassword);
    await shot(page, 'mail-copy-dialog', lang);
    await dialog.getByRole('button', { name: w.start }).click();
    await page.getByText(w.started).waitFor();
    // The dialog closes: its password field, and the password with it, leave the page.
    await dialog.waitFor({ state: 'detached' });

    // The old server does not answer: the copy stops, and the card says why.
    await card.locator('.mail-copy-failed').waitFor({ timeout: 20_000 });
    await card.getByText(w.failed).waitFor();
    await card.getByText(w.unreachable).waitFor();
    expect(await page.content()).not.toContain(oldPassword);
    if (lang === 'zh') await expectNoEnglish(page, [customer.email, 'anna@old.example', mailbox.address]);
    await shot(page, 'mail-copy-failed', lang);

    // A copy under way, as the job writes its progress (setup only): the bar follows it to the end.
    const db = new Database(path.join(suiteApp().dataDir, 'maildesk.sqlite'));
    const at = new Date().toISOString();
    const row = db
      .prepare(
        `INSERT INTO mail_copy (owner_id, domain_id, mailbox_id, address, source_host, source_port, source_tls, source_user, state, total_messages, done_messages, copied_messages, folders, started_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'imap.old.example', 993, 'tls', 'anna@old.example', 'running', 1000, 250, 250, 3, 'customer:e2e', ?, ?)`,
      )
      .run(customer.id, mailbox.domain_id, mailbox.id, mailbox.address, at, at);
    try {
      await page.reload();
      await card.locator('.mail-copy-running').waitFor();
      await card.getByText(w.progress).waitFor();
      await expect(card.getByRole('button', { name: w.start }).isDisabled()).resolves.toBe(true);
      await expect(card.locator('.mail-copy-running [role=progressbar]').getAttribute('aria-valuenow')).resolves.toBe('25');
      await shot(page, 'mail-copy-running', lang);
      db.prepare(`UPDATE mail_copy SET state = 'done', done_messages = 1000, copied_messages = 1000, finished_at = ?, updated_at = ? WHERE id = ?`).run(at, at, row.lastInsertRowid);
      // No reload: the card reads the copy again while it is unfinished.
      await card.locator('.mail-copy-done').waitFor({ timeout: 10_000 });
      await card.getByText(w.doneProgress).waitFor();
      await expect(card.getByRole('button', { name: w.start }).isDisabled()).resolves.toBe(false);
      await shot(page, 'mail-copy-done', lang);
    } finally {
      db.close();
    }
    expect(errors).toEqual([]);
  });
});
