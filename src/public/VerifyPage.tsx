/** /verify?email=: enter the e-mailed verification code (or ask for a new one); signs in. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { TextField } from './TextField';
import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { customerSignIn } from '../authProvider/signIn';
import { FormCard } from './FormCard';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';

const signIn = customerSignIn(publicApi);

export function VerifyPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const justSent = Boolean((useLocation().state as { sent?: boolean } | null)?.sent);
  const form = useApiForm({ email: search.get('email') ?? '', code: '' });
  const [sentTo, setSentTo] = useState(justSent ? form.values.email : '');

  const submit = form.submit(async ({ email, code }) => {
    await signIn.verify({ email, code });
    navigate('/admin', { replace: true });
  });
  const resend = form.submit(async ({ email }) => {
    await publicApi({ method: 'POST', path: '/api/admin/login/send_code', params: { email, purpose: 'verify' } });
    setSentTo(email);
  });

  return (
    <FormCard title={t('app.verify.title')} subtitle={t('app.verify.intro')} className="verify-page">
      {sentTo && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('app.auth.code_sent', { email: sentTo })}
        </Alert>
      )}
      <Box component="form" onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" autoComplete="email" fullWidth margin="dense" required />
        <TextField {...form.field('code')} label={t('app.auth.code')} inputMode="numeric" autoComplete="one-time-code" fullWidth margin="dense" required />
        <Button type="submit" variant="contained" fullWidth size="large" disabled={form.busy} sx={{ mt: 2 }}>
          {t('app.verify.submit')}
        </Button>
        <Button fullWidth onClick={() => resend()} disabled={form.busy || !form.values.email} sx={{ mt: 1 }} className="resend-code">
          {t('app.verify.resend')}
        </Button>
      </Box>
    </FormCard>
  );
}
