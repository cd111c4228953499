/** /login: the customer signs in with a password, or with a code e-mailed to them. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { TextField } from './TextField';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { customerSignIn, type CustomerSignedIn } from '../authProvider/signIn';
import { FormCard } from './FormCard';
import { SessionEndedNotice } from './SessionEndedNotice';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { useReturnPath } from './returnPath';

const signIn = customerSignIn(publicApi);

export function LoginPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const next = useReturnPath('/admin');
  const [mode, setMode] = useState<'password' | 'code'>('password');
  const [codeSent, setCodeSent] = useState(false);
  const form = useApiForm({ email: '', password: '', code: '' });

  const enter = (account: CustomerSignedIn) =>
    account.is_verified ? navigate(next, { replace: true }) : navigate(`/verify?email=${encodeURIComponent(account.email)}`, { replace: true });

  const submit = form.submit(async ({ email, password, code }) => {
    if (mode === 'password') return enter(await signIn.withPassword({ email, password }));
    if (!codeSent) {
      await publicApi({ method: 'POST', path: '/api/admin/login/send_code', params: { email, purpose: 'login' } });
      return setCodeSent(true);
    }
    return enter(await signIn.withCode({ email, code }));
  });

  return (
    <FormCard title={t('app.login.title')} className="login-page">
      {notice && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t(notice)}
        </Alert>
      )}
      <SessionEndedNotice />
      <Tabs value={mode} onChange={(_e, value) => setMode(value)} sx={{ mb: 2 }}>
        <Tab value="password" label={t('app.login.by_password')} />
        <Tab value="code" label={t('app.login.by_code')} className="tab-by-code" />
      </Tabs>
      <Box component="form" onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" autoComplete="email" fullWidth margin="dense" required />
        {mode === 'password' && (
          <TextField {...form.field('password')} label={t('app.auth.password')} type="password" autoComplete="current-password" fullWidth margin="dense" required />
        )}
        {mode === 'code' && codeSent && (
          <>
            <Alert severity="info" sx={{ my: 1 }}>
              {t('app.auth.code_sent', { email: form.values.email })}
            </Alert>
            <TextField {...form.field('code')} label={t('app.auth.code')} inputMode="numeric" autoComplete="one-time-code" fullWidth margin="dense" required />
          </>
        )}
        <Button type="submit" variant="contained" fullWidth size="large" disabled={form.busy} sx={{ mt: 2 }}>
          {mode === 'code' && !codeSent ? t('app.auth.send_code') : t('app.login.submit')}
        </Button>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 2, fontSize: 14 }}>
        <Link component={RouterLink} to="/register">
          {t('app.login.to_register')}
        </Link>
        <Link component={RouterLink} to="/forgot_password">
          {t('app.login.forgot')}
        </Link>
      </Box>
    </FormCard>
  );
}
