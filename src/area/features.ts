/**
 * What an area is made of: one list of its features in menu order, each a resource's screens
 * (a ScreenFeature of a feature folder) or a page of its own, optionally gathered into the
 * menu's groups. The list is read out here.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import type { ReactElement } from 'react';
import type { Area, ResourceDeclaration } from '../../resources/define';
import { screenOf } from '../screens/registry';
import type { Screen, ScreenFeature } from '../screens/screen';

/**
 * The web app's areas: customers (/admin), operators (/manage) and mailbox owners (/mail). The
 * mailbox owners' area has pages only (no declared resource has screens there).
 */
export type AreaName = Area | 'mail';

/** A page of an area that is not a declared resource (e.g. the operators' jobs page). */
export interface AreaPage {
  path: string;
  label: string;
  icon: SvgIconComponent;
  element: ReactElement;
}

export type AreaFeature = ScreenFeature | AreaPage;

/** Features shown together in the menu, under a title that opens and closes them (a long menu reads by its groups). */
export interface AreaGroup {
  group: string;
  label: string;
  icon: SvgIconComponent;
  features: readonly AreaFeature[];
}

export type AreaEntry = AreaFeature | AreaGroup;

export type MenuEntry = Screen | AreaPage;
export interface MenuGroup extends Omit<AreaGroup, 'features'> {
  entries: MenuEntry[];
}

export const isPage = (entry: AreaFeature | Screen): entry is AreaPage => 'path' in entry;
export const isGroup = <T extends object>(entry: T | AreaGroup | MenuGroup): entry is AreaGroup | MenuGroup => 'group' in entry;

/**
 * An area's features as its app needs them: the menu in the list's order (with its groups), the
 * screens and the pages, and every declaration. A feature whose resource the area has no access
 * to makes no screen; its declaration still says how that resource's fields read (the activity
 * log). A group left without entries is not in the menu.
 */
export function areaContents(area: AreaName, entries: readonly AreaEntry[]) {
  const shown = (features: readonly AreaFeature[]) =>
    features.flatMap((feature): MenuEntry[] => {
      if (isPage(feature)) return [feature];
      const screen = screenOf(area as Area, feature);
      return screen ? [screen] : [];
    });
  const menu = entries.flatMap((entry): (MenuEntry | MenuGroup)[] => {
    if (!isGroup(entry)) return shown([entry]);
    const { features, ...group } = entry;
    const inGroup = shown(features);
    return inGroup.length ? [{ ...group, entries: inGroup }] : [];
  });
  const flat = menu.flatMap((entry) => (isGroup(entry) ? entry.entries : [entry]));
  const features = entries.flatMap((entry) => (isGroup(entry) ? entry.features : [entry]));
  return {
    menu,
    screens: flat.filter((entry): entry is Screen => !isPage(entry)),
    pages: flat.filter(isPage),
    declarations: features.flatMap((feature): ResourceDeclaration[] => (isPage(feature) ? [] : [feature.declaration])),
  };
}
