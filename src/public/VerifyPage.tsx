/**
 * /verify?email=: enter the e-mailed verification code (or ask for one); signs in and goes on to the
 * page wanted before (?next=). Says a code was e-mailed only when one was: right after registering,
 * or after the button here (an account an operator made, or a later visit, has none yet).
 */
import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { customerSignIn } from '../authProvider/signIn';
import { FormCard, SubmitButton } from './FormCard';
import { TextField } from './TextField';
import { Alert, Button } from './ui';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { useReturnPath } from './returnPath';

const signIn = customerSignIn(publicApi);

export function VerifyPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const next = useReturnPath('/admin');
  const justSent = Boolean((useLocation().state as { sent?: boolean } | null)?.sent);
  const form = useApiForm({ email: search.get('email') ?? '', code: '' });
  const [sentTo, setSentTo] = useState(justSent ? form.values.email : '');

  const submit = form.submit(async ({ email, code }) => {
    await signIn.verify({ email, code });
    navigate(next, { replace: true });
  });
  const resend = form.submit(async ({ email }) => {
    await publicApi({ method: 'POST', path: '/api/admin/login/send_code', params: { email, purpose: 'verify' } });
    setSentTo(email);
  });

  return (
    <FormCard title={t('app.verify.title')} subtitle={t(sentTo ? 'app.verify.intro' : 'app.verify.intro_unsent')} className="verify-page">
      {sentTo && <Alert severity="info">{t('app.auth.code_sent', { email: sentTo })}</Alert>}
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" autoComplete="email" fullWidth margin="dense" required />
        <TextField {...form.field('code')} label={t('app.auth.code')} inputMode="numeric" autoComplete="one-time-code" fullWidth margin="dense" required />
        <SubmitButton busy={form.busy}>{t('app.verify.submit')}</SubmitButton>
        <Button fullWidth onClick={() => resend()} disabled={form.busy || !form.values.email} className="resend-code">
          {t(sentTo ? 'app.verify.resend' : 'app.verify.send')}
        </Button>
      </form>
    </FormCard>
  );
}
