/**
 * Dates as the reader writes them: 2026-11-23 in Chinese, 23/11/2026 in English (the
 * browser's own date inputs follow the browser's language, not the page's). Read and written
 * in the reader's time zone.
 */
export type DateLocale = 'zh' | 'en';

const pad = (n: number) => String(n).padStart(2, '0');

/** The pattern shown to the reader (in the reader's words). */
export function datePattern(locale: DateLocale, withTime = false): string {
  if (locale === 'zh') return withTime ? '年-月-日 时:分' : '年-月-日';
  return withTime ? 'DD/MM/YYYY HH:mm' : 'DD/MM/YYYY';
}

export function formatDateText(value: unknown, locale: DateLocale, withTime = false): string {
  if (value === null || value === undefined || value === '') return '';
  const d = new Date(String(value));
  if (Number.isNaN(d.getTime())) return '';
  const date = locale === 'zh' ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
  return withTime ? `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}` : date;
}

/**
 * The moment a text names, or undefined when it names none. `end`: a date alone means its last
 * moment (for "to" filters). Accepts -, / or . between the parts, in the locale's order.
 */
export function parseDateText(text: string, locale: DateLocale, options: { withTime?: boolean; end?: boolean } = {}): Date | undefined {
  const m = /^\s*(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,4})(?:[ T]+(\d{1,2}):(\d{2}))?\s*$/.exec(text);
  if (!m) return undefined;
  const [, a, b, c, hh, mm] = m;
  const [year, month, day] = locale === 'zh' ? [Number(a), Number(b), Number(c)] : [Number(c), Number(b), Number(a)];
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const hasTime = hh !== undefined;
  if (hasTime && (!options.withTime || Number(hh) > 23)) return undefined;
  const d = hasTime ? new Date(year, month - 1, day, Number(hh), Number(mm)) : options.end ? new Date(year, month - 1, day, 23, 59, 59, 999) : new Date(year, month - 1, day);
  // 31/02 rolls over into March: not a date.
  if (d.getFullYear() !== year || d.getMonth() !== month - 1 || d.getDate() !== day) return undefined;
  return d;
}
