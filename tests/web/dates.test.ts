import { describe, expect, it } from 'vitest';
import { datePattern, formatDateText, parseDateText } from '../../src/screens/dates';

describe('dates in the reader’s format', () => {
  it('When a date is shown, then Chinese reads year-month-day and English day/month/year', () => {
    const moment = new Date(2026, 10, 3, 9, 5).toISOString();
    expect(formatDateText(moment, 'zh')).toBe('2026-11-03');
    expect(formatDateText(moment, 'en')).toBe('03/11/2026');
    expect(formatDateText(moment, 'en', true)).toBe('03/11/2026 09:05');
    expect(datePattern('zh')).not.toMatch(/[A-Za-z]/);
  });

  it('When a reader types a date, then it is read in their order; a "to" date means its last moment', () => {
    expect(parseDateText('2026-11-03', 'zh')).toEqual(new Date(2026, 10, 3));
    expect(parseDateText('2026/11/3', 'zh')).toEqual(new Date(2026, 10, 3));
    expect(parseDateText('03/11/2026', 'en')).toEqual(new Date(2026, 10, 3));
    expect(parseDateText('03/11/2026', 'en', { end: true })).toEqual(new Date(2026, 10, 3, 23, 59, 59, 999));
    expect(parseDateText('03/11/2026 09:05', 'en', { withTime: true })).toEqual(new Date(2026, 10, 3, 9, 5));
  });

  it('When the text is not a date, then nothing is read from it', () => {
    for (const text of ['2026-02-31', '11/03', '2026-13-01', 'tomorrow', '03/11/2026 09:05']) expect(parseDateText(text, 'en')).toBeUndefined();
    expect(parseDateText('03/11/2026', 'zh')).toBeUndefined();
  });
});
