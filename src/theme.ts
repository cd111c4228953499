/**
 * One look for the areas and the dialogs (MUI themes), and the public pages (public.css, which
 * writes the same colours and fonts out as CSS: change both together).
 */
import { createTheme } from '@mui/material/styles';

export const palette = { primary: { main: '#1565c0' }, secondary: { main: '#00897b' } };
export const typography = {
  fontFamily: ['-apple-system', 'BlinkMacSystemFont', '"Segoe UI"', 'Roboto', '"Noto Sans CJK SC"', '"PingFang SC"', '"Microsoft YaHei"', 'sans-serif'].join(','),
};

/** The dialogs' theme: they open over the public pages and the areas alike, outside react-admin's theme. */
export const dialogTheme = createTheme({ palette, typography });
