/**
 * What each react-admin area (customers, operators, mailbox owners) is made of: its screens and pages from its features, its own
 * store prefix, query client, data provider, auth provider and i18n provider.
 */
import { QueryClient } from '@tanstack/react-query';
import { localStorageStore, type AuthProvider } from 'react-admin';
import type { HttpClient } from '../api/client';
import type { AuthProviderOptions } from '../authProvider/sessionAuth';
import { createDataProvider } from '../dataProvider';
import { translate } from '../i18n';
import { createI18nProvider } from '../i18n/areaTexts';
import { areaContents, type AreaEntry, type AreaName } from './features';

export function createArea(options: {
  area: AreaName;
  /** In menu order, optionally in the menu's groups. */
  features: readonly AreaEntry[];
  api: HttpClient;
  publicApi: HttpClient;
  storePrefix: string;
  authProvider: (options: Omit<AuthProviderOptions<never>, 'session'>) => AuthProvider;
}) {
  const { area, api, publicApi } = options;
  const contents = areaContents(area, options.features);
  const { screens } = contents;
  return {
    name: area,
    ...contents,
    store: localStorageStore(undefined, options.storePrefix),
    // No retries: each failure is reported once, by the WARNING alert.
    queryClient: new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } }),
    dataProvider: createDataProvider({ area, screens, httpClient: api, translate }),
    authProvider: options.authProvider({ api, publicApi, screens }),
    i18nProvider: createI18nProvider(screens),
  };
}
