/**
 * The operators' reports page against the real server, in-process: why a report was refused reads
 * in the operator's language (issue 33, 2.13), the reporter's names and numbers kept as they came.
 */
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/i18n';
import { startTestApp, type TestApp } from '../helpers/app';
import { attachedMessage, dmarcXml, gzip, zip, zipBodyMessage } from '../helpers/report-fixtures';
import { renderArea, signedInOperator } from './area-harness';

const TOKEN = 'mail-server-token-0123456789';
const REPORTS = 'reports@maildesk.test';
let t: TestApp;
let operator: { id: number; token: string; username: string };

const hand = (message: string | Uint8Array) =>
  t.app.inject({ method: 'POST', url: '/api/mail-server/reports', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'message/rfc822' }, payload: Buffer.from(message) });

beforeAll(async () => {
  t = await startTestApp({ MAIL_SERVER_TOKEN: TOKEN });
  operator = await signedInOperator(t);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const xml = dmarcXml({ org: 'google.com', reportId: 'r-4711', domain: 'not-hosted.example', begin: yesterday, records: [{ ip: '192.0.2.1', count: 3, dkim: 'pass', spf: 'pass' }] });
  expect((await hand(attachedMessage(REPORTS, 'report', { filename: 'r.xml.gz', contentType: 'application/gzip', data: gzip(xml) }))).json().data.refused).toHaveLength(1);
  const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`r${i}.xml`, xml]));
  expect((await hand(zipBodyMessage(REPORTS, 'not-hosted.example', 'many', zip(many)))).json().data.refused).toHaveLength(1);
}, 60_000);
afterAll(() => t?.close());

const long = { timeout: 30_000 };
const refusedRows = () => [...document.querySelectorAll<HTMLElement>('.reports-refused-row')].map((row) => row.textContent ?? '');

describe('refused reports on the operators\' reports page', { timeout: 90_000 }, () => {
  it('When the page is in Chinese, then why each report was refused reads in Chinese', async () => {
    await setLocale('zh');
    renderArea(t, 'manage', '/manage/reports', operator);
    await waitFor(() => expect(refusedRows()).toHaveLength(2), long);
    expect(refusedRows()).toEqual(
      expect.arrayContaining([expect.stringContaining('zip 文件含 12 个文件（最多 10 个）'), expect.stringContaining('google.com 的 DMARC 报告 r-4711 针对 not-hosted.example，该域名不在本平台托管')]),
    );
    expect(refusedRows().join()).not.toMatch(/entries|which is not hosted/);
    // When: as the app writes a moment (issue 33, 2.13: it read "2026-11-29 08:35 UTC").
    for (const row of refusedRows()) expect(row).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}/);
  });

  it('When the page is in English, then the same refusals read in English', async () => {
    await setLocale('en');
    renderArea(t, 'manage', '/manage/reports', operator);
    await waitFor(() => expect(refusedRows()).toHaveLength(2), long);
    expect(refusedRows()).toEqual(
      expect.arrayContaining([expect.stringContaining('The zip file holds 12 files (at most 10)'), expect.stringContaining('DMARC report r-4711 from google.com for not-hosted.example, which is not hosted here')]),
    );
    for (const row of refusedRows()) expect(row).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}[^U]/);
  });
});
