/** /mail/login: a mailbox owner signs in with the mailbox's address and password. */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { mailboxSignIn } from '../authProvider/signIn';
import { FormCard, SubmitButton } from './FormCard';
import { SessionEndedNotice } from './SessionEndedNotice';
import { TextField } from './TextField';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { useReturnPath } from './returnPath';
import { orSecondStep, type PendingSignIn } from '../security/pending';
import { PasskeySignInButton, SecondStep } from '../security/SecondStep';

export function MailboxLoginPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const next = useReturnPath('/mail');
  const form = useApiForm({ email: '', password: '' });
  const [pending, setPending] = useState<PendingSignIn>();
  const enter = () => navigate(next, { replace: true });

  const submit = form.submit(({ email, password }) =>
    orSecondStep(async () => {
      await mailboxSignIn(publicApi, { email: email.trim(), password });
      enter();
    }, setPending),
  );

  if (pending) {
    return (
      <FormCard title={t('app.second_factor.title')} className="mailbox-login-page second-factor-page">
        <SecondStep area="mail" pending={pending} onSignedIn={enter} onRestart={() => setPending(undefined)} />
      </FormCard>
    );
  }

  return (
    <FormCard title={t('app.mail_login.title')} subtitle={t('app.mail_login.intro')} className="mailbox-login-page">
      <SessionEndedNotice />
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.mail_login.address')} type="email" autoComplete="username" fullWidth margin="dense" required />
        <TextField {...form.field('password')} label={t('app.auth.password')} type="password" autoComplete="current-password" fullWidth margin="dense" required />
        <SubmitButton busy={form.busy}>{t('app.login.submit')}</SubmitButton>
      </form>
      <PasskeySignInButton area="mail" onSignedIn={enter} />
      <p className="ui-body2 ui-secondary form-card-note">{t('app.mail_login.forgot')}</p>
    </FormCard>
  );
}
