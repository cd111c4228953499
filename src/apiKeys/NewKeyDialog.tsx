/** The API key just made: shown this once, with a copy button and a call a script can make with it. */
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

export interface CreatedApiKey {
  id: number;
  name: string;
  key: string;
  access: 'read' | 'write';
}

/** A call every key may make in its area: who it acts as. */
export const exampleCall = (area: 'admin' | 'manage', key: string) =>
  `curl -X POST -H 'Authorization: Bearer ${key}' ${window.location.origin}/api/${area}/me/info`;

export function NewKeyDialog({ created, area, onClose }: { created: CreatedApiKey | undefined; area: 'admin' | 'manage'; onClose: () => void }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // No clipboard (an insecure page, a refused permission): the key stays selectable on screen.
      setCopied(false);
    }
  };
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Dialog open={created !== undefined} onClose={close} fullWidth maxWidth="sm" className="api-key-created">
      <DialogTitle>{translate('app.api_keys.created_title', { name: created?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('app.api_keys.created_intro')}
        </Typography>
        <Box
          data-user-data
          className="api-key-value"
          sx={{ fontFamily: 'monospace', fontSize: '1rem', textAlign: 'center', p: 2, bgcolor: 'action.hover', borderRadius: 1, userSelect: 'all', overflowWrap: 'anywhere' }}
        >
          {created?.key}
        </Box>
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1 }}>
          <Button label={copied ? 'app.api_keys.copied' : 'app.api_keys.copy'} onClick={copy} className="api-key-copy">
            <ContentCopyIcon />
          </Button>
        </Box>
        <Alert severity="warning" sx={{ mt: 2 }}>
          {translate('app.api_keys.shown_once')}
        </Alert>
        <Typography variant="body2" sx={{ mt: 2 }}>
          {translate('app.api_keys.example')}
        </Typography>
        <Box component="pre" data-user-data className="api-key-example" sx={{ fontSize: '0.8rem', p: 1, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {created ? exampleCall(area, created.key) : ''}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button label="app.api_keys.done" onClick={close} variant="contained" className="api-key-done" />
      </DialogActions>
    </Dialog>
  );
}
