/** One copy as people follow it: its state, a progress bar of messages in the mailbox of those on the old server, and why it stopped. */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import { unfinished, type MailCopy } from './mailCopyApi';
import { formatDateTime } from '../screens/shownDates';

const colour = { queued: 'default', running: 'info', done: 'success', failed: 'error' } as const;

export function CopyProgress({ copy, showAddress }: { copy: MailCopy; showAddress?: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const percent = copy.total_messages > 0 ? Math.round((100 * copy.done_messages) / copy.total_messages) : copy.state === 'done' ? 100 : 0;
  const counting = unfinished(copy) && copy.total_messages === 0;
  return (
    <Box className={`mail-copy mail-copy-${copy.state}`} data-copy-id={copy.id} sx={{ mb: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip size="small" color={colour[copy.state]} label={translate(`app.mail_copy.state_${copy.state}`)} className="mail-copy-state" />
        <Typography variant="body2">
          {showAddress ? `${copy.address} · ` : ''}
          {translate('app.mail_copy.from', { user: copy.source_user, host: copy.source_host, port: copy.source_port })}
        </Typography>
      </Box>
      {(unfinished(copy) || copy.total_messages > 0) && (
        <LinearProgress variant={counting ? 'indeterminate' : 'determinate'} value={percent} sx={{ my: 1 }} aria-label={translate('app.mail_copy.title')} />
      )}
      <Typography variant="body2" color="text.secondary" className="mail-copy-progress">
        {counting
          ? translate('app.mail_copy.counting')
          : `${translate('app.mail_copy.progress', { done: copy.done_messages, smart_count: copy.total_messages })} · ${translate('app.mail_copy.copied', { copied: copy.copied_messages })}`}
        {copy.finished_at ? ` · ${translate('app.mail_copy.ended', { at: formatDateTime(copy.finished_at, locale) })}` : ''}
      </Typography>
      {copy.error && (
        <Typography variant="body2" color="error" className="mail-copy-error">
          {translate(copy.error, { _: copy.error, address: copy.address })}
          {/* The old server's own words, as it said them. */}
          {copy.error_detail ? <span data-user-data className="mail-copy-error-detail">{` (${copy.error_detail})`}</span> : ''}
        </Typography>
      )}
    </Box>
  );
}
