/** /manage (and /manage/dashboard): the business at a glance, from /api/manage/index/stat. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Title, useTranslate } from 'react-admin';
import { Figure } from '../area/Figure';
import { useAreaCall } from '../area/useAreaCall';

interface Stat {
  customers: { total: number; verified: number; new_7d: number };
  guest_messages: { total: number; new_7d: number };
  mail_7d: { sent: number; failed: number };
}

export function OperatorDashboard() {
  const call = useAreaCall();
  const translate = useTranslate();
  const { data } = useQuery({ queryKey: ['index', 'stat'], queryFn: () => call<Stat>('POST', 'index/stat') });
  return (
    <Box sx={{ mt: 2 }} className="operator-dashboard">
      <Title title="ra.page.dashboard" />
      <Typography variant="h5" gutterBottom>
        {translate('app.stat.title')}
      </Typography>
      {data && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <Figure label="app.stat.customers" value={data.customers.total} hint={translate('app.stat.new_7d', { count: data.customers.new_7d })} />
          <Figure label="app.stat.verified" value={data.customers.verified} />
          <Figure label="app.stat.guest_messages" value={data.guest_messages.total} hint={translate('app.stat.new_7d', { count: data.guest_messages.new_7d })} />
          <Figure label="app.stat.mail_sent_7d" value={data.mail_7d.sent} />
          <Figure label="app.stat.mail_failed_7d" value={data.mail_7d.failed} />
        </Box>
      )}
    </Box>
  );
}
