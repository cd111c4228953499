/**
 * The reports' pictures (loaded with the chart library, only where shown): a domain's messages per
 * day by DMARC result and alignment, its sources by organisation with their failing share, its
 * TLS sessions per day; the installation's days for operators.
 */
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslate } from 'react-admin';
import type { DmarcReportView, ReportsSummary, TlsReportView } from './reportsApi';

const short = (day: string) => day.slice(5);

export function DmarcDaysChart({ view }: { view: DmarcReportView }) {
  const translate = useTranslate();
  const days = view.days;
  return (
    <BarChart
      className="reports-dmarc-chart"
      height={260}
      xAxis={[{ scaleType: 'band', data: days.map((d) => short(d.day)) }]}
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
  return (
    <BarChart
      className="reports-tls-chart"
      height={220}
      xAxis={[{ scaleType: 'band', data: view.days.map((d) => short(d.day)) }]}
      series={[
        { label: translate('app.reports.successful'), data: view.days.map((d) => d.successful), stack: 'all', color: '#2e7d32' },
        { label: translate('app.reports.failed'), data: view.days.map((d) => d.failed), stack: 'all', color: '#d32f2f' },
      ]}
    />
  );
}

export function SummaryChart({ summary }: { summary: ReportsSummary }) {
  const translate = useTranslate();
  return (
    <BarChart
      className="reports-summary-chart"
      height={260}
      xAxis={[{ scaleType: 'band', data: summary.days.map((d) => short(d.day)) }]}
      series={[
        { label: translate('app.reports.pass'), data: summary.days.map((d) => d.messages - d.fail), stack: 'dmarc', color: '#2e7d32' },
        { label: translate('app.reports.fail'), data: summary.days.map((d) => d.fail), stack: 'dmarc', color: '#d32f2f' },
        { label: `TLS ${translate('app.reports.failed')}`, data: summary.days.map((d) => d.tls_failed), color: '#ed6c02' },
      ]}
    />
  );
}

export default { DmarcDaysChart, SourcesChart, TlsDaysChart, SummaryChart };
