/**
 * The reports' pictures (loaded with the chart library, only where shown): a domain's messages per
 * day by DMARC result and alignment, its sources by organisation with their failing share, its
 * TLS sessions per day; the installation's days for operators.
 */
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslate } from 'react-admin';
import { useShownDates } from '../screens/shownDates';
import type { DmarcReportView, ReportsSummary, TlsReportView } from './reportsApi';

/**
 * Days along the x axis, each labelled with its date: every 7th day back from the last (left to
 * itself, the library drops whichever labels would overlap, and most dates went missing).
 */
function useDayAxis(days: string[]) {
  const { day } = useShownDates();
  const every = days.length > 14 ? 7 : 1;
  return [{ scaleType: 'band' as const, data: days, valueFormatter: day, tickLabelInterval: (_value: unknown, index: number) => (days.length - 1 - index) % every === 0, height: 30 }];
}

export function DmarcDaysChart({ view }: { view: DmarcReportView }) {
  const translate = useTranslate();
  const days = view.days;
  const xAxis = useDayAxis(days.map((d) => d.day));
  return (
    <BarChart
      className="reports-dmarc-chart"
      height={260}
      xAxis={xAxis}
      series={[
        { label: translate('app.reports.pass'), data: days.map((d) => d.pass), stack: 'dmarc', color: '#2e7d32' },
        { label: translate('app.reports.fail'), data: days.map((d) => d.fail), stack: 'dmarc', color: '#d32f2f' },
        { label: translate('app.reports.dkim_aligned'), data: days.map((d) => d.dkim_aligned), color: '#1976d2' },
        { label: translate('app.reports.spf_aligned'), data: days.map((d) => d.spf_aligned), color: '#9c27b0' },
      ]}
    />
  );
}

export function SourcesChart({ view }: { view: DmarcReportView }) {
  const translate = useTranslate();
  const top = view.sources.slice(0, 8);
  return (
    <BarChart
      className="reports-sources-chart"
      layout="horizontal"
      height={Math.max(160, 44 * top.length + 60)}
      margin={{ left: 8 }}
      yAxis={[{ scaleType: 'band', data: top.map((s) => s.organisation), width: 150 }]}
      series={[
        { label: translate('app.reports.pass'), data: top.map((s) => s.pass), stack: 'all', color: '#2e7d32' },
        { label: translate('app.reports.fail'), data: top.map((s) => s.fail), stack: 'all', color: '#d32f2f' },
      ]}
    />
  );
}

export function TlsDaysChart({ view }: { view: TlsReportView }) {
  const translate = useTranslate();
  const xAxis = useDayAxis(view.days.map((d) => d.day));
  return (
    <BarChart
      className="reports-tls-chart"
      height={220}
      xAxis={xAxis}
      series={[
        { label: translate('app.reports.successful'), data: view.days.map((d) => d.successful), stack: 'all', color: '#2e7d32' },
        { label: translate('app.reports.failed'), data: view.days.map((d) => d.failed), stack: 'all', color: '#d32f2f' },
      ]}
    />
  );
}

export function SummaryChart({ summary }: { summary: ReportsSummary }) {
  const translate = useTranslate();
  const xAxis = useDayAxis(summary.days.map((d) => d.day));
  return (
    <BarChart
      className="reports-summary-chart"
      height={260}
      xAxis={xAxis}
      series={[
        { label: translate('app.reports.pass'), data: summary.days.map((d) => d.messages - d.fail), stack: 'dmarc', color: '#2e7d32' },
        { label: translate('app.reports.fail'), data: summary.days.map((d) => d.fail), stack: 'dmarc', color: '#d32f2f' },
        { label: `TLS ${translate('app.reports.failed')}`, data: summary.days.map((d) => d.tls_failed), color: '#ed6c02' },
      ]}
    />
  );
}

export default { DmarcDaysChart, SourcesChart, TlsDaysChart, SummaryChart };
