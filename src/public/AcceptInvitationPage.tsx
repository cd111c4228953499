/** /accept-invitation?token=: a team invitation's link; the invitee chooses a password and is signed in. */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { publicApi } from '../api/clients';
import { customerSignIn } from '../authProvider/signIn';
import { FormCard, SubmitButton } from './FormCard';
import { TextField } from './TextField';
import { Alert } from './ui';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';
import { orSecondStep, type PendingSignIn } from '../security/pending';
import { SecondStep } from '../security/SecondStep';

const signIn = customerSignIn(publicApi);

export function AcceptInvitationPage() {
  const { t } = usePublicI18n();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const form = useApiForm({ password: '', confirm: '' });
  const [pending, setPending] = useState<PendingSignIn>();
  const enter = () => navigate('/admin', { replace: true });

  const submit = form.submit(async ({ password, confirm }) => {
    if (password !== confirm) return form.setErrors({ confirm: t('app.profile.mismatch') });
    // The customer may require a second factor of the team: the new member sets one up first.
    await orSecondStep(async () => {
      await signIn.acceptInvitation({ token, password });
      enter();
    }, setPending);
  });

  if (pending) {
    return (
      <FormCard title={t('app.second_factor.title')} className="accept-invitation-page second-factor-page">
        <SecondStep area="admin" pending={pending} onSignedIn={enter} onRestart={() => navigate('/login', { replace: true })} />
      </FormCard>
    );
  }

  return (
    <FormCard title={t('app.accept_invitation.title')} subtitle={t('app.accept_invitation.intro')} className="accept-invitation-page">
      {!token ? (
        <Alert severity="warning">{t('app.accept_invitation.no_token')}</Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <TextField {...form.field('password')} label={t('app.profile.new_password')} type="password" autoComplete="new-password" fullWidth margin="dense" required />
          <TextField {...form.field('confirm')} label={t('app.profile.confirm_password')} type="password" autoComplete="new-password" fullWidth margin="dense" required />
          <SubmitButton busy={form.busy}>{t('app.accept_invitation.submit')}</SubmitButton>
        </form>
      )}
    </FormCard>
  );
}
