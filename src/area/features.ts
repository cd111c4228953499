/**
 * What an area is made of: one list of its features in menu order, each a resource's screens
 * (a ScreenFeature of a feature folder) or a page of its own. The list is read out here.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import type { ReactElement } from 'react';
import type { Area, ResourceDeclaration } from '../../resources/define';
import { screenOf } from '../screens/registry';
import type { Screen, ScreenFeature } from '../screens/screen';

/** A page of an area that is not a declared resource (e.g. the operators' jobs page). */
export interface AreaPage {
  path: string;
  label: string;
  icon: SvgIconComponent;
  element: ReactElement;
}

export type AreaFeature = ScreenFeature | AreaPage;

export const isPage = (entry: AreaFeature | Screen): entry is AreaPage => 'path' in entry;

/**
 * An area's features as its app needs them: the menu in the list's order, the screens and the
 * pages, and every declaration. A feature whose resource the area has no access to makes no
 * screen; its declaration still says how that resource's fields read (the activity log).
 */
export function areaContents(area: Area, features: readonly AreaFeature[]) {
  const menu = features.flatMap((feature): (Screen | AreaPage)[] => {
    if (isPage(feature)) return [feature];
    const screen = screenOf(area, feature);
    return screen ? [screen] : [];
  });
  return {
    menu,
    screens: menu.filter((entry): entry is Screen => !isPage(entry)),
    pages: menu.filter(isPage),
    declarations: features.flatMap((feature): ResourceDeclaration[] => (isPage(feature) ? [] : [feature.declaration])),
  };
}
