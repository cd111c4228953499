/**
 * Delete through the confirm dialog: "this will permanently delete the record, continue?";
 * confirming says "deleted successfully", cancelling says "cancelled". A screen may ask its own
 * question (naming the record) and check something first (beforeDelete: a product's orders).
 */
import DeleteIcon from '@mui/icons-material/Delete';
import { Button, useDelete, useNotify, useRecordContext, useRedirect, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import type { MouseEvent } from 'react';
import { confirm } from '../dialogs/store';

export interface DeleteRecordButtonProps {
  redirectTo?: string;
  /** The question's key, or the question and the dialog's title in the record's own words. */
  question?: string | ((record: RaRecord) => { question: string; title: string });
  /** Asked before the question: false stops there, having told the person why (or offered another way). */
  beforeDelete?: (record: RaRecord) => Promise<boolean>;
  className?: string;
}

export function DeleteRecordButton({ redirectTo, question = 'app.delete.confirm', beforeDelete, className }: DeleteRecordButtonProps) {
  const record = useRecordContext();
  const resource = useResourceContext();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [deleteOne, { isPending }] = useDelete();
  if (!record || !resource) return null;

  const onClick = async (event: MouseEvent) => {
    event.stopPropagation();
    if (beforeDelete && !(await beforeDelete(record))) return;
    const asked = typeof question === 'function' ? question(record) : { question: translate(question), title: 'DELETE' };
    const confirmed = await confirm(asked.question, asked.title);
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
        // The WARNING alert has already reported why (an order made meanwhile: shop.product_has_orders).
        onError: () => undefined,
      },
    );
  };

  return (
    <Button label="ra.action.delete" onClick={onClick} disabled={isPending} color="error" className={className ? `delete-record ${className}` : 'delete-record'}>
      <DeleteIcon />
    </Button>
  );
}
