/** Renders the current dialog of the dialog store (mounted once, at the root of the app). */
import { useState, useSyncExternalStore, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { ThemeProvider } from '@mui/material/styles';
import { dialogTheme } from '../theme';
import { alertClass, currentDialog, settle, subscribe, type DialogRequest } from './store';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The text of a dialog title: "WARNING" reads as app.dialog.title.warning when there is such a key. */
function titleText(title: string, translate: Translate) {
  return translate(`app.dialog.title.${title.toLowerCase()}`, { _: title });
}

function Message({ message }: { message: DialogRequest['message'] }) {
  if (message === undefined || message === null || message === '') return null;
  return typeof message === 'string' ? <DialogContentText sx={{ whiteSpace: 'pre-line' }}>{message}</DialogContentText> : <>{message}</>;
}

function PromptBody({ request, translate }: { request: DialogRequest; translate: Translate }) {
  const [value, setValue] = useState(request.defaultValue ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    settle(request.id, value);
  };
  return (
    <form onSubmit={submit}>
      <DialogContent>
        <Message message={request.message} />
        <TextField autoFocus fullWidth margin="dense" value={value} onChange={(e) => setValue(e.target.value)} inputProps={{ 'aria-label': 'prompt' }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => settle(request.id, '')}>{translate('app.dialog.cancel')}</Button>
        <Button type="submit" variant="contained">
          {translate('app.dialog.ok')}
        </Button>
      </DialogActions>
    </form>
  );
}

function Body({ request, translate }: { request: DialogRequest; translate: Translate }) {
  const done = (value: unknown) => settle(request.id, value);
  switch (request.kind) {
    case 'alert':
      return (
        <>
          <DialogContent>
            <Message message={request.message} />
          </DialogContent>
          <DialogActions>
            <Button autoFocus variant="contained" onClick={() => done(undefined)}>
              {translate('app.dialog.ok')}
            </Button>
          </DialogActions>
        </>
      );
    case 'confirm':
      return (
        <>
          <DialogContent>
            <Message message={request.message} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => done(false)}>{translate('app.dialog.cancel')}</Button>
            <Button autoFocus variant="contained" onClick={() => done(true)}>
              {translate('app.dialog.ok')}
            </Button>
          </DialogActions>
        </>
      );
    case 'prompt':
      return <PromptBody key={request.id} request={request} translate={translate} />;
    case 'custom':
      return <DialogContent>{request.render?.(done)}</DialogContent>;
  }
}

export function DialogHost({ translate }: { translate: Translate }) {
  const request = useSyncExternalStore(subscribe, currentDialog, currentDialog);
  if (!request) return null;
  const dismissValue = request.kind === 'confirm' ? false : request.kind === 'prompt' ? '' : undefined;
  const className = request.kind === 'alert' && request.title ? alertClass(request.title) : `dialog-${request.kind}`;
  return (
    <ThemeProvider theme={dialogTheme}>
      <Dialog open key={request.id} className={className} onClose={() => settle(request.id, dismissValue)} maxWidth="xs" fullWidth>
        {request.title && <DialogTitle>{titleText(request.title, translate)}</DialogTitle>}
        <Body request={request} translate={translate} />
      </Dialog>
    </ThemeProvider>
  );
}
