import { inlineErrorsOnly } from './forms';
import { BooleanInput, Form, PasswordInput, SaveButton, minLength, required, useNotify } from 'react-admin';
import { useState } from 'react';
import { submitCall } from './formCall';
import { SectionCard } from './SectionCard';
import { useAreaCall } from './useAreaCall';

const sameAsNew = (value: unknown, values: Record<string, unknown>) => (value === values.password ? undefined : 'app.profile.mismatch');

/**
 * Change one's password (the current one is required); used by every area. Where people have API
 * keys (`apiKeys`), they may revoke them all with it: a key made from a stolen session would
 * outlive the new password.
 */
export function PasswordCard({ path, apiKeys = false }: { path: string; apiKeys?: boolean }) {
  const call = useAreaCall();
  const notify = useNotify();
  const [generation, setGeneration] = useState(0);
  const save = ({ old_password, password, revoke_api_keys }: Record<string, unknown>) =>
    submitCall(
      () => call('POST', path, { old_password, password, ...(apiKeys ? { revoke_api_keys: revoke_api_keys === true } : {}) }),
      () => {
        notify(apiKeys && revoke_api_keys === true ? 'app.profile.password_saved_keys_revoked' : 'app.profile.password_saved', { type: 'success' });
        setGeneration((g) => g + 1);
      },
    );
  return (
    <SectionCard title="app.profile.password_title" className="profile-password">
      <Form {...inlineErrorsOnly} key={generation} onSubmit={save}>
        <PasswordInput source="old_password" label="app.profile.old_password" validate={required()} autoComplete="current-password" fullWidth />
        <PasswordInput source="password" label="app.profile.new_password" validate={[required(), minLength(8)]} helperText="app.profile.password_policy" autoComplete="new-password" fullWidth />
        <PasswordInput source="confirm" label="app.profile.confirm_password" validate={[required(), sameAsNew]} autoComplete="new-password" fullWidth />
        {apiKeys && <BooleanInput source="revoke_api_keys" label="app.profile.revoke_api_keys" helperText="app.profile.revoke_api_keys_hint" defaultValue={false} />}
        <SaveButton label="ra.action.save" />
      </Form>
    </SectionCard>
  );
}
