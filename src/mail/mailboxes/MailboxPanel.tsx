/** Under a mailbox's form: its usage, messages, when its delivery was last proven, and how many app passwords its owner made. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Labeled, useRecordContext, useTranslate } from 'react-admin';
import { DateTimeField } from '../../screens/fields';
import { MailboxUsage } from './MailboxUsage';

export function MailboxPanel() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ px: 2, pb: 2, display: 'flex', gap: 4, flexWrap: 'wrap' }} className="mailbox-panel">
      <Labeled source="used_bytes">
        <MailboxUsage full />
      </Labeled>
      <Labeled source="used_messages">
        <Typography variant="body2">{Number(record.used_messages ?? 0)}</Typography>
      </Labeled>
      <Labeled source="app_passwords">
        <Typography variant="body2" className="mailbox-app-passwords">
          {translate('app.mailbox_owner.app_password_count', { smart_count: Number(record.app_passwords ?? 0) })}
        </Typography>
      </Labeled>
      <Labeled source="delivery_checked_at">
        {record.delivery_checked_at ? <DateTimeField source="delivery_checked_at" /> : <Typography variant="body2">{translate('app.mailbox.never_checked')}</Typography>}
      </Labeled>
    </Box>
  );
}
