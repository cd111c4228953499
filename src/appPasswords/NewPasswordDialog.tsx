/** The app password just made: shown this once, with a copy button; it cannot be seen again. */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Button, useTranslate } from 'react-admin';

export interface CreatedAppPassword {
  id: number;
  name: string;
  password: string;
  created_at: string;
}

export function NewPasswordDialog({ created, onClose }: { created: CreatedAppPassword | undefined; onClose: () => void }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.password);
      setCopied(true);
    } catch {
      // No clipboard (an insecure page, a refused permission): the password stays selectable on screen.
      setCopied(false);
    }
  };
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Dialog open={created !== undefined} onClose={close} fullWidth maxWidth="xs" className="app-password-created">
      <DialogTitle>{translate('app.app_passwords.created_title', { name: created?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('app.app_passwords.created_intro')}
        </Typography>
        <Box
          data-user-data
          className="app-password-value"
          sx={{ fontFamily: 'monospace', fontSize: '1.4rem', letterSpacing: '0.08em', textAlign: 'center', p: 2, bgcolor: 'action.hover', borderRadius: 1, userSelect: 'all', overflowWrap: 'anywhere' }}
        >
          {created?.password}
        </Box>
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1 }}>
          <Button label={copied ? 'app.app_passwords.copied' : 'app.app_passwords.copy'} onClick={copy} className="app-password-copy">
            <ContentCopyIcon />
          </Button>
        </Box>
        <Alert severity="warning" sx={{ mt: 2 }}>
          {translate('app.app_passwords.shown_once')}
        </Alert>
      </DialogContent>
      <DialogActions>
        <Button label="app.app_passwords.done" onClick={close} variant="contained" className="app-password-done" />
      </DialogActions>
    </Dialog>
  );
}
