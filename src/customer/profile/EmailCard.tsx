/** Change the sign-in address in two steps: a code goes to the new address, then it is confirmed. */
import { inlineErrorsOnly } from '../../area/forms';
import { Form, SaveButton, TextInput, email, regex, required, useNotify, useTranslate } from 'react-admin';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { AccountInfo } from '../../authProvider/customer';
import { customerSession } from '../../authProvider/session';
import { submitCall } from '../../area/formCall';
import { SectionCard } from '../../area/SectionCard';
import { useAreaCall } from '../../area/useAreaCall';
import { useSetAccount } from '../useAccount';

export function EmailCard({ account }: { account: AccountInfo }) {
  const call = useAreaCall();
  const notify = useNotify();
  const translate = useTranslate();
  const setAccount = useSetAccount();
  const [pending, setPending] = useState<string>();

  const sendCode = ({ email: address }: Record<string, unknown>) =>
    submitCall(
      () => call('POST', 'me/update_email', { email: address }),
      () => setPending(String(address)),
    );
  const confirmCode = ({ code }: Record<string, unknown>) =>
    submitCall(
      () => call<AccountInfo>('POST', 'me/update_email', { email: pending, code }),
      (answer) => {
        setAccount(answer);
        customerSession.set({ ...customerSession.get(), email: answer.email, is_verified: 1 });
        setPending(undefined);
        notify('app.profile.email_saved', { type: 'success' });
      },
    );

  return (
    <SectionCard title="app.profile.email_title" className="profile-email">
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {translate('app.profile.current_email', { email: account.email })}
      </Typography>
      {pending ? (
        <Form {...inlineErrorsOnly} key="code" onSubmit={confirmCode}>
          <Typography variant="body2" gutterBottom>
            {translate('app.profile.code_sent', { email: pending })}
          </Typography>
          <TextInput source="code" label="app.auth.code" validate={[required(), regex(/^\d{6}$/, 'validation.code_format')]} fullWidth />
          <SaveButton label="app.profile.confirm_email" />
        </Form>
      ) : (
        <Form {...inlineErrorsOnly} key="address" onSubmit={sendCode}>
          <TextInput source="email" type="email" label="app.profile.new_email" validate={[required(), email()]} fullWidth />
          <SaveButton label="app.auth.send_code" />
        </Form>
      )}
    </SectionCard>
  );
}
