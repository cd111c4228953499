/** storage_max: the largest quota one mailbox may get, and the default for new ones (customer account only). */
import { inlineErrorsOnly } from '../../area/forms';
import { Form, NumberInput, SaveButton, maxValue, minValue, required, useNotify } from 'react-admin';
import type { AccountInfo } from '../../authProvider/customer';
import { submitCall } from '../../area/formCall';
import { SectionCard } from '../../area/SectionCard';
import { useAreaCall } from '../../area/useAreaCall';
import { MiB } from '../../screens/bytes';
import { useSetAccount } from '../useAccount';

export function StorageCard({ account }: { account: AccountInfo }) {
  const call = useAreaCall();
  const notify = useNotify();
  const setAccount = useSetAccount();
  const save = ({ storage_max }: Record<string, unknown>) =>
    submitCall(
      () => call<AccountInfo>('POST', 'me/update_storage_max', { storage_max: Math.round(Number(storage_max) * MiB) }),
      (answer) => {
        setAccount(answer);
        notify('app.profile.saved', { type: 'success' });
      },
    );
  return (
    <SectionCard title="app.profile.storage_title" className="profile-storage">
      <Form {...inlineErrorsOnly} onSubmit={save} record={{ storage_max: account.storage_max / MiB }}>
        <NumberInput
          source="storage_max"
          label="app.profile.storage_max"
          helperText="app.profile.storage_hint"
          validate={[required(), minValue(1), maxValue(1024 * 1024)]}
          step={1}
          fullWidth
        />
        <SaveButton label="ra.action.save" />
      </Form>
    </SectionCard>
  );
}
