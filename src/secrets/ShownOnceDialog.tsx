/**
 * A secret just made (an API key, an app password): shown this once, with a copy button. The
 * server keeps only its hash, so after this dialog it cannot be seen again.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { Button, useTranslate } from 'react-admin';
import type { SecretKind } from './kind';

/** A secret people type by hand (an app password on a phone) is shown larger and spaced; a key for pasting fits the line. */
const secretLook = {
  pasted: { fontSize: '1rem' },
  typed: { fontSize: '1.4rem', letterSpacing: '0.08em' },
};

export function ShownOnceDialog(props: {
  kind: SecretKind;
  /** The secret's name, as its owner gave it. */
  name: string | undefined;
  /** The secret; undefined: the dialog is closed. */
  secret: string | undefined;
  onClose: () => void;
  look: keyof typeof secretLook;
  maxWidth: 'xs' | 'sm';
  /** Below the secret (an API key's example call). */
  children?: ReactNode;
}) {
  const { kind, name, secret, onClose, look, maxWidth, children } = props;
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (secret === undefined) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // No clipboard (an insecure page, a refused permission): the secret stays selectable on screen.
      setCopied(false);
    }
  };
  const close = () => {
    setCopied(false);
    onClose();
  };
  const texts = `app.${kind.texts}`;
  return (
    <Dialog open={secret !== undefined} onClose={close} fullWidth maxWidth={maxWidth} className={`${kind.name}-created`}>
      <DialogTitle>{translate(`${texts}.created_title`, { name: name ?? '' })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate(`${texts}.created_intro`)}
        </Typography>
        <Box
          data-user-data
          className={`${kind.name}-value`}
          sx={{ fontFamily: 'monospace', ...secretLook[look], textAlign: 'center', p: 2, bgcolor: 'action.hover', borderRadius: 1, userSelect: 'all', overflowWrap: 'anywhere' }}
        >
          {secret}
        </Box>
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1 }}>
          <Button label={copied ? `${texts}.copied` : `${texts}.copy`} onClick={copy} className={`${kind.name}-copy`}>
            <ContentCopyIcon />
          </Button>
        </Box>
        <Alert severity="warning" sx={{ mt: 2 }}>
          {translate(`${texts}.shown_once`)}
        </Alert>
        {children}
      </DialogContent>
      <DialogActions>
        <Button label={`${texts}.done`} onClick={close} variant="contained" className={`${kind.name}-done`} />
      </DialogActions>
    </Dialog>
  );
}
