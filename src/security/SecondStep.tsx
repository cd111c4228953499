/**
 * The sign-in pages' second step (plain HTML, like the rest of the public pages): a code from
 * the authenticator app or a recovery code, or a passkey; or, for a person who must have a
 * second factor and has none, setting up an authenticator app (its recovery codes shown once) or a
 * passkey.
 */
import { useState } from 'react';
import { publicApi } from '../api/clients';
import { signInStep, type SignInArea } from '../authProvider/signIn';
import { SubmitButton } from '../public/FormCard';
import { TextField } from '../public/TextField';
import { Alert, Button } from '../public/ui';
import { useApiForm } from '../public/useApiForm';
import { usePublicI18n } from '../public/usePublicI18n';
import { passkeyEnrolment, passkeySignIn } from './passkeys';
import type { PendingSignIn } from './pending';
import { RecoveryCodes, TotpQr } from './RecoveryCodes';

type SignedIn = { token: string };

interface Props<T extends SignedIn> {
  area: SignInArea;
  pending: PendingSignIn;
  onSignedIn: (signedIn: T) => void;
  onRestart: () => void;
}

export function SecondStep<T extends SignedIn>(props: Props<T>) {
  return props.pending.enrol ? <Enrolment {...props} /> : <Confirmation {...props} />;
}

function Confirmation<T extends SignedIn>({ area, pending, onSignedIn, onRestart }: Props<T>) {
  const { t } = usePublicI18n();
  const form = useApiForm({ code: '' });
  const [busy, setBusy] = useState(false);
  const hasCode = pending.methods.includes('totp');
  const submit = form.submit(async ({ code }) => onSignedIn(await signInStep<T>(publicApi, area, 'second_factor', { token: pending.token, code: code.trim() })));
  const usePasskey = async () => {
    setBusy(true);
    try {
      const signedIn = await passkeySignIn<T>(area, pending.token);
      if (signedIn) onSignedIn(signedIn);
    } catch {
      // Reported by the client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="second-step">
      <Alert severity="info">{t('app.second_factor.intro')}</Alert>
      {hasCode && (
        <form onSubmit={submit} noValidate>
          <TextField
            {...form.field('code')}
            label={t('app.second_factor.code')}
            helperText={form.errors.code ?? t('app.second_factor.code_hint')}
            inputMode="text"
            autoComplete="one-time-code"
            fullWidth
            margin="dense"
            required
          />
          <SubmitButton busy={form.busy}>{t('app.second_factor.submit')}</SubmitButton>
        </form>
      )}
      {pending.methods.includes('passkey') && (
        <Button variant={hasCode ? 'outlined' : 'contained'} fullWidth onClick={usePasskey} disabled={busy} className="second-step-passkey">
          {t('app.second_factor.use_passkey')}
        </Button>
      )}
      <div className="form-card-links">
        <Button inherit className="second-step-restart" onClick={onRestart}>
          {t('app.second_factor.start_over')}
        </Button>
      </div>
    </div>
  );
}

interface Enrolling {
  secret: string;
  otpauth_url: string;
  qr_svg: string;
}

function Enrolment<T extends SignedIn>({ area, pending, onSignedIn, onRestart }: Props<T>) {
  const { t } = usePublicI18n();
  const form = useApiForm({ code: '' });
  const [enrolling, setEnrolling] = useState<Enrolling>();
  const [done, setDone] = useState<T & { recovery_codes: string[] }>();
  const start = form.submit(async () => setEnrolling(await publicApi<Enrolling>({ method: 'POST', path: `/api/${area}/login/enrol_totp`, params: { token: pending.token } })));
  const confirm = form.submit(async ({ code }) => setDone(await signInStep<T & { recovery_codes: string[] }>(publicApi, area, 'enrol_totp_confirm', { token: pending.token, code: code.trim() })));
  const [busy, setBusy] = useState(false);
  const enrolPasskey = async () => {
    setBusy(true);
    try {
      const signedIn = await passkeyEnrolment<T>(area, pending.token, t('app.second_factor.enrol_passkey_name'));
      if (signedIn) onSignedIn(signedIn);
    } catch {
      // Reported by the client.
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <div className="second-step-recovery">
        <h2 className="ui-h6">{t('app.second_factor.recovery_title')}</h2>
        <Alert severity="warning">{t('app.second_factor.recovery_intro')}</Alert>
        <RecoveryCodes codes={done.recovery_codes} copyLabel={t('app.second_factor.copy')} copiedLabel={t('app.second_factor.copied')} />
        <Button variant="contained" fullWidth onClick={() => onSignedIn(done)} className="second-step-continue">
          {t('app.second_factor.continue')}
        </Button>
      </div>
    );
  }
  return (
    <div className="second-step-enrol">
      <h2 className="ui-h6">{t('app.second_factor.enrol_title')}</h2>
      <Alert severity="info">{t('app.second_factor.enrol_intro')}</Alert>
      {!enrolling && (
        <form onSubmit={start} noValidate>
          <SubmitButton busy={form.busy}>{t('app.second_factor.enrol_start')}</SubmitButton>
        </form>
      )}
      {!enrolling && pending.methods.includes('passkey') && (
        <Button variant="outlined" fullWidth onClick={enrolPasskey} disabled={busy} className="second-step-enrol-passkey">
          {t('app.second_factor.enrol_passkey')}
        </Button>
      )}
      {enrolling && (
        <form onSubmit={confirm} noValidate>
          <TotpQr svg={enrolling.qr_svg} alt={enrolling.otpauth_url} />
          <p className="ui-body2">
            {t('app.second_factor.secret')}: <code className="totp-secret">{enrolling.secret}</code>
          </p>
          <TextField {...form.field('code')} label={t('app.second_factor.totp_code')} inputMode="numeric" autoComplete="one-time-code" fullWidth margin="dense" required />
          <SubmitButton busy={form.busy}>{t('app.second_factor.confirm')}</SubmitButton>
        </form>
      )}
      <div className="form-card-links">
        <Button inherit className="second-step-restart" onClick={onRestart}>
          {t('app.second_factor.start_over')}
        </Button>
      </div>
    </div>
  );
}

/** "Sign in with a passkey": no password, the passkey names the person (and proves it by their PIN or biometrics). */
export function PasskeySignInButton<T extends SignedIn>({ area, onSignedIn }: { area: SignInArea; onSignedIn: (signedIn: T) => void }) {
  const { t } = usePublicI18n();
  const [busy, setBusy] = useState(false);
  const signIn = async () => {
    setBusy(true);
    try {
      const signedIn = await passkeySignIn<T>(area);
      if (signedIn) onSignedIn(signedIn);
    } catch {
      // Reported by the client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="passkey-sign-in">
      <p className="ui-body2 ui-secondary" style={{ textAlign: 'center', margin: '12px 0 4px' }}>
        {t('app.second_factor.or')}
      </p>
      <Button variant="outlined" fullWidth onClick={signIn} disabled={busy} className="passkey-sign-in-button">
        {t('app.second_factor.passkey_sign_in')}
      </Button>
    </div>
  );
}
