/** One area's react-admin app: the props every area shares, its screens, and its own pages as routes. */
import type { ReactElement } from 'react';
import { Admin, CustomRoutes } from 'react-admin';
import { Route } from 'react-router-dom';
import { AreaScreensProvider } from '../screens/areaScreens';
import { resourceOf } from '../screens/resourceOf';
import { areaLayout } from './AreaLayout';
import { areaMenu } from './AreaMenu';
import type { createArea } from './createArea';
import { AreaLoading } from './Loading';
import { areaRoutes } from './routes';
import { areaTheme } from './theme';
import { ToNotFound } from './ToNotFound';

/**
 * `Profile`: the account's own page (/profile), when the area has one (the mailbox owners' pages
 * are their account); `dashboardLabel`: the home page's menu entry, when not "Dashboard".
 */
export function areaAdmin(options: { area: ReturnType<typeof createArea>; Dashboard: () => ReactElement; Profile?: () => ReactElement; dashboardLabel?: string }) {
  const { area, Dashboard, Profile } = options;
  const Layout = areaLayout(areaMenu(area.menu, { profile: Profile !== undefined, dashboardLabel: options.dashboardLabel }));
  const lookups = { screens: area.screens, declarations: area.declarations };
  function AreaApp() {
    return (
      <AreaScreensProvider value={lookups}>
        <Admin
          basename={`/${area.name}`}
          title="Maildesk"
          store={area.store}
          queryClient={area.queryClient}
          dataProvider={area.dataProvider}
          i18nProvider={area.i18nProvider}
          authProvider={area.authProvider}
          requireAuth
          disableTelemetry
          dashboard={Dashboard}
          layout={Layout}
          loading={AreaLoading}
          catchAll={ToNotFound}
          theme={areaTheme}
        >
          {area.screens.map(resourceOf)}
          <CustomRoutes>
            <Route path="/dashboard" element={<Dashboard />} />
            {Profile && <Route path="/profile" element={<Profile />} />}
            {area.pages.map((page) => (
              <Route key={page.path} path={`/${page.path}`} element={page.element} />
            ))}
          </CustomRoutes>
        </Admin>
      </AreaScreensProvider>
    );
  }
  /** Every route it serves (./routes.ts). */
  AreaApp.routes = areaRoutes(`/${area.name}`, area, { profile: Profile !== undefined });
  return AreaApp;
}
