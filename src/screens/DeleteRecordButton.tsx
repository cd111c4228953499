/**
 * Delete through the confirm dialog: "this will permanently delete the record, continue?";
 * confirming says "deleted successfully", cancelling says "cancelled".
 */
import DeleteIcon from '@mui/icons-material/Delete';
import { Button, useDelete, useNotify, useRecordContext, useRedirect, useResourceContext, useTranslate } from 'react-admin';
import type { MouseEvent } from 'react';
import { confirm } from '../dialogs/store';

export function DeleteRecordButton({ redirectTo, question = 'app.delete.confirm' }: { redirectTo?: string; question?: string }) {
  const record = useRecordContext();
  const resource = useResourceContext();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [deleteOne, { isPending }] = useDelete();
  if (!record || !resource) return null;

  const onClick = async (event: MouseEvent) => {
    event.stopPropagation();
    const confirmed = await confirm(translate(question), 'DELETE');
    if (!confirmed) {
      notify('app.delete.cancelled', { type: 'info' });
      return;
    }
    await deleteOne(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('app.delete.done', { type: 'success' });
          if (redirectTo) redirect(redirectTo);
        },
        // The WARNING alert has already reported why.
        onError: () => undefined,
      },
    );
  };

  return (
    <Button label="ra.action.delete" onClick={onClick} disabled={isPending} color="error" className="delete-record">
      <DeleteIcon />
    </Button>
  );
}
