/**
 * The <Resource> of a screen: its list at /<area>/<name>, and beside it, as ordinary routes,
 * the shared create/update form (/create, /update?id=) and the view page (/view?id=).
 */
import { Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import type { ComponentType } from 'react';
import type { Screen } from './registry';
import { ScreenList, pagesOf } from './ScreenList';
import { ScreenForm } from './ScreenForm';
import { ScreenView } from './ScreenView';
import { extensionOf } from './extensionOf';

/** The field that names a record in titles: the first searchable one. */
export function representationOf(screen: Screen): string {
  const own = extensionOf(screen).representation;
  if (own) return own;
  const searchable = Object.entries(screen.declaration.fields).find(([, f]) => f.search && !f.writeOnly);
  return searchable?.[0] ?? 'id';
}

export function resourceOf(screen: Screen, icon?: ComponentType) {
  const pages = pagesOf(screen);
  return (
    <Resource
      key={screen.name}
      name={screen.name}
      icon={icon}
      list={screen.config.list ? <ScreenList screen={screen} /> : undefined}
      hasCreate={Boolean(screen.config.create)}
      hasEdit={pages.update}
      hasShow={pages.view}
      recordRepresentation={representationOf(screen)}
    >
      {pages.form && <Route path="create" element={<ScreenForm screen={screen} />} />}
      {pages.form && <Route path="update" element={<ScreenForm screen={screen} />} />}
      {pages.view && <Route path="view" element={<ScreenView screen={screen} />} />}
    </Resource>
  );
}
