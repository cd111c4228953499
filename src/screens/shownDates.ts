/**
 * Dates as the app shows them (dates.ts is for dates a person types): one format for a moment and
 * one for a date alone, in the interface language — "29 Nov 2026, 08:35" and "29 Nov 2026" in
 * English, "2026年11月29日 08:35" and "2026年11月29日" in Chinese. Moments are shown in the
 * reader's time zone; a calendar day the server names (YYYY-MM-DD, e.g. a report day) as it is.
 */
import { useLocaleState } from 'react-admin';

export type ShownLocale = 'zh' | 'en';
/** react-admin's locale as one we write dates in (Chinese unless English). */
const shownOf = (locale: string): ShownLocale => (locale === 'en' ? 'en' : 'zh');

const dateParts = { year: 'numeric', day: 'numeric' } as const;
const formats = (locale: string, timeZone?: string) => {
  const tag = shownOf(locale) === 'zh' ? 'zh-CN' : 'en-GB';
  const month = shownOf(locale) === 'zh' ? 'long' : 'short';
  return {
    date: new Intl.DateTimeFormat(tag, { ...dateParts, month, timeZone }),
    dateTime: new Intl.DateTimeFormat(tag, { ...dateParts, month, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }),
  };
};

const momentOf = (value: unknown): Date | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const moment = value instanceof Date ? value : new Date(typeof value === 'number' ? value : String(value));
  return Number.isNaN(moment.getTime()) ? undefined : moment;
};

/** A moment with its time, e.g. "29 Nov 2026, 08:35"; '' for no moment. */
export function formatDateTime(value: unknown, locale: string, timeZone?: string): string {
  const moment = momentOf(value);
  return moment ? formats(locale, timeZone).dateTime.format(moment) : '';
}

/** The date of a moment, e.g. "29 Nov 2026"; '' for no moment. */
export function formatDate(value: unknown, locale: string, timeZone?: string): string {
  const moment = momentOf(value);
  return moment ? formats(locale, timeZone).date.format(moment) : '';
}

/** A calendar day the server names ("2026-11-29"), whatever the reader's zone. */
export function formatDay(day: string, locale: string): string {
  return formatDate(`${day.slice(0, 10)}T00:00:00Z`, locale, 'UTC');
}

/** The three in the current interface language. */
export function useShownDates() {
  const [locale] = useLocaleState();
  const shown = shownOf(locale);
  return {
    locale: shown,
    dateTime: (value: unknown, timeZone?: string) => formatDateTime(value, shown, timeZone),
    date: (value: unknown, timeZone?: string) => formatDate(value, shown, timeZone),
    day: (day: string) => formatDay(day, shown),
  };
}
