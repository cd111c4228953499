/**
 * The <Resource> of a screen: its list at /<area>/<name>, and beside it, as ordinary routes,
 * the shared create/update form (/create, /update?id=) and the view page (/view?id=), those
 * the area has (area/routes.ts).
 */
import { Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import type { Screen } from './screen';
import { screenRoutes } from '../area/routes';
import { ScreenList } from './ScreenList';
import { ScreenForm } from './ScreenForm';
import { ScreenView } from './ScreenView';
import { representationOf } from './representation';

export function resourceOf(screen: Screen) {
  const mounted = screenRoutes(screen);
  const View = screen.extension.viewPage ?? ScreenView;
  return (
    <Resource
      key={screen.name}
      name={screen.name}
      icon={screen.icon}
      list={screen.config.list ? <ScreenList screen={screen} /> : undefined}
      hasCreate={mounted.create}
      hasEdit={mounted.update}
      hasShow={mounted.view}
      recordRepresentation={representationOf(screen)}
    >
      {mounted.create && <Route path="create" element={<ScreenForm screen={screen} mode="create" />} />}
      {mounted.update && <Route path="update" element={<ScreenForm screen={screen} mode="update" />} />}
      {mounted.view && <Route path="view" element={<View screen={screen} />} />}
    </Resource>
  );
}
