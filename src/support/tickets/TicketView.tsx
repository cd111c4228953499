/**
 * A ticket's page (?id=): its facts, the conversation as plain text (React text, never HTML;
 * line breaks kept), files to download, and the reply box. Operators also add internal notes,
 * insert canned replies, set the status after a reply, change priority, status and assignee,
 * and (superadmin) delete. Customers close the ticket, and reopen it by writing.
 */
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DownloadIcon from '@mui/icons-material/Download';
import SendIcon from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { ListButton, RecordContextProvider, Title, TopToolbar, useCanAccess, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { ticketPriorities, ticketStatuses } from '../../../resources/ticket';
import { customerSession, operatorSession } from '../../authProvider/session';
import type { AreaDataProvider } from '../../dataProvider';
import { DeleteRecordButton } from '../../screens/DeleteRecordButton';
import { StatusChip, enumLabelKey } from '../../screens/fields';
import { useScreenPaths } from '../../screens/paths';
import type { Screen } from '../../screens/screen';
import { formatBytes } from '../../screens/bytes';
import { LinkedRecord } from './LinkedRecord';
import { formatDateTime } from '../../screens/shownDates';

interface Attachment {
  id: number;
  file_name: string;
  content_type: string;
  size: number;
}
interface Message {
  id: number;
  author_type: 'customer' | 'team_member' | 'operator';
  author_name: string;
  body: string;
  internal?: number;
  created_at: string;
  attachments: Attachment[];
}
interface Ticket {
  id: number;
  number: string;
  subject: string;
  category: string;
  priority: string;
  status: string;
  owner_id: number;
  assignee_id?: number | null;
  assignee_name?: string | null;
  link_type: string | null;
  link_id: number | null;
  link_name: string | null;
  created_at: string;
  messages: Message[];
}
interface CannedReply {
  id: number;
  title: string;
  body: string;
}

/** Files come with the session header, so they are fetched and handed to the browser as a download. */
async function download(area: 'admin' | 'manage', file: Attachment) {
  const token = area === 'admin' ? customerSession.token() : operatorSession.token();
  const response = await fetch(`/api/${area}/ticket/attachment?id=${file.id}`, { headers: { Authentication: token } });
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = file.file_name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function useTime() {
  const [locale] = useLocaleState();
  return (iso: string) => formatDateTime(iso, locale);
}

function MessageCard({ message, area }: { message: Message; area: 'admin' | 'manage' }) {
  const translate = useTranslate();
  const time = useTime();
  const fromProvider = message.author_type === 'operator';
  const who = area === 'admin' && !fromProvider ? translate(`app.ticket.author.${message.author_type}`) : `${translate(`app.ticket.operator_author.${message.author_type}`)} ${message.author_name}`;
  return (
    <Paper
      variant="outlined"
      className={`ticket-message ticket-message-${message.internal ? 'note' : message.author_type}`}
      sx={{ p: 2, mb: 1.5, ml: fromProvider ? 0 : 4, mr: fromProvider ? 4 : 0, bgcolor: message.internal ? 'warning.light' : fromProvider ? 'grey.50' : 'background.paper' }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2">{who}</Typography>
        {message.internal === 1 && <Chip size="small" color="warning" label={translate('app.ticket.internal')} />}
        <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
          {time(message.created_at)}
        </Typography>
      </Box>
      {/* Plain text: React escapes it; pre-wrap keeps the line breaks. */}
      <Typography variant="body2" className="ticket-message-body" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {message.body}
      </Typography>
      {message.attachments.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
          {message.attachments.map((file) => (
            <Button key={file.id} size="small" variant="outlined" startIcon={<DownloadIcon />} className="ticket-attachment" onClick={() => download(area, file)} title={translate('app.ticket.download', { name: file.file_name })}>
              {file.file_name} ({formatBytes(file.size)})
            </Button>
          ))}
        </Box>
      )}
    </Paper>
  );
}

function ReplyBox({ ticket, area, onSent }: { ticket: Ticket; area: 'admin' | 'manage'; onSent: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AreaDataProvider>();
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [internal, setInternal] = useState(false);
  const [status, setStatus] = useState('answered');
  const [busy, setBusy] = useState(false);
  const canned = useQuery({
    queryKey: ['canned_reply', 'all'],
    queryFn: () => dataProvider.call<{ list: CannedReply[] }>('POST', 'canned_reply/list', { page_size: 100, sort: 'title', order: 'asc' }),
    enabled: area === 'manage',
  });
  const send = async () => {
    setBusy(true);
    try {
      const params: Record<string, unknown> = { id: ticket.id, body };
      if (area === 'manage') Object.assign(params, internal ? { internal: 1 } : { status });
      await dataProvider.upload('ticket/append_message', params, files);
      setBody('');
      setFiles([]);
      notify('app.ticket.sent', { type: 'success' });
      onSent();
    } catch {
      // The WARNING alert has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="ticket-reply" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate(internal ? 'app.ticket.add_note' : 'app.ticket.reply')}
        </Typography>
        {area === 'admin' && ticket.status === 'closed' && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.ticket.closed_hint')}
          </Typography>
        )}
        {area === 'manage' && (canned.data?.list.length ?? 0) > 0 && (
          <TextField
            select
            size="small"
            label={translate('app.ticket.canned')}
            value=""
            sx={{ mb: 2, minWidth: 280 }}
            className="canned-reply-picker"
            onChange={(e) => {
              const reply = canned.data?.list.find((r) => String(r.id) === e.target.value);
              if (reply) setBody((current) => (current ? `${current}\n${reply.body}` : reply.body));
            }}
          >
            {canned.data!.list.map((r) => (
              <MenuItem key={r.id} value={String(r.id)}>
                {r.title}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          label={translate(internal ? 'app.ticket.internal' : 'app.ticket.your_reply')}
          multiline
          minRows={5}
          fullWidth
          value={body}
          onChange={(e) => setBody(e.target.value)}
          inputProps={{ maxLength: 20_000, className: 'ticket-reply-body' }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mt: 2 }}>
          <Button component="label" variant="outlined" startIcon={<AttachFileIcon />}>
            {translate('app.ticket.attach')}
            <input
              hidden
              type="file"
              multiple
              className="ticket-reply-files"
              accept=".png,.jpg,.jpeg,.gif,.webp,.pdf,.txt,.log,.csv,.md,.eml"
              onChange={(e: ChangeEvent<HTMLInputElement>) => setFiles([...(e.target.files ?? [])])}
            />
          </Button>
          {files.map((f) => (
            <Chip key={f.name} label={f.name} onDelete={() => setFiles((all) => all.filter((x) => x !== f))} />
          ))}
          {area === 'manage' && (
            <FormControlLabel control={<Switch checked={internal} onChange={(e) => setInternal(e.target.checked)} className="ticket-note-switch" />} label={translate('app.ticket.note')} />
          )}
          {area === 'manage' && !internal && (
            <TextField select size="small" label={translate('app.ticket.then_status')} value={status} onChange={(e) => setStatus(e.target.value)} sx={{ minWidth: 200 }} className="ticket-reply-status">
              {['answered', 'waiting_customer', 'closed'].map((s) => (
                <MenuItem key={s} value={s}>
                  {translate(enumLabelKey('status', s))}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Button variant="contained" startIcon={<SendIcon />} disabled={busy || body.trim() === ''} onClick={send} sx={{ ml: 'auto' }} className="ticket-send">
            {translate('app.ticket.send')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

/** Operators move the ticket along: status, priority, assignee. */
function OperatorControls({ ticket, onSaved }: { ticket: Ticket; onSaved: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AreaDataProvider>();
  const me = operatorSession.get().id;
  const save = async (changes: Record<string, unknown>) => {
    try {
      await dataProvider.call('POST', 'ticket/update', { id: ticket.id, ...changes });
      notify('app.ticket.saved', { type: 'success' });
      onSaved();
    } catch {
      // Reported by the WARNING alert.
    }
  };
  const select = (name: 'status' | 'priority', values: readonly string[]) => (
    <TextField select size="small" label={translate(`resources.ticket.fields.${name}`)} value={ticket[name]} onChange={(e) => save({ [name]: e.target.value })} sx={{ minWidth: 180 }} className={`ticket-${name}`}>
      {values.map((v) => (
        <MenuItem key={v} value={v}>
          {translate(enumLabelKey(name, v))}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mt: 2 }}>
      {select('status', ticketStatuses)}
      {select('priority', ticketPriorities)}
      <Typography variant="body2">
        {translate('app.ticket.assign')}: <b className="ticket-assignee">{ticket.assignee_name ?? translate('app.ticket.unassigned')}</b>
      </Typography>
      {ticket.assignee_id !== me && (
        <Button size="small" variant="outlined" onClick={() => save({ assignee_id: me })} className="ticket-assign-me">
          {translate('app.ticket.assign_me')}
        </Button>
      )}
      {ticket.assignee_id && (
        <Button size="small" onClick={() => save({ assignee_id: null })}>
          {translate('app.ticket.unassigned')}
        </Button>
      )}
    </Box>
  );
}

export function TicketView({ screen }: { screen: Screen }) {
  const [search] = useSearchParams();
  const id = search.get('id') ?? '';
  // Tickets are served in the customers' and the operators' areas only.
  const area = screen.area as 'admin' | 'manage';
  const translate = useTranslate();
  const notify = useNotify();
  const time = useTime();
  const paths = useScreenPaths(screen.name);
  const dataProvider = useDataProvider<AreaDataProvider>();
  const queryClient = useQueryClient();
  const { canAccess: canDelete } = useCanAccess({ resource: screen.name, action: 'delete' });
  const key = [area, 'ticket', 'conversation', id];
  const { data: ticket } = useQuery({ queryKey: key, queryFn: () => dataProvider.call<Ticket>('GET', 'ticket/get', { id }), enabled: id !== '' });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: [screen.name] });
  };
  if (!ticket) return null;
  const close = async () => {
    try {
      await dataProvider.call('POST', 'ticket/update', { id: ticket.id, status: 'closed' });
      notify('app.ticket.closed_done', { type: 'success' });
      refresh();
    } catch {
      // Reported by the WARNING alert.
    }
  };
  return (
    <RecordContextProvider value={ticket}>
      <Box sx={{ maxWidth: 960 }} className="ticket-view">
        <Title title={`#${ticket.number} ${ticket.subject}`} />
        <TopToolbar>
          {area === 'admin' && ticket.status !== 'closed' && (
            <Button onClick={close} className="ticket-close">
              {translate('app.ticket.close')}
            </Button>
          )}
          <ListButton />
          {area === 'manage' && canDelete && <DeleteRecordButton redirectTo={paths.list} />}
        </TopToolbar>
        <Card>
          <CardContent>
            <Typography variant="h5" className="ticket-subject" sx={{ wordBreak: 'break-word' }}>
              #{ticket.number} · {ticket.subject}
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 1 }}>
              <StatusChip value={ticket.status} />
              <Chip size="small" variant="outlined" label={translate(enumLabelKey('category', ticket.category))} />
              <Chip size="small" variant="outlined" label={`${translate('resources.ticket.fields.priority')}: ${translate(enumLabelKey('priority', ticket.priority))}`} />
              {ticket.link_type && <LinkedRecord type={ticket.link_type} id={ticket.link_id} name={ticket.link_name} />}
              <Typography variant="caption" color="text.secondary">
                {translate('resources.ticket.fields.created_at')} {time(ticket.created_at)}
              </Typography>
            </Box>
            {area === 'manage' && <OperatorControls ticket={ticket} onSaved={refresh} />}
          </CardContent>
        </Card>
        <Typography variant="h6" sx={{ mt: 3, mb: 1 }}>
          {translate('app.ticket.conversation')}
        </Typography>
        {ticket.messages.map((message) => (
          <MessageCard key={message.id} message={message} area={area} />
        ))}
        <ReplyBox ticket={ticket} area={area} onSent={refresh} />
      </Box>
    </RecordContextProvider>
  );
}
