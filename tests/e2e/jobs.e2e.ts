/**
 * The operators' jobs page: a failed job shows with its error and its payload's code masked,
 * and a superadmin's retry runs it (the send log entry it names is gone, so the run ends done).
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launch, openMenuEntry, openPage, operatorSignIn, shot, suiteApp } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  // A message whose SMTP server refused every try: a failed 'mail.send' job, as the queue keeps it.
  const db = new SQLite(path.join(suiteApp().dataDir, 'maildesk.sqlite'));
  db.pragma('busy_timeout = 5000');
  const at = new Date().toISOString();
  db.prepare(
    `insert into job (name, payload, state, run_at, attempts, max_attempts, retry_delay_seconds, last_error, created_at, updated_at)
     values ('mail.send', ?, 'failed', ?, 6, 6, 30, 'connect ECONNREFUSED 127.0.0.1:25', ?, ?)`,
  ).run(JSON.stringify({ sendLogId: 0, key: 'verify_code', locale: 'zh', to: 'e2e-failed@example.com', params: { code: '482913' }, messageId: '<e2e@maildesk.test>' }), at, at, at);
  db.close();
});
afterAll(async () => {
  await browser?.close();
});

it('opens the jobs page, sees the failed job with its error and masked code, and retries it', async () => {
  const { page, errors } = await openPage(browser);
  await operatorSignIn(page);
  await openMenuEntry(page, '系统', '后台任务');
  await page.waitForURL(/\/manage\/jobs$/);
  const failed = page.locator('.failed-job', { hasText: 'e2e-failed@example.com' });
  await failed.waitFor();
  await expect(failed.locator('.job-error').textContent()).resolves.toContain('ECONNREFUSED');
  const payload = await failed.locator('.job-payload').textContent();
  expect(payload).toContain('••••••');
  expect(payload).not.toContain('482913');
  await expect(page.locator('.job-counts-mail\\.send').textContent()).resolves.toMatch(/mail\.send.*1/);
  await shot(page, 'operator-jobs-failed');

  await failed.locator('.job-retry').click();
  await page.getByText('任务将立即重新运行。').waitFor();
  await page.getByText('没有失败的任务。').waitFor({ timeout: 15_000 });
  await shot(page, 'operator-jobs-retried');
  expect(errors).toEqual([]);
});
