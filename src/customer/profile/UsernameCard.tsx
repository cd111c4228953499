import { inlineErrorsOnly } from '../../area/forms';
import { Form, SaveButton, TextInput, maxLength, required, useNotify } from 'react-admin';
import type { AccountInfo } from '../../authProvider/customer';
import { submitCall } from '../../area/formCall';
import { SectionCard } from '../../area/SectionCard';
import { useAreaCall } from '../../area/useAreaCall';
import { useSetAccount } from '../useAccount';

export function UsernameCard({ account }: { account: AccountInfo }) {
  const call = useAreaCall();
  const notify = useNotify();
  const setAccount = useSetAccount();
  const save = ({ username }: Record<string, unknown>) =>
    submitCall(
      () => call<AccountInfo>('POST', 'me/update_username', { username }),
      (answer) => {
        setAccount(answer);
        notify('app.profile.saved', { type: 'success' });
      },
    );
  return (
    <SectionCard title="app.profile.username_title" className="profile-username">
      <Form {...inlineErrorsOnly} onSubmit={save} record={{ username: account.username }}>
        <TextInput source="username" label="app.profile.username" validate={[required(), maxLength(64)]} fullWidth />
        <SaveButton label="ra.action.save" />
      </Form>
    </SectionCard>
  );
}
