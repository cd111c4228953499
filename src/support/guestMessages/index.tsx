/**
 * Guest messages: operators reply by e-mail from the message's page (a dialog; the reply is
 * recorded and sent through the mail queue), mark it handled or reopen it, and read the
 * replies sent so far. The list shows which are still open and filters by it.
 */
import DoneIcon from '@mui/icons-material/Done';
import ForumIcon from '@mui/icons-material/Forum';
import ReplyIcon from '@mui/icons-material/Reply';
import UndoIcon from '@mui/icons-material/Undo';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, SelectInput, TextInput, required, useLocaleState, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { guestMessage } from '../../../resources/guest_message';
import { CallDialog } from '../../area/CallDialog';
import { useAreaCall } from '../../area/useAreaCall';
import type { Screen, ScreenExtension, ScreenFeature } from '../../screens/screen';
import { formatDateTime } from '../../screens/shownDates';

interface Reply {
  id: number;
  operator_name: string;
  locale: string;
  subject: string;
  body: string;
  created_at: string;
}

function ReplyButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const subject = String(record.subject ?? '');
  return (
    <>
      <Button label="app.guest.reply" onClick={() => setOpen(true)} className="guest-reply">
        <ReplyIcon />
      </Button>
      <CallDialog
        open={open}
        title={translate('app.guest.reply_title', { email: record.email })}
        submitLabel="app.guest.send"
        onClose={() => setOpen(false)}
        className="guest-reply-dialog"
        call={(values) => call('POST', 'guest_message/reply', { id: record.id, ...values })}
        onDone={() => {
          setOpen(false);
          notify('app.guest.sent', { type: 'success', messageArgs: { email: record.email } });
          void queryClient.invalidateQueries({ queryKey: ['guest-replies', record.id] });
          refresh();
        }}
      >
        <SelectInput
          source="locale"
          label="resources.guest_message.fields.locale"
          defaultValue={locale === 'en' ? 'en' : 'zh'}
          choices={[
            { id: 'zh', name: 'app.enum.locale.zh' },
            { id: 'en', name: 'app.enum.locale.en' },
          ]}
          validate={required()}
          fullWidth
        />
        <TextInput source="subject" label="app.guest.subject" defaultValue={subject ? `Re: ${subject}` : ''} validate={required()} fullWidth />
        <TextInput source="body" label="app.guest.body" validate={required()} multiline minRows={6} maxRows={16} fullWidth />
      </CallDialog>
    </>
  );
}

function HandledButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  const handled = Number(record.handled) === 1;
  const toggle = async () => {
    await call('POST', 'guest_message/handle', { id: record.id, handled: handled ? 0 : 1 });
    notify(handled ? 'app.guest.reopened' : 'app.guest.handled_done', { type: 'info' });
    refresh();
  };
  return (
    <Button label={handled ? 'app.guest.reopen' : 'app.guest.mark_handled'} onClick={toggle} className="guest-handled">
      {handled ? <UndoIcon /> : <DoneIcon />}
    </Button>
  );
}

function Replies() {
  const record = useRecordContext();
  const call = useAreaCall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const id = record?.id;
  const { data } = useQuery({ queryKey: ['guest-replies', id], queryFn: () => call<Reply[]>('GET', 'guest_message/replies', { id }), enabled: id !== undefined });
  if (!data?.length) return null;
  return (
    <>
      <Divider />
      <Box sx={{ p: 2 }} className="guest-replies">
        {data.map((r) => (
          <Box key={r.id} sx={{ mb: 2 }} className="guest-reply-sent">
            <Typography variant="caption" color="text.secondary">
              {formatDateTime(r.created_at, locale)} · {r.operator_name} · {translate(`app.enum.locale.${r.locale}`, { _: r.locale })}
            </Typography>
            <Typography variant="subtitle2">{r.subject}</Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
              {r.body}
            </Typography>
          </Box>
        ))}
      </Box>
    </>
  );
}

const guestMessageScreens: ScreenExtension = {
  columns: () => ['name', 'email', 'subject', 'handled', 'replied_at', 'created_at'],
  viewActions: ({ screen }: { screen: Screen }) =>
    screen.area === 'manage' ? (
      <>
        <ReplyButton />
        <HandledButton />
      </>
    ) : null,
  viewPanel: Replies,
};

export const guestMessages: ScreenFeature = { declaration: guestMessage, extension: guestMessageScreens, icon: ForumIcon };
