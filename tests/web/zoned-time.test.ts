/** Out-of-office times are wall-clock times of the owner's zone, whatever zone the browser is in. */
import { describe, expect, it } from 'vitest';
import { callValuesOf, formValuesOf, validateOutOfOffice } from '../../src/rules/OutOfOfficeCard';
import { utcToWall, wallToUtc } from '../../src/rules/zonedTime';

describe('zoned wall-clock times', () => {
  it('When 09:00 is written for Shanghai, Berlin in winter and Berlin in summer, then the moments are 01:00, 08:00 and 07:00 UTC', () => {
    expect(wallToUtc('2026-12-01T09:00', 'Asia/Shanghai')).toBe('2026-12-01T01:00:00.000Z');
    expect(wallToUtc('2026-12-01T09:00', 'Europe/Berlin')).toBe('2026-12-01T08:00:00.000Z');
    expect(wallToUtc('2026-07-01T09:00', 'Europe/Berlin')).toBe('2026-07-01T07:00:00.000Z');
  });

  it('When a time falls in the hour skipped by summer time, then the later side is taken', () => {
    expect(wallToUtc('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('When stored rules are shown, then the moments read as the wall times they were written as', () => {
    expect(utcToWall('2026-12-01T01:00:00.000Z', 'Asia/Shanghai')).toBe('2026-12-01T09:00');
    const form = formValuesOf({ enabled: true, starts_at: '2026-12-01T01:00:00.000Z', ends_at: null, time_zone: 'Asia/Shanghai', subject: 'Away', body: 'Back soon', interval_days: 7 });
    expect(form).toMatchObject({ starts_at: '2026-12-01T09:00', ends_at: null, time_zone: 'Asia/Shanghai' });
    expect(callValuesOf(form)).toEqual({ enabled: true, starts_at: '2026-12-01T01:00:00.000Z', ends_at: null, time_zone: 'Asia/Shanghai', subject: 'Away', body: 'Back soon', interval_days: 7 });
  });

  it('When a reply that is off has no subject, then nothing is refused; an unknown zone is', () => {
    const off = { enabled: false, starts_at: null, ends_at: null, time_zone: 'UTC', subject: '', body: '', interval_days: 7 };
    expect(validateOutOfOffice(off)).toEqual({});
    expect(validateOutOfOffice({ ...off, time_zone: 'Mars/Olympus' })).toEqual({ time_zone: 'app.rules.ooo.bad_time_zone' });
  });
});
