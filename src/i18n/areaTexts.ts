/**
 * The areas' texts, in both languages: react-admin's own, the names and field labels of the
 * area's resources, our texts of the areas (app-area-*.ts, mail-area-*.ts) and every page's texts, with English under Chinese as the fallback of any
 * missing text. Only the areas import this (it stays out of the public pages' download).
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import type { Screen } from '../screens/screen';
import { appAreaEn } from './app-area-en';
import { appAreaZh } from './app-area-zh';
import { countingProvider, currentLocale, locales, setLocale, type Locale } from './index';
import { mailAreaEn } from './mail-area-en';
import { mailAreaZh } from './mail-area-zh';
import { raChinese } from './ra-zh';
import { resourceTexts } from './resources';
import { spamEn } from '../spam/texts-en';
import { spamZh } from '../spam/texts-zh';
import { mailCopyEn } from '../mailCopy/texts-en';
import { mailCopyZh } from '../mailCopy/texts-zh';
import { reportsEn } from '../reports/texts-en';
import { reportsZh } from '../reports/texts-zh';
import { domainHealthEn } from '../domainHealth/texts-en';
import { domainHealthZh } from '../domainHealth/texts-zh';
import { importsEn } from '../imports/texts-en';
import { importsZh } from '../imports/texts-zh';
import { shopEn } from '../shop/texts-en';
import { shopZh } from '../shop/texts-zh';
import { textsEn } from './texts-en';
import { textsZh } from './texts-zh';

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
  // Each feature's texts over the ones before it.
  en: ([textsEn, appAreaEn, mailAreaEn, spamEn, mailCopyEn, reportsEn, domainHealthEn, importsEn, shopEn] as Tree[]).reduce(deepMerge, englishMessages as Tree),
  zh: ([textsZh, appAreaZh, mailAreaZh, spamZh, mailCopyZh, reportsZh, domainHealthZh, importsZh, shopZh] as Tree[]).reduce(deepMerge, raChinese as Tree),
};

/** Every text of a language; `screens` names the resources of an area. */
export function messagesOf(locale: Locale, screens: Screen[] = []): TranslationMessages {
  const resources: Tree = {};
  for (const screen of screens) resources[screen.name] = resourceTexts[locale][screen.declaration.name] as Tree;
  const english = deepMerge(base.en, { resources: Object.fromEntries(screens.map((s) => [s.name, resourceTexts.en[s.declaration.name] as Tree])) });
  const own = deepMerge(base[locale], { resources });
  return (locale === 'en' ? english : deepMerge(english, own)) as TranslationMessages;
}

/** The i18nProvider of an area; changing its language changes the whole app's. */
export function createI18nProvider(screens: Screen[]): I18nProvider {
  const provider = countingProvider(polyglotI18nProvider((locale) => messagesOf(locale as Locale, screens), currentLocale(), [...locales], { allowMissing: true }));
  return {
    ...provider,
    changeLocale: async (locale: string, options?: unknown) => {
      await provider.changeLocale(locale, options);
      await setLocale(locale as Locale);
    },
  };
}
