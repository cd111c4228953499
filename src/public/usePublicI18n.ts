/** The language of the public pages (the same one the areas use) and a translate function. */
import { useSyncExternalStore } from 'react';
import { currentLocale, onLocaleChange, setLocale, translate } from '../i18n';

export function usePublicI18n() {
  const locale = useSyncExternalStore(onLocaleChange, currentLocale, currentLocale);
  return { locale, setLocale, t: translate };
}
