/**
 * The app's language: the browser's (Accept-Language: the first of zh and en it lists; Chinese
 * when it lists neither) until the person chooses one, then theirs, remembered for the whole app.
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

/** The first of the browser's languages (its Accept-Language) that we have; Chinese when none is. */
export function browserLocale(languages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])): Locale {
  for (const language of languages) {
    const primary = language.toLowerCase().split('-')[0];
    if (primary === 'zh' || primary === 'en') return primary;
  }
  return DEFAULT_LOCALE;
}

/** The language the person chose (remembered), else the browser's. */
export function storedLocale(): Locale {
  try {
    const saved = window.localStorage.getItem(LOCALE_KEY);
    return saved === 'en' || saved === 'zh' ? saved : browserLocale();
  } catch {
    return browserLocale();
  }
}

/**
 * A server text with a count sent without smart_count (kept before the texts had plural forms:
 * a refused report's detail, an import run's errors) takes its first number as the count, so
 * that polyglot picks one form rather than showing both.
 */
export function withSmartCount(options?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!options || typeof options.smart_count === 'number') return options;
  const count = Object.entries(options).find(([name, value]) => name !== '_' && typeof value === 'number' && Number.isFinite(value));
  return count ? { ...options, smart_count: count[1] } : options;
}

/** Polyglot's provider, with withSmartCount before every translation. */
export function countingProvider(provider: I18nProvider): I18nProvider {
  return { ...provider, translate: (key, options) => provider.translate(key, withSmartCount(options)) };
}

const listeners = new Set<(locale: Locale) => void>();
let current: Locale = typeof window === 'undefined' ? DEFAULT_LOCALE : storedLocale();
let shared: I18nProvider | undefined;

/** The texts of the current language; the app renders once they are here. */
export async function loadTexts(): Promise<void> {
  await textsOf(current);
  // A language's texts are downloaded the first time it is chosen (polyglot waits for the promise).
  shared ??= countingProvider(polyglotI18nProvider((locale) => loaded[locale as Locale] ?? textsOf(locale as Locale), current, [...locales], { allowMissing: true }));
}

export function currentLocale(): Locale {
  return current;
}

/** The person's choice: it wins over the browser's language from now on, also when it is the same. */
export async function setLocale(locale: Locale): Promise<void> {
  try {
    window.localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  if (locale === current) return;
  await loadTexts();
  await shared!.changeLocale(locale);
  current = locale;
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
