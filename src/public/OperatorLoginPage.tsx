/** /login-manage: an operator signs in. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { TextField } from './TextField';
import { useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { operatorSignIn } from '../authProvider/signIn';
import { FormCard } from './FormCard';
import { SessionEndedNotice } from './SessionEndedNotice';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { useReturnPath } from './returnPath';

export function OperatorLoginPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const next = useReturnPath('/manage');
  const form = useApiForm({ username: '', password: '' });

  const submit = form.submit(async ({ username, password }) => {
    await operatorSignIn(publicApi, { username, password });
    navigate(next, { replace: true });
  });

  return (
    <FormCard title={t('app.manage_login.title')} className="operator-login-page">
      <SessionEndedNotice />
      <Box component="form" onSubmit={submit} noValidate>
        <TextField {...form.field('username')} label={t('app.auth.username')} autoComplete="username" fullWidth margin="dense" required />
        <TextField {...form.field('password')} label={t('app.auth.password')} type="password" autoComplete="current-password" fullWidth margin="dense" required />
        <Button type="submit" variant="contained" fullWidth size="large" disabled={form.busy} sx={{ mt: 2 }}>
          {t('app.login.submit')}
        </Button>
      </Box>
    </FormCard>
  );
}
