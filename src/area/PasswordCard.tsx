import { inlineErrorsOnly } from './forms';
import { Form, PasswordInput, SaveButton, minLength, required, useNotify } from 'react-admin';
import { useState } from 'react';
import { submitCall } from './formCall';
import { SectionCard } from './SectionCard';
import { useAreaCall } from './useAreaCall';

const sameAsNew = (value: unknown, values: Record<string, unknown>) => (value === values.password ? undefined : 'app.profile.mismatch');

/** Change one's password (the current one is required); used by every area. */
export function PasswordCard({ path }: { path: string }) {
  const call = useAreaCall();
  const notify = useNotify();
  const [generation, setGeneration] = useState(0);
  const save = ({ old_password, password }: Record<string, unknown>) =>
    submitCall(
      () => call('POST', path, { old_password, password }),
      () => {
        notify('app.profile.password_saved', { type: 'success' });
        setGeneration((g) => g + 1);
      },
    );
  return (
    <SectionCard title="app.profile.password_title" className="profile-password">
      <Form {...inlineErrorsOnly} key={generation} onSubmit={save}>
        <PasswordInput source="old_password" label="app.profile.old_password" validate={required()} autoComplete="current-password" fullWidth />
        <PasswordInput source="password" label="app.profile.new_password" validate={[required(), minLength(8)]} helperText="app.profile.password_policy" autoComplete="new-password" fullWidth />
        <PasswordInput source="confirm" label="app.profile.confirm_password" validate={[required(), sameAsNew]} autoComplete="new-password" fullWidth />
        <SaveButton label="ra.action.save" />
      </Form>
    </SectionCard>
  );
}
