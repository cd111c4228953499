/** /login-manage: an operator signs in. */
import { useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { operatorSignIn } from '../authProvider/signIn';
import { FormCard, SubmitButton } from './FormCard';
import { SessionEndedNotice } from './SessionEndedNotice';
import { TextField } from './TextField';
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
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('username')} label={t('app.auth.username')} autoComplete="username" fullWidth margin="dense" required />
        <TextField {...form.field('password')} label={t('app.auth.password')} type="password" autoComplete="current-password" fullWidth margin="dense" required />
        <SubmitButton busy={form.busy}>{t('app.login.submit')}</SubmitButton>
      </form>
    </FormCard>
  );
}
