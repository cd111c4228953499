/** A domain's mail from outside per day: received, junked and rejected (loaded with the chart library, only where shown). */
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslate } from 'react-admin';
import { SectionCard } from '../area/SectionCard';
import { useSpamStats } from './spamApi';

export default function SpamChart({ domainId }: { domainId: number }) {
  const translate = useTranslate();
  const { data } = useSpamStats(domainId);
  if (!data) return null;
  const days = data.days;
  return (
    <SectionCard title="app.spam.chart_title" className="spam-chart">
      <BarChart
        height={240}
        xAxis={[{ scaleType: 'band', data: days.map((d) => d.day.slice(5)) }]}
        series={[
          { label: translate('app.spam.inbox'), data: days.map((d) => Math.max(0, d.received - d.junked - d.rejected)), stack: 'all' },
          { label: translate('app.spam.junked'), data: days.map((d) => d.junked), stack: 'all' },
          { label: translate('app.spam.rejected'), data: days.map((d) => d.rejected), stack: 'all' },
        ]}
      />
    </SectionCard>
  );
}
