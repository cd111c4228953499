/**
 * The operator dashboard's charts of index/stat's `business` figures. Loaded on its own
 * (React.lazy from Dashboard.tsx), so the chart library reaches only operators who open it.
 * Days and months, money and sizes are written the way the reader's language writes them.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatBytes } from '../screens/bytes';
import { formatDate, formatDateTime, formatDay } from '../screens/shownDates';
import { formatMoney } from '../shop/formatMoney';
import type { BusinessStat } from './businessStat';

function ChartCard({ title, hint, children, className }: { title: string; hint?: string; children: ReactNode; className?: string }) {
  return (
    <Card variant="outlined" sx={{ flex: '1 1 420px', minWidth: 320 }} className={className}>
      <CardContent>
        <Typography variant="subtitle1">{title}</Typography>
        {hint && (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        )}
        {children}
      </CardContent>
    </Card>
  );
}

export default function BusinessCharts({ business }: { business: BusinessStat }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const tag = locale === 'zh' ? 'zh-CN' : 'en-US';
  const money = (minor: number | null) => formatMoney(minor ?? 0, business.currency, locale);
  const number = (n: number | null) => new Intl.NumberFormat(tag).format(n ?? 0);
  const bucketLabel = (bucket: string) =>
    bucket.length === 7
      ? new Intl.DateTimeFormat(tag, { year: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${bucket}-01T00:00:00Z`))
      : formatDay(bucket, locale);
  const localeText = { loading: translate('ra.page.loading'), noData: translate('app.business.none') };
  const buckets = business.series.map((p) => p.bucket);
  /** One figure per day (or month) as a chart series, named by its key's text. */
  const perDay = (key: Exclude<keyof BusinessStat['series'][number], 'bucket'>, format: (n: number | null) => string) => ({
    data: business.series.map((p) => p[key] as number),
    label: translate(`app.business.${key}`),
    valueFormatter: format,
  });
  // Every 5th day (or 2nd month) is labelled, so that the labels never overlap and all show.
  const every = buckets.length > 12 ? 5 : 2;
  const tickLabelInterval = (_value: unknown, index: number) => (buckets.length - 1 - index) % every === 0;
  const xAxis = [{ scaleType: 'band' as const, data: buckets, valueFormatter: bucketLabel, tickLabelInterval, height: 30 }];
  // Counts are whole: ticks on whole numbers. A horizontal axis needs 30 px for its labels: at the
  // default height the library shortens them to nothing (the orders' numbers, the capacity's names).
  const countAxis = { tickMinStep: 1, tickNumber: 5, valueFormatter: (v: number) => number(v) };
  const statuses = Object.entries(business.orders_by_status).sort(([, a], [, b]) => b - a);
  const capacity = business.capacity;

  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2 }} className="business-charts">
      <ChartCard title={translate('app.business.revenue')} hint={translate('app.business.revenue_hint')} className="chart-revenue">
        <LineChart
          height={260}
          localeText={localeText}
          xAxis={[{ scaleType: 'point', data: buckets, valueFormatter: bucketLabel, tickLabelInterval, height: 30 }]}
          yAxis={[{ valueFormatter: (v: number) => money(v), width: 80 }]}
          series={[
            { ...perDay('revenue', money), area: true },
            perDay('refunded', money),
          ]}
        />
      </ChartCard>
      <ChartCard title={translate('app.business.customers')} className="chart-customers">
        <BarChart
          height={260}
          localeText={localeText}
          xAxis={xAxis}
          yAxis={[{ ...countAxis, width: 'auto' }]}
          series={[
            perDay('customers_new', number),
            perDay('customers_paying', number),
          ]}
        />
      </ChartCard>
      <ChartCard title={translate('app.business.orders_by_status')} hint={translate('app.business.pending_now', { count: business.orders_pending_now })} className="chart-orders">
        <BarChart
          height={260}
          localeText={localeText}
          layout="horizontal"
          yAxis={[{ scaleType: 'band', data: statuses.map(([s]) => translate(`app.enum.status.${s}`, { _: s })), width: 'auto' }]}
          xAxis={[{ ...countAxis, height: 30 }]}
          series={[{ data: statuses.map(([, n]) => n), label: translate('app.business.orders'), valueFormatter: number }]}
        />
      </ChartCard>
      <ChartCard title={translate('app.business.points')} className="chart-points">
        <BarChart
          height={260}
          localeText={localeText}
          xAxis={xAxis}
          yAxis={[{ ...countAxis, width: 'auto' }]}
          series={[
            perDay('points_granted', number),
            perDay('points_spent', number),
          ]}
        />
        <Typography variant="body2" color="text.secondary">
          {[
            `${translate('app.business.points_granted')} ${number(business.points.granted)}`,
            `${translate('app.business.points_bought')} ${number(business.points.bought)}`,
            `${translate('app.business.points_spent')} ${number(business.points.spent)}`,
            `${translate('app.business.points_refunded')} ${number(business.points.refunded)}`,
          ].join(' · ')}
        </Typography>
      </ChartCard>
      <ChartCard
        title={translate('app.business.capacity')}
        hint={capacity ? translate('app.business.capacity_as_of', { time: formatDateTime(capacity.as_of, locale) }) : translate('app.business.capacity_none')}
        className="chart-capacity"
      >
        {capacity && (
          <BarChart
            height={220}
            localeText={localeText}
            xAxis={[
              {
                scaleType: 'band',
                data: [translate('app.business.capacity_sold'), translate('app.business.capacity_granted'), translate('app.business.capacity_allocated'), translate('app.business.capacity_used')],
                height: 30,
              },
            ]}
            yAxis={[{ valueFormatter: (v: number) => formatBytes(v), width: 80 }]}
            series={[{ data: [capacity.sold, capacity.granted, capacity.allocated, capacity.used], valueFormatter: (v: number | null) => formatBytes(v ?? 0) }]}
          />
        )}
      </ChartCard>
      <ChartCard title={translate('app.business.mail')} className="chart-mail">
        <BarChart
          height={220}
          localeText={localeText}
          xAxis={xAxis}
          yAxis={[{ ...countAxis, width: 'auto' }]}
          series={[
            { ...perDay('mail_sent', number), stack: 'mail' },
            { ...perDay('mail_failed', number), stack: 'mail', color: '#d32f2f' },
          ]}
        />
      </ChartCard>
      <ChartCard title={translate('app.business.top_products')} className="top-products">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.business.product')}</TableCell>
              <TableCell align="right">{translate('app.business.orders')}</TableCell>
              <TableCell align="right">{translate('app.business.revenue')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {business.top_products.map((p) => (
              <TableRow key={p.product_id}>
                <TableCell>{locale === 'zh' ? p.name_zh : p.name_en}</TableCell>
                <TableCell align="right">{number(p.orders)}</TableCell>
                <TableCell align="right">{money(p.revenue)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {business.top_products.length === 0 && <Typography variant="body2">{translate('app.business.none')}</Typography>}
      </ChartCard>
      <ChartCard title={translate('app.business.renewals_due')} className="renewals-due">
        <Typography variant="h6">
          {translate('app.business.renewals_figure', { smart_count: business.renewals_due_30d.blocks, bytes: formatBytes(business.renewals_due_30d.bytes) })}
        </Typography>
        {business.renewals_due_30d.next.map((r) => (
          <Typography variant="body2" key={r.id}>
            {r.email} · {formatBytes(r.size)} · {formatDate(r.expires_at, locale)}
          </Typography>
        ))}
      </ChartCard>
    </Box>
  );
}
