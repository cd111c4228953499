/** A small form in a dialog around one API call (server field errors beside the fields). */
import { inlineErrorsOnly } from './forms';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { ReactNode } from 'react';
import { Button, Form, SaveButton, useTranslate } from 'react-admin';
import { submitCall } from './formCall';

export function CallDialog<T>(props: {
  open: boolean;
  title: string;
  submitLabel: string;
  onClose: () => void;
  call: (values: Record<string, unknown>) => Promise<T>;
  onDone: (answer: T) => void;
  className?: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  const { open, title, submitLabel, onClose, call, onDone, className, children } = props;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" className={className}>
      {/* An empty record: the page's record (e.g. a guest message's subject) must not fill the dialog's fields. */}
      <Form {...inlineErrorsOnly} record={{}} onSubmit={(values: Record<string, unknown>) => submitCall(() => call(values), onDone)}>
        <DialogTitle>{translate(title)}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={onClose} />
          <SaveButton label={submitLabel} icon={<></>} alwaysEnable />
        </DialogActions>
      </Form>
    </Dialog>
  );
}
