/** /verify?email=: enter the e-mailed verification code (or ask for a new one); signs in. */
import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { customerSignIn } from '../authProvider/signIn';
import { FormCard, SubmitButton } from './FormCard';
import { TextField } from './TextField';
import { Alert, Button } from './ui';
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
      {sentTo && <Alert severity="info">{t('app.auth.code_sent', { email: sentTo })}</Alert>}
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" autoComplete="email" fullWidth margin="dense" required />
        <TextField {...form.field('code')} label={t('app.auth.code')} inputMode="numeric" autoComplete="one-time-code" fullWidth margin="dense" required />
        <SubmitButton busy={form.busy}>{t('app.verify.submit')}</SubmitButton>
        <Button fullWidth onClick={() => resend()} disabled={form.busy || !form.values.email} className="resend-code">
          {t('app.verify.resend')}
        </Button>
      </form>
    </FormCard>
  );
}
