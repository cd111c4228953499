/** /: what the service offers, its products, and the contact form. */
import { lazy, Suspense } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import DnsIcon from '@mui/icons-material/Dns';
import InboxIcon from '@mui/icons-material/Inbox';
import AltRouteIcon from '@mui/icons-material/AltRoute';
import StorageIcon from '@mui/icons-material/Storage';
import { Link } from 'react-router-dom';
import { Products } from './Products';
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
    <Box className="index-page">
      <Box component="section" sx={{ textAlign: 'center', py: { xs: 4, md: 8 } }}>
        <Typography variant="h3" component="h1" sx={{ fontWeight: 700 }} gutterBottom>
          {t('app.index.title')}
        </Typography>
        <Typography variant="h6" color="text.secondary" sx={{ maxWidth: 720, mx: 'auto', mb: 4 }}>
          {t('app.index.tagline')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center' }}>
          <Button variant="contained" size="large" component={Link} to="/register">
            {t('app.index.start')}
          </Button>
          <Button variant="outlined" size="large" component={Link} to="/login">
            {t('app.nav.login')}
          </Button>
        </Box>
      </Box>
      <Box component="section" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))', gap: 2, mb: 6 }}>
        {features.map(({ key, Icon }) => (
          <Card key={key} variant="outlined">
            <CardContent>
              <Icon color="primary" />
              <Typography variant="h6" sx={{ mt: 1 }}>
                {t(`app.index.features.${key}.title`)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t(`app.index.features.${key}.text`)}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
      <Products />
      <Box component="section" id="contact">
        <Typography variant="h4" component="h2" gutterBottom>
          {t('app.contact.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('app.contact.intro')}
        </Typography>
        <Suspense fallback={null}>
          <ContactForm />
        </Suspense>
      </Box>
    </Box>
  );
}
