/** /404: where every unknown path ends. */
import { LinkButton } from './ui';
import { usePublicI18n } from './usePublicI18n';

export function NotFoundPage() {
  const { t } = usePublicI18n();
  return (
    <div className="not-found-page">
      <h1 className="ui-h1">404</h1>
      <h5 className="ui-h5 ui-gutter">{t('app.not_found.title')}</h5>
      <p className="ui-body1 ui-secondary">{t('app.not_found.text')}</p>
      <LinkButton variant="contained" to="/">
        {t('app.not_found.home')}
      </LinkButton>
    </div>
  );
}
