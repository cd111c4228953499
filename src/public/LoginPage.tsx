/** /login: the customer signs in with a password, or with a code e-mailed to them. */
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { customerSignIn, type CustomerSignedIn } from '../authProvider/signIn';
import { FormCard, SubmitButton } from './FormCard';
import { SessionEndedNotice } from './SessionEndedNotice';
import { TextField } from './TextField';
import { Alert, Tabs, TextLink } from './ui';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { useReturnPath, withNext } from './returnPath';
import { orSecondStep, type PendingSignIn } from '../security/pending';
import { PasskeySignInButton, SecondStep } from '../security/SecondStep';

const signIn = customerSignIn(publicApi);

export function LoginPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const next = useReturnPath('/admin');
  const [mode, setMode] = useState<'password' | 'code'>('password');
  const [codeSent, setCodeSent] = useState(false);
  const form = useApiForm({ email: '', password: '', code: '' });
  const [pending, setPending] = useState<PendingSignIn>();

  const enter = (account: CustomerSignedIn) =>
    account.is_verified ? navigate(next, { replace: true }) : navigate(withNext(`/verify?email=${encodeURIComponent(account.email)}`, next, '/admin'), { replace: true });

  const submit = form.submit(async ({ email, password, code }) => {
    if (mode === 'password') return orSecondStep(async () => enter(await signIn.withPassword({ email, password })), setPending);
    if (!codeSent) {
      await publicApi({ method: 'POST', path: '/api/admin/login/send_code', params: { email, purpose: 'login' } });
      return setCodeSent(true);
    }
    return orSecondStep(async () => enter(await signIn.withCode({ email, code })), setPending);
  });

  if (pending) {
    return (
      <FormCard title={t('app.second_factor.title')} className="login-page second-factor-page">
        <SecondStep<CustomerSignedIn> area="admin" pending={pending} onSignedIn={enter} onRestart={() => setPending(undefined)} />
      </FormCard>
    );
  }

  return (
    <FormCard title={t('app.login.title')} className="login-page">
      {notice && <Alert severity="success">{t(notice)}</Alert>}
      <SessionEndedNotice />
      <Tabs
        value={mode}
        onChange={setMode}
        tabs={[
          { value: 'password', label: t('app.login.by_password') },
          { value: 'code', label: t('app.login.by_code'), className: 'tab-by-code' },
        ]}
      />
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" autoComplete="email" fullWidth margin="dense" required />
        {mode === 'password' && (
          <TextField {...form.field('password')} label={t('app.auth.password')} type="password" autoComplete="current-password" fullWidth margin="dense" required />
        )}
        {mode === 'code' && codeSent && (
          <>
            <Alert severity="info">{t('app.auth.code_sent', { email: form.values.email })}</Alert>
            <TextField {...form.field('code')} label={t('app.auth.code')} inputMode="numeric" autoComplete="one-time-code" fullWidth margin="dense" required />
          </>
        )}
        <SubmitButton busy={form.busy}>{mode === 'code' && !codeSent ? t('app.auth.send_code') : t('app.login.submit')}</SubmitButton>
      </form>
      <PasskeySignInButton<CustomerSignedIn> area="admin" onSignedIn={enter} />
      <div className="form-card-links">
        <TextLink to={withNext('/register', next, '/admin')}>{t('app.login.to_register')}</TextLink>
        <TextLink to="/forgot_password">{t('app.login.forgot')}</TextLink>
      </div>
    </FormCard>
  );
}
