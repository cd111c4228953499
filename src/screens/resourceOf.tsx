/**
 * The <Resource> of a screen: its list at /<area>/<name>, and beside it, as ordinary routes,
 * the shared create/update form (/create, /update?id=) and the view page (/view?id=).
 */
import { Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import type { Screen } from './screen';
import { pagesOf } from './registry';
import { ScreenList } from './ScreenList';
import { ScreenForm } from './ScreenForm';
import { ScreenView } from './ScreenView';
import { representationOf } from './representation';

export function resourceOf(screen: Screen) {
  const pages = pagesOf(screen);
  const View = screen.extension.viewPage ?? ScreenView;
  return (
    <Resource
      key={screen.name}
      name={screen.name}
      icon={screen.icon}
      list={screen.config.list ? <ScreenList screen={screen} /> : undefined}
      hasCreate={Boolean(screen.config.create)}
      hasEdit={pages.update}
      hasShow={pages.view}
      recordRepresentation={representationOf(screen)}
    >
      {pages.form && <Route path="create" element={<ScreenForm screen={screen} mode="create" />} />}
      {pages.form && <Route path="update" element={<ScreenForm screen={screen} mode="update" />} />}
      {pages.view && <Route path="view" element={<View screen={screen} />} />}
    </Resource>
  );
}
