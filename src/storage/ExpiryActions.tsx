/**
 * A block's expiry in lists and pages: customers renew it there; operators (billing) extend
 * it to a later date or end it now, with a reason kept in the audit log.
 */
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, DateTimeInput, TextInput, required, useBasename, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { CallDialog } from '../area/CallDialog';
import { useAreaCall } from '../area/useAreaCall';
import { FieldView } from '../screens/fields';
import type { FieldViewProps } from '../screens/screen';
import { RenewButton } from './Renewal';

/** The expiry, with Renew beside it in the customer area. */
export function ExpiryView(props: FieldViewProps) {
  const record = useRecordContext<{ id: number; expires_at: string | null }>();
  const customerArea = useBasename() === '/admin';
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <FieldView {...props} />
      {customerArea && record?.expires_at && <RenewButton blockId={record.id} />}
    </Stack>
  );
}

/** Extend and End now, on the operator's block page. */
export function ExpiryOperatorActions() {
  const record = useRecordContext<{ id: number; expires_at: string | null }>();
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'extend' | 'end' | null>(null);
  if (!record) return null;
  const done = (message: string) => async () => {
    notify(message, { type: 'success' });
    setDialog(null);
    await queryClient.invalidateQueries();
    refresh();
  };
  const ended = record.expires_at !== null && Date.parse(record.expires_at) <= Date.now();
  return (
    <>
      {record.expires_at !== null && <Button label="app.business.extend" onClick={() => setDialog('extend')} className="storage-extend" />}
      {!ended && <Button label="app.business.end" onClick={() => setDialog('end')} className="storage-end" />}
      <CallDialog
        open={dialog === 'extend'}
        title="app.business.extend_title"
        submitLabel="app.business.extend"
        onClose={() => setDialog(null)}
        call={(values) => call('POST', 'storage/extend', { id: record.id, expires_at: new Date(String(values.expires_at)).toISOString(), reason: values.reason })}
        onDone={done('app.business.extended')}
        className="storage-extend-dialog"
      >
        <DateTimeInput source="expires_at" label="app.business.new_expiry" validate={required()} fullWidth />
        <TextInput source="reason" label="app.business.reason" validate={required()} fullWidth multiline />
      </CallDialog>
      <CallDialog
        open={dialog === 'end'}
        title="app.business.end_title"
        submitLabel="app.business.end"
        onClose={() => setDialog(null)}
        call={(values) => call('POST', 'storage/end', { id: record.id, reason: values.reason })}
        onDone={done('app.business.ended')}
        className="storage-end-dialog"
      >
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate('app.business.end_hint')}
        </Typography>
        <TextInput source="reason" label="app.business.reason" validate={required()} fullWidth multiline />
      </CallDialog>
    </>
  );
}
