/** Under a mailbox's form: its usage, messages and when its delivery was last proven. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DateField, Labeled, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { MailboxUsage } from './MailboxUsage';

export function MailboxPanel() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!record) return null;
  return (
    <Box sx={{ px: 2, pb: 2, display: 'flex', gap: 4, flexWrap: 'wrap' }} className="mailbox-panel">
      <Labeled source="used_bytes">
        <MailboxUsage full />
      </Labeled>
      <Labeled source="used_messages">
        <Typography variant="body2">{Number(record.used_messages ?? 0)}</Typography>
      </Labeled>
      <Labeled source="delivery_checked_at">
        {record.delivery_checked_at ? <DateField source="delivery_checked_at" showTime locales={locale === 'zh' ? 'zh-CN' : 'en-GB'} /> : <Typography variant="body2">{translate('app.mailbox.never_checked')}</Typography>}
      </Labeled>
    </Box>
  );
}
