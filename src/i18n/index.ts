/**
 * The app's language: Chinese by default, English at a click, remembered for the whole app.
 * A page downloads only its language's texts (the server's message keys and ours,
 * texts-<locale>.ts), the other language when it is chosen; react-admin's texts and those of
 * the resources come with the areas (areaTexts.ts).
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'ra-core';

export const locales = [
  { locale: 'zh', name: '中文' },
  { locale: 'en', name: 'English' },
] as const;
export type Locale = (typeof locales)[number]['locale'];
export const DEFAULT_LOCALE: Locale = 'zh';
const LOCALE_KEY = 'maildesk.locale';

const download: Record<Locale, () => Promise<TranslationMessages>> = {
  zh: () => import('./texts-zh').then((m) => m.textsZh),
  en: () => import('./texts-en').then((m) => m.textsEn),
};
const loaded: Partial<Record<Locale, TranslationMessages>> = {};
const textsOf = async (locale: Locale) => (loaded[locale] ??= await download[locale]());

export function storedLocale(): Locale {
  try {
    const saved = window.localStorage.getItem(LOCALE_KEY);
    return saved === 'en' || saved === 'zh' ? saved : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

const listeners = new Set<(locale: Locale) => void>();
let current: Locale = typeof window === 'undefined' ? DEFAULT_LOCALE : storedLocale();
let shared: I18nProvider | undefined;

/** The texts of the current language; the app renders once they are here. */
export async function loadTexts(): Promise<void> {
  await textsOf(current);
  // A language's texts are downloaded the first time it is chosen (polyglot waits for the promise).
  shared ??= polyglotI18nProvider((locale) => loaded[locale as Locale] ?? textsOf(locale as Locale), current, [...locales], { allowMissing: true });
}

export function currentLocale(): Locale {
  return current;
}

export async function setLocale(locale: Locale): Promise<void> {
  if (locale === current) return;
  await loadTexts();
  await shared!.changeLocale(locale);
  current = locale;
  try {
    window.localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  document.documentElement.lang = locale;
  for (const listener of listeners) listener(locale);
}

export function onLocaleChange(listener: (locale: Locale) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Translates in the current language, outside react-admin (public pages, alerts). */
export function translate(key: string, options?: Record<string, unknown>): string {
  return shared ? shared.translate(key, options) : String(options?._ ?? key);
}
