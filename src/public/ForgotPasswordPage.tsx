/** /forgot_password: a reset code is e-mailed; with it, a new password is set. */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { FormCard, SubmitButton } from './FormCard';
import { TextField } from './TextField';
import { Alert } from './ui';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';

export function ForgotPasswordPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const [sent, setSent] = useState(false);
  const form = useApiForm({ email: '', code: '', password: '', confirm: '' });

  const submit = form.submit(async ({ email, code, password, confirm }) => {
    if (!sent) {
      await publicApi({ method: 'POST', path: '/api/admin/login/forgot_password_send_email', params: { email } });
      return setSent(true);
    }
    if (password !== confirm) return form.setErrors({ confirm: t('app.profile.mismatch') });
    await publicApi({ method: 'POST', path: '/api/admin/login/forgot_password', params: { email, code, password } });
    navigate('/login', { state: { notice: 'app.forgot.done' } });
  });

  return (
    <FormCard title={t('app.forgot.title')} subtitle={t('app.forgot.intro')} className="forgot-page">
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" autoComplete="email" fullWidth margin="dense" required disabled={sent} />
        {sent && (
          <>
            <Alert severity="info">{t('app.auth.code_sent', { email: form.values.email })}</Alert>
            <TextField {...form.field('code')} label={t('app.auth.code')} inputMode="numeric" autoComplete="one-time-code" fullWidth margin="dense" required />
            <TextField {...form.field('password')} label={t('app.profile.new_password')} type="password" autoComplete="new-password" fullWidth margin="dense" required />
            <TextField {...form.field('confirm')} label={t('app.profile.confirm_password')} type="password" autoComplete="new-password" fullWidth margin="dense" required />
          </>
        )}
        <SubmitButton busy={form.busy}>{sent ? t('app.forgot.submit') : t('app.auth.send_code')}</SubmitButton>
      </form>
    </FormCard>
  );
}
