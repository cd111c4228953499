/** Senders (an address or a whole domain) a mailbox or a domain allows or blocks: the list, one to add, remove. */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { useState } from 'react';
import { Button, useNotify, useTranslate } from 'react-admin';
import { submitCall } from '../area/formCall';
import { SectionCard } from '../area/SectionCard';
import { useSenderList, type SpamOf } from './spamApi';

export function SenderListCard({ whose, domainId }: { whose: SpamOf; domainId?: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { data, add, remove } = useSenderList(whose, domainId);
  const [sender, setSender] = useState('');
  const [action, setAction] = useState<'allow' | 'block'>('allow');
  const [error, setError] = useState<string>();
  const submit = async () => {
    setError(undefined);
    const refused = await submitCall(() => add(sender, action), () => {
      setSender('');
      notify('app.spam.sender_added', { type: 'success', messageArgs: { sender } });
    });
    setError(refused?.sender);
  };
  return (
    <SectionCard title={'domain' in whose ? 'app.spam.domain_list_title' : 'app.spam.list_title'} className="spam-sender-list">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.spam.list_intro')}
      </Typography>
      {data && data.length === 0 && <Typography variant="body2">{translate('app.spam.list_empty')}</Typography>}
      <List dense>
        {(data ?? []).map((entry) => (
          <ListItem key={entry.id} className="spam-sender" secondaryAction={<IconButton aria-label={translate('ra.action.delete')} onClick={() => remove(entry.id).catch(() => undefined)}><DeleteIcon /></IconButton>}>
            <Chip size="small" color={entry.action === 'allow' ? 'success' : 'error'} label={translate(`app.spam.${entry.action}`)} sx={{ mr: 1 }} />
            <ListItemText primary={entry.sender} />
          </ListItem>
        ))}
      </List>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <TextField size="small" label={translate('app.spam.sender')} placeholder="anna@example.org, example.org" value={sender} onChange={(e) => setSender(e.target.value)} error={!!error} helperText={error} className="spam-sender-input" />
        <TextField select size="small" label={translate('app.spam.sender_action')} value={action} onChange={(e) => setAction(e.target.value as 'allow' | 'block')} sx={{ minWidth: 140 }} className="spam-action-input">
          <MenuItem value="allow">{translate('app.spam.allow')}</MenuItem>
          <MenuItem value="block">{translate('app.spam.block')}</MenuItem>
        </TextField>
        <Button label="app.spam.add" variant="outlined" onClick={submit} disabled={!sender.trim()} className="spam-sender-add" />
      </Box>
    </SectionCard>
  );
}
