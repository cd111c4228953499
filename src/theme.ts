/** One look for the public pages and both areas. */
import { createTheme } from '@mui/material/styles';

export const palette = { primary: { main: '#1565c0' }, secondary: { main: '#00897b' } };
export const typography = {
  fontFamily: ['-apple-system', 'BlinkMacSystemFont', '"Segoe UI"', 'Roboto', '"Noto Sans CJK SC"', '"PingFang SC"', '"Microsoft YaHei"', 'sans-serif'].join(','),
};

export const publicTheme = createTheme({ palette, typography });
