/** Operator buttons: grant or deduct a customer's points, end a promotion early. */
import AddCardIcon from '@mui/icons-material/AddCard';
import StopCircleIcon from '@mui/icons-material/StopCircle';
import { useState } from 'react';
import { Button, NumberInput, TextInput, maxLength, required, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { CallDialog } from '../area/CallDialog';
import { useAreaCall } from '../area/useAreaCall';

export function AddPointsButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  return (
    <>
      <Button label="app.shop.add_points" onClick={() => setOpen(true)} className="add-points">
        <AddCardIcon />
      </Button>
      <CallDialog
        open={open}
        title="app.shop.add_points"
        submitLabel="app.shop.add_points_submit"
        className="add-points-dialog"
        onClose={() => setOpen(false)}
        call={({ points, note }) => call<{ balance: number }>('POST', 'user/add_points', { user_id: record.id, points: Number(points), note })}
        onDone={(answer) => {
          setOpen(false);
          notify('app.shop.points_now', { type: 'success', messageArgs: { smart_count: answer.balance } });
          refresh();
        }}
      >
        <NumberInput source="points" label="app.shop.points_change" helperText="app.shop.points_change_hint" validate={required()} step={1} fullWidth />
        <TextInput source="note" label="app.shop.note" validate={[required(), maxLength(500)]} fullWidth />
      </CallDialog>
    </>
  );
}

export function EndPromotionButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record || record.ended_early_at || String(record.ends_at) <= new Date().toISOString()) return null;
  const end = async () => {
    try {
      await call('POST', 'activity/end', { id: record.id });
      notify('app.shop.promotion_ended', { type: 'success' });
      refresh();
    } catch {
      // The WARNING alert has said why.
    }
  };
  return (
    <Button label="app.shop.end_promotion" onClick={end} className="end-promotion">
      <StopCircleIcon />
    </Button>
  );
}
