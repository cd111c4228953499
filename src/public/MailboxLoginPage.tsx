/** /mail/login: a mailbox owner signs in with the mailbox's address and password. */
import { useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { mailboxSignIn } from '../authProvider/signIn';
import { FormCard, SubmitButton } from './FormCard';
import { SessionEndedNotice } from './SessionEndedNotice';
import { TextField } from './TextField';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { useReturnPath } from './returnPath';

export function MailboxLoginPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const next = useReturnPath('/mail');
  const form = useApiForm({ email: '', password: '' });

  const submit = form.submit(async ({ email, password }) => {
    await mailboxSignIn(publicApi, { email: email.trim(), password });
    navigate(next, { replace: true });
  });

  return (
    <FormCard title={t('app.mail_login.title')} subtitle={t('app.mail_login.intro')} className="mailbox-login-page">
      <SessionEndedNotice />
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.mail_login.address')} type="email" autoComplete="username" fullWidth margin="dense" required />
        <TextField {...form.field('password')} label={t('app.auth.password')} type="password" autoComplete="current-password" fullWidth margin="dense" required />
        <SubmitButton busy={form.busy}>{t('app.login.submit')}</SubmitButton>
      </form>
      <p className="ui-body2 ui-secondary form-card-note">{t('app.mail_login.forgot')}</p>
    </FormCard>
  );
}
