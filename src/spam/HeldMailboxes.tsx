/** Mailboxes held for sending spam or far more than usual, with their release (operators' dashboard and page, the customer's page). */
import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { Button, useNotify, useTranslate } from 'react-admin';
import { SectionCard } from '../area/SectionCard';
import { useHeldMailboxes } from './spamApi';
import { useShownDates } from '../screens/shownDates';

export function HeldMailboxes({ hideWhenNone = false }: { hideWhenNone?: boolean }) {
  const translate = useTranslate();
  const shown = useShownDates();
  const notify = useNotify();
  const { data, release } = useHeldMailboxes();
  if (!data || (hideWhenNone && data.list.length === 0)) return null;
  return (
    <SectionCard title="app.spam.held_title" className="spam-held">
      {data.list.length === 0 ? (
        <Typography variant="body2">{translate('app.spam.held_none')}</Typography>
      ) : (
        <>
          <Alert severity="warning" sx={{ mb: 1 }}>
            {translate('app.spam.held_intro')}
          </Alert>
          <List dense>
            {data.list.map((held) => (
              <ListItem
                key={held.mailbox_id}
                className="spam-held-mailbox"
                secondaryAction={
                  <Button
                    label="app.spam.release"
                    onClick={() => release(held.mailbox_id).then(() => notify('app.spam.released', { type: 'success', messageArgs: { address: held.address } }), () => undefined)}
                  />
                }
              >
                <ListItemText primary={held.address} secondary={`${translate(`app.spam.reason_${held.reason}`)} — ${held.detail} (${shown.dateTime(held.held_at)})`} />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </SectionCard>
  );
}
