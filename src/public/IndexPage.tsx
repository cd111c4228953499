/** /: what the service offers, its products, and the contact form. */
import { lazy, Suspense } from 'react';
import { AltRouteIcon, DnsIcon, InboxIcon, StorageIcon } from './icons';
import { Products } from './Products';
import { Card, LinkButton } from './ui';
import { usePublicI18n } from './usePublicI18n';

// Below the fold: its text fields load after the page has painted.
const ContactForm = lazy(() => import('./ContactForm').then((m) => ({ default: m.ContactForm })));

const features = [
  { key: 'domains', Icon: DnsIcon },
  { key: 'mailboxes', Icon: InboxIcon },
  { key: 'aliases', Icon: AltRouteIcon },
  { key: 'storage', Icon: StorageIcon },
] as const;

export function IndexPage() {
  const { t } = usePublicI18n();
  return (
    <div className="index-page">
      <section className="index-hero">
        <h1 className="ui-h3 ui-gutter">{t('app.index.title')}</h1>
        <h6 className="ui-h6 ui-secondary index-tagline">{t('app.index.tagline')}</h6>
        <div className="index-actions">
          <LinkButton variant="contained" size="large" to="/register">
            {t('app.index.start')}
          </LinkButton>
          <LinkButton variant="outlined" size="large" to="/login">
            {t('app.nav.login')}
          </LinkButton>
        </div>
      </section>
      <section className="index-features">
        {features.map(({ key, Icon }) => (
          <Card key={key} outlined>
            <Icon />
            <h6 className="ui-h6">{t(`app.index.features.${key}.title`)}</h6>
            <p className="ui-body2 ui-secondary">{t(`app.index.features.${key}.text`)}</p>
          </Card>
        ))}
      </section>
      <Products />
      <section id="contact">
        <h2 className="ui-h4 ui-gutter">{t('app.contact.title')}</h2>
        <p className="ui-body1 ui-secondary index-contact-intro">{t('app.contact.intro')}</p>
        <Suspense fallback={null}>
          <ContactForm />
        </Suspense>
      </section>
    </div>
  );
}
