/** /manage (and /manage/dashboard): the business at a glance, from /api/manage/index/stat. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Title, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Figure } from '../area/Figure';
import { AreaLoading } from '../area/Loading';
import { useAreaCall } from '../area/useAreaCall';
import { formatBytes } from '../screens/bytes';
import { formatMoney } from '../shop/formatMoney';
import type { BusinessStat } from '../stats/businessStat';
import { OperatorFirstSteps } from './FirstSteps';
import { HeldMailboxes } from '../spam';
import { WeakHashesCard } from '../imports';
import { MailStoresCard } from '../mail';
import { OperatorTicketFigures, type TicketFigures } from '../support/tickets/TicketCards';

// The chart library is loaded with the charts, only here.
const BusinessCharts = lazy(() => import('../stats/BusinessCharts'));

interface Stat {
  customers: { total: number; verified: number; new_7d: number };
  guest_messages: { total: number; new_7d: number };
  business: BusinessStat;
  mail_7d: { pending: number; sent: number; failed: number };
  jobs: { queued: number; active: number; failed: number; done_1d: number };
  tickets: TicketFigures;
}

export function OperatorDashboard() {
  const call = useAreaCall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [period, setPeriod] = useState<'30d' | '12m'>('30d');
  const { data } = useQuery({ queryKey: ['index', 'stat', period], queryFn: () => call<Stat>('POST', 'index/stat', { period }) });
  const business = data?.business;
  return (
    <Box sx={{ mt: 2 }} className="operator-dashboard">
      <Title title="ra.page.dashboard" />
      <OperatorFirstSteps />
      <HeldMailboxes hideWhenNone />
      <WeakHashesCard />
      <MailStoresCard />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography variant="h5">{translate('app.stat.title')}</Typography>
        <ToggleButtonGroup size="small" exclusive value={period} onChange={(_e, value) => value && setPeriod(value)} className="period-switch">
          <ToggleButton value="30d">{translate('app.business.period_30d')}</ToggleButton>
          <ToggleButton value="12m">{translate('app.business.period_12m')}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {business && business.over_capacity.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }} className="over-capacity-notice">
          <Typography variant="subtitle2">{translate('app.business.over_capacity')}</Typography>
          {business.over_capacity.map((c) => (
            <div key={c.user_id}>
              <Link to={`/manage/storage?filter=${encodeURIComponent(JSON.stringify({ owner_id: c.user_id }))}`}>
                {translate('app.business.over_capacity_line', { email: c.email, shortfall: formatBytes(c.shortfall) })}
              </Link>
            </div>
          ))}
        </Alert>
      )}
      {data && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <Figure label="app.business.revenue" value={formatMoney(business!.totals.revenue, business!.currency, locale)} hint={translate('app.business.revenue_hint')} />
          <Figure label="app.stat.customers" value={data.customers.total} hint={translate('app.stat.new_7d', { count: data.customers.new_7d })} />
          <Figure label="app.business.customers_new" value={business!.totals.customers_new} />
          <Figure
            label="app.business.renewals_due"
            value={translate('app.business.renewals_figure', { smart_count: business!.renewals_due_30d.blocks, bytes: formatBytes(business!.renewals_due_30d.bytes) })}
          />
          <Figure label="app.stat.guest_messages" value={data.guest_messages.total} hint={translate('app.stat.new_7d', { count: data.guest_messages.new_7d })} />
          <Figure label="app.stat.mail_failed_7d" value={data.mail_7d.failed} hint={translate('app.stat.mail_sent_7d') + ' ' + data.mail_7d.sent} />
          {data.jobs && <Figure label="app.business.jobs_failed" value={data.jobs.failed} />}
        </Box>
      )}
      {business && (
        <Suspense fallback={<AreaLoading />}>
          <BusinessCharts business={business} />
        </Suspense>
      )}
      {data?.tickets && <OperatorTicketFigures figures={data.tickets} />}
    </Box>
  );
}
