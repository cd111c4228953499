/**
 * What a session alone may not do (turn the authenticator app off, make new recovery codes or an
 * API key) asks for the person's password or a current code from their authenticator app; the
 * server's refusal is shown under this field.
 */
import { PasswordInput, required } from 'react-admin';

export const ConfirmationInput = () => (
  <PasswordInput
    source="confirmation"
    label="app.second_factor.confirmation"
    helperText="app.second_factor.confirmation_hint"
    validate={required('validation.confirmation_required')}
    autoComplete="current-password"
    fullWidth
  />
);

/** The field's value as the server takes it. */
export const confirmationOf = (values: Record<string, unknown>) => String(values.confirmation ?? '');
