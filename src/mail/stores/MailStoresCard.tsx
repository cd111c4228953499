/** The operators' dashboard: each mail store's state, mailboxes and bytes in use, as last measured (every five minutes). */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { MailStoreState } from '../../../resources/mail_store';
import { SectionCard } from '../../area/SectionCard';
import { useAreaCall } from '../../area/useAreaCall';
import { formatBytes } from '../../screens/bytes';
import { useShownDates } from '../../screens/shownDates';

interface Store {
  id: number;
  name: string;
  state: MailStoreState;
  capacity: number | null;
  used_bytes: number;
  mailboxes: number;
  measured_at: string | null;
}

const stateColour = { active: 'success', draining: 'warning', down: 'error' } as const;

export function MailStoresCard() {
  const call = useAreaCall();
  const translate = useTranslate();
  const { dateTime } = useShownDates();
  const { data } = useQuery({ queryKey: ['mail-stores'], queryFn: () => call<{ list: Store[] }>('POST', 'mail_store/list', { page_size: 100 }) });
  if (!data) return null;
  return (
    <SectionCard title="app.mail_stores.title" className="mail-stores">
      <Stack direction="row" spacing={3} useFlexGap flexWrap="wrap">
        {data.list.map((store) => (
          <Box key={store.id} className="mail-store-figure">
            <Stack direction="row" spacing={1} alignItems="center">
              <Link to={`/manage/email?filter=${encodeURIComponent(JSON.stringify({ store_id: store.id }))}`} data-user-data>
                {store.name}
              </Link>
              <Chip size="small" color={stateColour[store.state]} label={translate(`app.enum.state.${store.state}`)} />
            </Stack>
            <Typography variant="body2">
              {translate('app.mail_stores.holds', { smart_count: store.mailboxes, bytes: formatBytes(store.used_bytes) })}
              {store.capacity !== null && ` ${translate('app.mail_stores.of_capacity', { capacity: formatBytes(store.capacity) })}`}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {store.measured_at ? translate('app.mail_stores.measured', { time: dateTime(store.measured_at) }) : translate('app.mail_stores.not_measured')}
            </Typography>
          </Box>
        ))}
      </Stack>
    </SectionCard>
  );
}
