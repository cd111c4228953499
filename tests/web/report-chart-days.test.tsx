/**
 * The reports' charts of counts per day, on the real server in-process: the x axis carries the
 * days as dates, written as the interface language writes a date (issue 33, 2.9: dates were
 * missing from the axis, the library dropping most of the "11-28" labels).
 */
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/i18n';
import { startTestApp, type TestApp } from '../helpers/app';
import { renderArea, signedInOperator } from './area-harness';

let t: TestApp;
let operator: { id: number; token: string; username: string };

beforeAll(async () => {
  t = await startTestApp();
  operator = await signedInOperator(t);
}, 60_000);
afterAll(() => t?.close());

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The UTC day `back` days before today, as each language writes a date. */
const dayBack = (back: number) => new Date(Date.now() - back * 86_400_000);
const written = {
  en: (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
  zh: (d: Date) => `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日`,
};

async function axisLabels() {
  let labels: string[] = [];
  await waitFor(
    () => {
      labels = [...document.querySelectorAll('.reports-summary-chart .MuiChartsAxis-directionX text')].map((text) => text.textContent ?? '').filter(Boolean);
      expect(labels.length).toBeGreaterThan(0);
    },
    { timeout: 30_000 },
  );
  return labels;
}

describe('days on the reports chart', { timeout: 90_000 }, () => {
  for (const locale of ['en', 'zh'] as const) {
    it(`When an operator opens the reports page in ${locale}, then the chart's axis names every 7th day back from today as a date`, async () => {
      await setLocale(locale);
      renderArea(t, 'manage', '/manage/reports', operator);
      const expected = [28, 21, 14, 7, 0].map((back) => written[locale](dayBack(back)));
      expect(await axisLabels()).toEqual(expected);
    });
  }
});
