/**
 * Every route an area serves, as one list: its home page, its profile page, its own pages and
 * each screen's list, create, update (?id=) and view (?id=) pages. The area mounts its screens'
 * routes by screenRoutes, and the browser walk (tests/e2e/route-walk.e2e.ts) visits this list,
 * so that a screen or page added to an area is walked without a test naming it.
 */
import { allows, pagesOf } from '../screens/registry';
import type { Screen } from '../screens/screen';

/** The pages of a screen that are mounted: a create form only where the area may create, an update form only where it may update. */
export function screenRoutes(screen: Screen) {
  const pages = pagesOf(screen);
  return {
    list: Boolean(screen.config.list),
    create: pages.form && allows(screen, 'create'),
    update: pages.form && pages.update,
    view: pages.view,
  };
}

export type AreaRoute =
  | { kind: 'dashboard' | 'profile' | 'page'; path: string }
  | { kind: 'list' | 'create' | 'update' | 'view'; path: string; screen: Screen };

/** `path`: the full path, without the record's ?id= of update and view pages. */
export function areaRoutes(basename: string, contents: { screens: readonly Screen[]; pages: readonly { path: string }[] }, options: { profile: boolean }): AreaRoute[] {
  const routes: AreaRoute[] = [{ kind: 'dashboard', path: basename }];
  if (options.profile) routes.push({ kind: 'profile', path: `${basename}/profile` });
  for (const page of contents.pages) routes.push({ kind: 'page', path: `${basename}/${page.path}` });
  for (const screen of contents.screens) {
    const mounted = screenRoutes(screen);
    for (const kind of ['list', 'create', 'update', 'view'] as const) {
      if (mounted[kind]) routes.push({ kind, screen, path: kind === 'list' ? `${basename}/${screen.name}` : `${basename}/${screen.name}/${kind}` });
    }
  }
  return routes;
}
