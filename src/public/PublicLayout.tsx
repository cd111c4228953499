/** The frame of the public pages: brand, links, language switch. */
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import NativeSelect from '@mui/material/NativeSelect';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import { Link, Outlet } from 'react-router-dom';
import { locales, type Locale } from '../i18n';
import { usePublicI18n } from './usePublicI18n';

// The browser's own select: MUI's Select would bring its menu, popover and modal into every public page.
export function LocaleSwitch() {
  const { locale, setLocale } = usePublicI18n();
  return (
    <NativeSelect
      value={locale}
      onChange={(e) => void setLocale(e.target.value as Locale)}
      inputProps={{ 'aria-label': 'language', className: 'locale-switch' }}
      disableUnderline
      sx={{ color: 'inherit', '& .MuiSvgIcon-root': { color: 'inherit' }, '& option': { color: 'text.primary' } }}
    >
      {locales.map((l) => (
        <option key={l.locale} value={l.locale}>
          {l.name}
        </option>
      ))}
    </NativeSelect>
  );
}

export function PublicLayout() {
  const { t } = usePublicI18n();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'grey.50' }}>
      <AppBar position="static" elevation={0}>
        <Toolbar sx={{ gap: 1 }}>
          <MailOutlineIcon />
          <Typography variant="h6" component={Link} to="/" sx={{ color: 'inherit', textDecoration: 'none', flexGrow: 1 }}>
            Maildesk
          </Typography>
          <Button color="inherit" component={Link} to="/login">
            {t('app.nav.login')}
          </Button>
          <Button color="inherit" component={Link} to="/register">
            {t('app.nav.register')}
          </Button>
          <LocaleSwitch />
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ flexGrow: 1, py: 4 }}>
        <Outlet />
      </Container>
      <Box component="footer" sx={{ py: 2, textAlign: 'center', color: 'text.secondary', fontSize: 13 }}>
        © Maildesk · <Link to="/login-manage">{t('app.nav.operator_area')}</Link>
      </Box>
    </Box>
  );
}
