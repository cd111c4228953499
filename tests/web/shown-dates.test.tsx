/**
 * One way of writing dates wherever the app shows one (issue 33, 2.13: "mixed date formats"): a
 * moment as "29 Nov 2026, 08:35" / "2026年11月29日 08:35", a date as "29 Nov 2026" /
 * "2026年11月29日", following the interface language; checked on the helper and on screens
 * rendered against the real server.
 */
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/i18n';
import { OperatorProfilePage } from '../../src/operator/ProfilePage';
import { formatDate, formatDateTime, formatDay } from '../../src/screens/shownDates';
import { startTestApp, type TestApp } from '../helpers/app';
import { renderArea, signedInOperator } from './area-harness';

const written = {
  en: { dateTime: /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}$/, date: /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/ },
  zh: { dateTime: /^\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}$/, date: /^\d{4}年\d{1,2}月\d{1,2}日$/ },
};

describe('dates as the app shows them', () => {
  it('When a moment or a date is shown, then English writes "29 Nov 2026, 08:35" and Chinese "2026年11月29日 08:35"', () => {
    const moment = new Date(2026, 10, 29, 8, 35).toISOString();
    expect(formatDateTime(moment, 'en')).toBe('29 Nov 2026, 08:35');
    expect(formatDateTime(moment, 'zh')).toBe('2026年11月29日 08:35');
    expect(formatDate(moment, 'en')).toBe('29 Nov 2026');
    expect(formatDate(moment, 'zh')).toBe('2026年11月29日');
    // A day the server names is that day in every time zone.
    expect(formatDay('2026-11-03', 'en')).toBe('3 Nov 2026');
    expect(formatDay('2026-11-03', 'zh')).toBe('2026年11月3日');
    expect(formatDateTime(null, 'en')).toBe('');
    expect(formatDate('not a date', 'zh')).toBe('');
  });
});

describe('dates on the screens', { timeout: 90_000 }, () => {
  let t: TestApp;
  let operator: { id: number; token: string; username: string };
  beforeAll(async () => {
    t = await startTestApp();
    operator = await signedInOperator(t);
  }, 60_000);
  afterAll(() => t?.close());

  for (const locale of ['en', 'zh'] as const) {
    it(`When an operator opens their profile in ${locale}, then the last sign-in and the account's creation read as the app writes a moment`, async () => {
      await setLocale(locale);
      renderArea(t, 'manage', '/manage/profile', operator, { Profile: OperatorProfilePage });
      let shown: string[] = [];
      await waitFor(
        () => {
          shown = [...document.querySelectorAll('.date-time')].map((e) => e.textContent ?? '');
          expect(shown).toHaveLength(2);
        },
        { timeout: 30_000 },
      );
      for (const text of shown) expect(text).toMatch(written[locale].dateTime);
    });
  }
});
