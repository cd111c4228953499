/**
 * Every text of the app in Chinese (default) and English (fallback): react-admin's own, the
 * server's message keys (resources/messages.ts) and ours. Each area gets an i18nProvider whose
 * `resources.*` texts are those of its screens; the chosen language is remembered for the
 * whole app.
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import { serverMessages } from '../../resources/messages';
import type { Screen } from '../screens/registry';
import { appEn } from './app-en';
import { appZh } from './app-zh';
import { raChinese } from './ra-zh';
import { resourceTexts } from './resources';

export const locales = [
  { locale: 'zh', name: '中文' },
  { locale: 'en', name: 'English' },
] as const;
export type Locale = (typeof locales)[number]['locale'];
export const DEFAULT_LOCALE: Locale = 'zh';
const LOCALE_KEY = 'maildesk.locale';

type Tree = { [key: string]: Tree | string | undefined };

/** b over a: English under Chinese makes English the fallback of every missing text. */
export function deepMerge(a: Tree, b: Tree): Tree {
  const out: Tree = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const base = out[key];
    out[key] = value && typeof value === 'object' && base && typeof base === 'object' ? deepMerge(base, value) : value;
  }
  return out;
}

const base: Record<Locale, Tree> = {
  en: deepMerge(deepMerge(englishMessages as Tree, serverMessages.en as Tree), appEn as Tree),
  zh: deepMerge(deepMerge(raChinese as Tree, serverMessages.zh as Tree), appZh as Tree),
};

/** Every text of a language; `screens` names the resources of an area. */
export function messagesOf(locale: Locale, screens: Screen[] = []): TranslationMessages {
  const resources: Tree = {};
  for (const screen of screens) resources[screen.name] = resourceTexts[locale][screen.declaration.name] as Tree;
  const english = deepMerge(base.en, { resources: Object.fromEntries(screens.map((s) => [s.name, resourceTexts.en[s.declaration.name] as Tree])) });
  const own = deepMerge(base[locale], { resources });
  return (locale === 'en' ? english : deepMerge(english, own)) as TranslationMessages;
}

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
const shared = polyglotI18nProvider((locale) => messagesOf(locale as Locale), current, [...locales], { allowMissing: true });

export function currentLocale(): Locale {
  return current;
}

export async function setLocale(locale: Locale): Promise<void> {
  if (locale === current) return;
  current = locale;
  await shared.changeLocale(locale);
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
  return shared.translate(key, options);
}

/** The i18nProvider of an area; changing its language changes the whole app's. */
export function createI18nProvider(screens: Screen[]): I18nProvider {
  const provider = polyglotI18nProvider((locale) => messagesOf(locale as Locale, screens), currentLocale(), [...locales], { allowMissing: true });
  return {
    ...provider,
    changeLocale: async (locale: string, options?: unknown) => {
      await provider.changeLocale(locale, options);
      await setLocale(locale as Locale);
    },
  };
}
