/** Support on the dashboards: the operators' figures, and the customer's open tickets. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Figure } from '../../area/Figure';
import { SectionCard } from '../../area/SectionCard';
import { useAreaCall } from '../../area/useAreaCall';
import { StatusChip } from '../../screens/fields';

export interface TicketFigures {
  open: number;
  active: number;
  unassigned: number;
  waiting_longest: { id: number; number: string; subject: string; waiting_since: string } | null;
  median_first_response_seconds_week: number | null;
}

function useDuration() {
  const translate = useTranslate();
  return (seconds: number) =>
    seconds < 3600 ? translate('app.ticket.minutes', { smart_count: Math.max(1, Math.round(seconds / 60)) }) : translate('app.ticket.hours', { smart_count: Math.round(seconds / 360) / 10 });
}

export function OperatorTicketFigures({ figures }: { figures: TicketFigures }) {
  const translate = useTranslate();
  const duration = useDuration();
  const waiting = figures.waiting_longest;
  return (
    <Box className="ticket-figures" sx={{ mt: 3 }}>
      <Typography variant="h6" gutterBottom>
        {translate('app.ticket.figures')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <Figure label="app.ticket.open" value={figures.open} hint={`${translate('app.ticket.active')}: ${figures.active}`} />
        <Figure label="app.ticket.unassigned_count" value={figures.unassigned} />
        <Figure
          label="app.ticket.waiting_longest"
          value={waiting ? duration((Date.now() - Date.parse(waiting.waiting_since)) / 1000) : '—'}
          hint={waiting ? <Link to={`/manage/ticket/view?id=${waiting.id}`}>{`#${waiting.number} ${waiting.subject}`}</Link> : translate('app.ticket.nobody_waiting')}
        />
        <Figure label="app.ticket.median_first_response" value={figures.median_first_response_seconds_week === null ? '—' : duration(figures.median_first_response_seconds_week)} />
      </Box>
    </Box>
  );
}

interface Row {
  id: number;
  number: string;
  subject: string;
  status: string;
}

export function CustomerOpenTickets() {
  const translate = useTranslate();
  const call = useAreaCall();
  const { data } = useQuery({
    queryKey: ['ticket', 'dashboard'],
    queryFn: () => call<{ list: Row[]; total: number }>('POST', 'ticket/list', { page_size: 5, filter: { status: ['open', 'answered', 'waiting_customer'] } }),
  });
  if (!data) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <SectionCard title="app.ticket.open_tickets" className="open-tickets">
        {data.total === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {translate('app.ticket.none_open')}
          </Typography>
        ) : (
          <List dense disablePadding>
            {data.list.map((t) => (
              <ListItemButton key={t.id} component={Link} to={`/admin/ticket/view?id=${t.id}`}>
                <ListItemText primary={`#${t.number} ${t.subject}`} />
                <StatusChip value={t.status} />
              </ListItemButton>
            ))}
          </List>
        )}
        <Button component={Link} to="/admin/ticket/create" size="small" sx={{ mt: 1 }}>
          {translate('app.ticket.new_ticket')}
        </Button>
      </SectionCard>
    </Box>
  );
}
