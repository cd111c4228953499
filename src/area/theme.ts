/** react-admin's default theme in our colours and fonts. */
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { palette, typography } from '../theme';

export const areaTheme: RaThemeOptions = { ...defaultTheme, palette: { ...defaultTheme.palette, ...palette }, typography };
