/**
 * What each react-admin area is made of: its screens from the declarations, its own store
 * prefix, query client, data provider and i18n provider.
 */
import { QueryClient } from '@tanstack/react-query';
import { localStorageStore } from 'react-admin';
import type { Area } from '../../resources/define';
import type { HttpClient } from '../api/client';
import { createDataProvider } from '../dataProvider';
import { translate } from '../i18n';
import { createI18nProvider } from '../i18n/areaTexts';
import { screensOf } from '../screens/registry';

export function createArea(area: Area, httpClient: HttpClient, storePrefix: string) {
  const screens = screensOf(area);
  return {
    screens,
    store: localStorageStore(undefined, storePrefix),
    // No retries: each failure is reported once, by the WARNING alert.
    queryClient: new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } }),
    dataProvider: createDataProvider({ area, screens, httpClient, translate }),
    i18nProvider: createI18nProvider(screens),
  };
}
