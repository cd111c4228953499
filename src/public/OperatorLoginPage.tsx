/** /login-manage: an operator signs in. */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { operatorSignIn } from '../authProvider/signIn';
import { FormCard, SubmitButton } from './FormCard';
import { SessionEndedNotice } from './SessionEndedNotice';
import { TextField } from './TextField';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { useReturnPath } from './returnPath';
import { orSecondStep, type PendingSignIn } from '../security/pending';
import { PasskeySignInButton, SecondStep } from '../security/SecondStep';

export function OperatorLoginPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const next = useReturnPath('/manage');
  const form = useApiForm({ username: '', password: '' });
  const [pending, setPending] = useState<PendingSignIn>();
  const enter = () => navigate(next, { replace: true });

  const submit = form.submit(({ username, password }) =>
    orSecondStep(async () => {
      await operatorSignIn(publicApi, { username, password });
      enter();
    }, setPending),
  );

  if (pending) {
    return (
      <FormCard title={t('app.second_factor.title')} className="operator-login-page second-factor-page">
        <SecondStep area="manage" pending={pending} onSignedIn={enter} onRestart={() => setPending(undefined)} />
      </FormCard>
    );
  }

  return (
    <FormCard title={t('app.manage_login.title')} className="operator-login-page">
      <SessionEndedNotice />
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('username')} label={t('app.auth.username')} autoComplete="username" fullWidth margin="dense" required />
        <TextField {...form.field('password')} label={t('app.auth.password')} type="password" autoComplete="current-password" fullWidth margin="dense" required />
        <SubmitButton busy={form.busy}>{t('app.login.submit')}</SubmitButton>
      </form>
      <PasskeySignInButton area="manage" onSignedIn={enter} />
    </FormCard>
  );
}
