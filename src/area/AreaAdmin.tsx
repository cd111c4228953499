/** One area's react-admin app: the props both areas share, and their own pages as routes. */
import type { SvgIconComponent } from '@mui/icons-material';
import type { ReactElement } from 'react';
import { Admin, CustomRoutes, type AuthProvider } from 'react-admin';
import { Route } from 'react-router-dom';
import { resourceOf } from '../screens/resourceOf';
import { areaLayout } from './AreaLayout';
import { areaMenu, type AreaPage } from './AreaMenu';
import type { createArea } from './createArea';
import { AreaLoading } from './Loading';
import { areaTheme } from './theme';
import { ToNotFound } from './ToNotFound';

export function areaAdmin(options: {
  area: ReturnType<typeof createArea>;
  basename: string;
  authProvider: AuthProvider;
  icons: Record<string, SvgIconComponent>;
  Dashboard: () => ReactElement;
  Profile: () => ReactElement;
  pages?: AreaPage[];
}) {
  const { area, basename, authProvider, icons, Dashboard, Profile, pages = [] } = options;
  const Layout = areaLayout(areaMenu(area.screens, pages));
  return function AreaApp() {
    return (
      <Admin
        basename={basename}
        title="Maildesk"
        store={area.store}
        queryClient={area.queryClient}
        dataProvider={area.dataProvider}
        i18nProvider={area.i18nProvider}
        authProvider={authProvider}
        requireAuth
        disableTelemetry
        dashboard={Dashboard}
        layout={Layout}
        loading={AreaLoading}
        catchAll={ToNotFound}
        theme={areaTheme}
      >
        {area.screens.map((screen) => resourceOf(screen, icons[screen.name]))}
        <CustomRoutes>
          <Route path="/dashboard" element={<Dashboard />} />
          <Route path="/profile" element={<Profile />} />
          {pages.map((page) => (
            <Route key={page.path} path={`/${page.path}`} element={page.element} />
          ))}
        </CustomRoutes>
      </Admin>
    );
  };
}
