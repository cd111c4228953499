/** /404: where every unknown path ends. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router-dom';
import { usePublicI18n } from './usePublicI18n';

export function NotFoundPage() {
  const { t } = usePublicI18n();
  return (
    <Box sx={{ textAlign: 'center', py: 8 }} className="not-found-page">
      <Typography variant="h1" color="primary" sx={{ fontWeight: 700 }}>
        404
      </Typography>
      <Typography variant="h5" gutterBottom>
        {t('app.not_found.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('app.not_found.text')}
      </Typography>
      <Button variant="contained" component={Link} to="/">
        {t('app.not_found.home')}
      </Button>
    </Box>
  );
}
