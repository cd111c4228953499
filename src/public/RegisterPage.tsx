/** /register: create an account; a verification code is e-mailed, entered on /verify. */
import { useNavigate } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { FormCard, SubmitButton } from './FormCard';
import { TextField } from './TextField';
import { TextLink } from './ui';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { useReturnPath, withNext } from './returnPath';

export function RegisterPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  // The page wanted before signing in, kept through verification.
  const next = useReturnPath('/admin');
  const form = useApiForm({ email: '', username: '', password: '', confirm: '' });

  const submit = form.submit(async ({ email, username, password, confirm }) => {
    if (password !== confirm) return form.setErrors({ confirm: t('app.profile.mismatch') });
    await publicApi({ method: 'POST', path: '/api/admin/login/register', params: { email, password, ...(username ? { username } : {}) } });
    navigate(withNext(`/verify?email=${encodeURIComponent(email.trim().toLowerCase())}`, next, '/admin'), { state: { sent: true } });
  });

  return (
    <FormCard title={t('app.register.title')} subtitle={t('app.register.intro')} className="register-page">
      <form onSubmit={submit} noValidate>
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" autoComplete="email" fullWidth margin="dense" required />
        <TextField {...form.field('username')} label={t('app.register.username')} autoComplete="nickname" fullWidth margin="dense" />
        <TextField {...form.field('password')} label={t('app.auth.password')} type="password" autoComplete="new-password" fullWidth margin="dense" required />
        <TextField {...form.field('confirm')} label={t('app.profile.confirm_password')} type="password" autoComplete="new-password" fullWidth margin="dense" required />
        <SubmitButton busy={form.busy}>{t('app.register.submit')}</SubmitButton>
      </form>
      <div className="form-card-links">
        <TextLink to={withNext('/login', next, '/admin')}>{t('app.register.have_account')}</TextLink>
      </div>
    </FormCard>
  );
}
