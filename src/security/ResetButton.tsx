/** On a customer's page in the operators' area: reset the login's second factor (a lost phone), with the reason for the log. */
import LockResetIcon from '@mui/icons-material/LockReset';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Button, TextInput, maxLength, minLength, required, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { CallDialog } from '../area/CallDialog';
import { useAreaCall } from '../area/useAreaCall';

export function ResetSecondFactorButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  return (
    <>
      <Button label="app.second_factor.reset" onClick={() => setOpen(true)} className="reset-second-factor">
        <LockResetIcon />
      </Button>
      <CallDialog
        open={open}
        title="app.second_factor.reset"
        submitLabel="app.second_factor.reset"
        className="reset-second-factor-dialog"
        onClose={() => setOpen(false)}
        call={({ reason }) => call('POST', 'user/reset_second_factor', { id: record.id, reason: String(reason ?? '').trim() })}
        onDone={() => {
          setOpen(false);
          notify('app.second_factor.reset_done', { type: 'success' });
        }}
      >
        <Typography variant="body2" color="text.secondary">
          {translate('app.second_factor.reset_intro')}
        </Typography>
        <TextInput source="reason" label="app.second_factor.reason" validate={[required(), minLength(3), maxLength(500)]} fullWidth multiline />
      </CallDialog>
    </>
  );
}
