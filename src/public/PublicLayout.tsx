/** The frame of the public pages: brand, links, language switch. */
import { Link, Outlet } from 'react-router-dom';
import { locales, type Locale } from '../i18n';
import { ArrowDropDownIcon, MailOutlineIcon } from './icons';
import { LinkButton } from './ui';
import { usePublicI18n } from './usePublicI18n';

function LocaleSwitch() {
  const { locale, setLocale, t } = usePublicI18n();
  return (
    <div className="locale-switch-box">
      <select value={locale} onChange={(e) => void setLocale(e.target.value as Locale)} aria-label={t('app.nav.language')} className="locale-switch">
        {locales.map((l) => (
          <option key={l.locale} value={l.locale}>
            {l.name}
          </option>
        ))}
      </select>
      <ArrowDropDownIcon />
    </div>
  );
}

export function PublicLayout() {
  const { t } = usePublicI18n();
  return (
    <div className="site">
      <header className="site-bar">
        <MailOutlineIcon />
        <Link to="/" className="site-brand ui-h6">
          Maildesk
        </Link>
        <LinkButton inherit to="/login">
          {t('app.nav.login')}
        </LinkButton>
        <LinkButton inherit to="/register">
          {t('app.nav.register')}
        </LinkButton>
        <LocaleSwitch />
      </header>
      <main className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        © Maildesk · <Link to="/login-manage">{t('app.nav.operator_area')}</Link>
      </footer>
    </div>
  );
}
