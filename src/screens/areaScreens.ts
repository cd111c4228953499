/**
 * The screens of the area a page belongs to, for what one screen says about another (a
 * reference's column, filter and picker, a ticket's linked record, the activity log's values).
 * Each area's <Admin> provides its own: the screens know no feature.
 */
import { createContext, useContext } from 'react';
import type { ResourceDeclaration } from '../../resources/define';
import type { Screen } from './screen';

export interface AreaScreens {
  screens: readonly Screen[];
  /** Every declaration the area's features give, also those without a screen here (the activity log reads their fields). */
  declarations: readonly ResourceDeclaration[];
}

const AreaScreensContext = createContext<AreaScreens>({ screens: [], declarations: [] });

export const AreaScreensProvider = AreaScreensContext.Provider;

export const useAreaScreens = () => useContext(AreaScreensContext);

/** The screen, among an area's, of the resource a declaration names (e.g. customer → "user" in /manage). */
export function screenNamed(screens: readonly Screen[], declarationName: string | undefined): Screen | undefined {
  return declarationName ? screens.find((s) => s.declaration.name === declarationName) : undefined;
}

export const useScreenNamed = (declarationName: string | undefined) => screenNamed(useAreaScreens().screens, declarationName);
