/**
 * Moving in (issue 25), in Chinese and in English: an operator reads a PostfixAdmin database
 * (MariaDB) in the import wizard, chooses a customer for its domain, reads the dry run's report,
 * imports and watches the progress to the end; the mailbox then signs in with its old password.
 * A customer checks a CSV file with a bad row (problems by line) and imports a good one.
 * Screenshots in test-results/e2e/ (import-*).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshPostfixAdmin, postfixAdminHashes } from '../helpers/postfixadmin';
import { api, apiCustomer, customerSignIn, expectNoEnglish, landedAt, launch, openMenuEntry, openPage, operatorSignIn, shot, type Lang } from './browser';

let browser: Browser;
const sources: Awaited<ReturnType<typeof freshPostfixAdmin>>[] = [];
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  for (const source of sources) await source.drop();
});

const words = {
  zh: { mail: '邮件服务', wizard: '从 PostfixAdmin 导入', csv: '导入与导出（CSV）', read: '读取数据库', dryRun: '试运行', start: '导入', done: '已完成', check: '检查文件', problems: '1 处问题', ok: '未发现问题。', holds: '1 个邮箱，', row: 'good.csv：1 行', kind: 'CSV 文件', runDone: '已完成：共 1 项，创建 1 项' },
  en: { mail: 'Mail', wizard: 'Import from PostfixAdmin', csv: 'Import and export (CSV)', read: 'Read the database', dryRun: 'Dry run', start: 'Import', done: 'Done', check: 'Check the file', problems: '1 problem: correct it', ok: 'No problems found.', holds: '1 mailbox, ', row: 'good.csv: 1 row', kind: 'CSV file', runDone: 'Done: 1 item, 1 created' },
};

async function operatorToken() {
  const { username, password } = inject('operator');
  return (await api('POST', '/api/manage/login/login', { username, password })).data.token as string;
}

describe.each(['zh', 'en'] as const)('in %s', (lang: Lang) => {
  const w = words[lang];

  it('an operator imports a PostfixAdmin database with the wizard, and its mailbox takes its old password', async () => {
    const customer = await apiCustomer();
    await api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 1024 ** 3 }, await operatorToken());
    const domain = `pfa-${lang}-${Date.now().toString(36)}.example`;
    const old = postfixAdminHashes()[0];
    const source = await freshPostfixAdmin('mariadb');
    sources.push(source);
    await source.fill({ domains: [{ domain }], mailboxes: [{ username: `anna@${domain}`, password: old.stored, quota: 100 * 1024 * 1024 }], aliases: [{ address: `info@${domain}`, goto: `anna@${domain}` }] });

    const { page, errors } = await openPage(browser, lang);
    await operatorSignIn(page);
    await openMenuEntry(page, w.mail, w.wizard);
    await page.waitForURL(/\/manage\/import_postfixadmin$/);
    await page.locator('.import-source-url').fill(source.url);
    await page.getByRole('button', { name: w.read }).click();
    await page.locator('.import-domain', { hasText: domain }).waitFor();
    // Counts read with their nouns' plural forms: "1 mailbox", not "1 mailboxes".
    await expect(page.locator('.import-domain', { hasText: domain }).textContent()).resolves.toContain(w.holds);
    if (lang === 'en') await expect(page.locator('.import-mapping').textContent()).resolves.toMatch(/1 domain, 1 mailbox, \d+ alias(es)?, 0 alias domains and 0 vacation messages were read/);
    await page.locator(`.import-customer[data-domain="${domain}"]`).fill(customer.email);
    await page.getByRole('option', { name: customer.email }).click();
    await page.getByRole('button', { name: w.dryRun }).click();
    await page.locator('.import-report .import-count-mailbox').waitFor();
    await expect(page.locator('.import-report .import-count-mailbox td').last().textContent()).resolves.toBe('1');
    await expect(page.locator('.import-report .import-count-alias td').last().textContent()).resolves.toBe('1');
    if (lang === 'zh') await expectNoEnglish(page, [customer.email, domain, 'MD5-CRYPT', inject('operator').username]);
    await shot(page, 'import-report', lang);
    await page.locator('.import-report-card').getByRole('button', { name: w.start }).click();
    await page.locator('.import-progress .import-run-done').waitFor({ timeout: 30_000 });
    await expect(page.locator('.import-progress .import-run-state').textContent()).resolves.toContain(w.done);
    await shot(page, 'import-done', lang);
    expect((await api('POST', '/api/mail/login/login', { email: `anna@${domain}`, password: old.password })).code).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a customer checks a CSV file with a bad row, then imports a good one', async () => {
    const customer = await apiCustomer();
    const root = await operatorToken();
    await api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 1024 ** 3 }, root);
    const name = `csv-${lang}-${Date.now().toString(36)}.example`;
    const created = await api('POST', '/api/admin/domain/create', { name }, customer.token);
    await api('POST', '/api/manage/domain/update', { id: created.data.id, status: 'active' }, root);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csv-'));
    const bad = path.join(dir, 'bad.csv');
    const good = path.join(dir, 'good.csv');
    fs.writeFileSync(bad, `type,address,password,quota\nmailbox,ok@${name},good-password-1,10M\nmailbox,broken address,good-password-1,10M\n`);
    fs.writeFileSync(good, `\ufefftype,address,password,quota\nmailbox,ok@${name},good-password-1,10M\n`);

    const { page, errors } = await openPage(browser, lang);
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    await page.getByRole('menuitem', { name: w.csv }).click();
    await page.waitForURL(/\/admin\/import_csv$/);
    await page.locator('input.csv-file').setInputFiles(bad);
    await page.getByRole('button', { name: w.check }).click();
    await page.locator('.csv-errors').getByText(w.problems).waitFor();
    await expect(page.locator('.csv-error td').first().textContent()).resolves.toBe('3');
    if (lang === 'zh') await expectNoEnglish(page, [customer.email, name, 'address']);
    await shot(page, 'import-csv-errors', lang);

    await page.locator('input.csv-file').setInputFiles(good);
    await page.getByRole('button', { name: w.check }).click();
    await page.getByText(w.ok).waitFor();
    await page.locator('.csv-import').getByRole('button', { name: w.start }).click();
    await expect(page.locator('.csv-file-name').textContent()).resolves.toBe(w.row);
    await page.locator('.csv-import .import-run-done').waitFor({ timeout: 30_000 });
    // The list of runs follows the run to its end, named by its kind ("CSV file", not "csv csv").
    const latest = page.locator('.import-runs .import-runs-row').first();
    await expect.poll(() => latest.textContent(), { timeout: 10_000 }).toContain(w.runDone);
    expect(await latest.textContent()).toContain(w.kind);
    expect(await latest.textContent()).not.toMatch(/csv csv/i);
    await shot(page, 'import-csv-done', lang);
    expect((await api('POST', '/api/mail/login/login', { email: `ok@${name}`, password: 'good-password-1' })).code).toBe(0);
    expect(errors).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
