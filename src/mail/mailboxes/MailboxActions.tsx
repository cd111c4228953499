/**
 * The customer's mailbox buttons beside the form: a new password (update_password), and the
 * delivery check (send_verify_code) in its two steps — send a code to the mailbox, then enter
 * the code read there.
 */
import KeyIcon from '@mui/icons-material/Key';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import { useState } from 'react';
import { Button, PasswordInput, TextInput, minLength, regex, required, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { CallDialog } from '../../area/CallDialog';
import { useAreaCall } from '../../area/useAreaCall';

export function ChangePasswordButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  return (
    <>
      <Button label="app.mailbox.change_password" onClick={() => setOpen(true)} className="mailbox-password">
        <KeyIcon />
      </Button>
      <CallDialog
        open={open}
        title="app.mailbox.change_password"
        submitLabel="ra.action.save"
        className="mailbox-password-dialog"
        onClose={() => setOpen(false)}
        call={({ password }) => call('POST', 'email/update_password', { id: record.id, password })}
        onDone={() => {
          setOpen(false);
          notify('app.mailbox.password_saved', { type: 'success' });
        }}
      >
        <PasswordInput source="password" label="app.profile.new_password" validate={[required(), minLength(8)]} helperText="app.profile.password_policy" autoComplete="new-password" fullWidth />
      </CallDialog>
    </>
  );
}

export function DeliveryCheckButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const send = async () => {
    try {
      await call('POST', 'email/send_verify_code', { id: record.id });
      setOpen(true);
    } catch {
      // The WARNING alert has said why (e.g. the mailbox is inactive).
    }
  };
  return (
    <>
      <Button label="app.mailbox.check_delivery" onClick={send} disabled={!record.active} className="mailbox-check">
        <MarkEmailReadIcon />
      </Button>
      <CallDialog
        open={open}
        title="app.mailbox.check_delivery"
        submitLabel="app.mailbox.confirm_code"
        className="mailbox-check-dialog"
        onClose={() => setOpen(false)}
        call={({ code }) => call('POST', 'email/send_verify_code', { id: record.id, code })}
        onDone={() => {
          setOpen(false);
          notify('app.mailbox.delivery_ok', { type: 'success' });
          refresh();
        }}
      >
        <p>{translate('app.mailbox.code_sent', { address: record.address_unicode ?? record.address })}</p>
        <TextInput source="code" label="app.auth.code" validate={[required(), regex(/^\d{6}$/, 'validation.code_format')]} autoComplete="one-time-code" fullWidth />
      </CallDialog>
    </>
  );
}
