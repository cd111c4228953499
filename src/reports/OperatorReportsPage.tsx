/** The operators' reports page: DMARC and TLS across the installation, the domains with reports (to their pages), refused reports. */
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { Title, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { SectionCard } from '../area/SectionCard';
import { useScreenPaths } from '../screens/paths';
import { REPORT_DAYS, useReportsSummary } from './reportsApi';
import { useShownDates } from '../screens/shownDates';

const SummaryChart = lazy(() => import('./ReportCharts').then((m) => ({ default: m.SummaryChart })));

export function OperatorReportsPage() {
  const translate = useTranslate();
  const shown = useShownDates();
  const { data } = useReportsSummary();
  // The domain's own page in this area (/manage/domain/update?id=…), where its reports are shown.
  const domainPaths = useScreenPaths('domain');
  return (
    <Box sx={{ mt: 2 }} className="operator-reports-page">
      <Title title="app.reports.menu" />
      {data && (
        <>
          <SectionCard title="app.reports.summary_title" className="reports-summary">
            <Typography variant="body2" color="text.secondary">
              {translate('app.reports.summary_intro', { smart_count: REPORT_DAYS })}
            </Typography>
            <Suspense fallback={null}>
              <SummaryChart summary={data} />
            </Suspense>
          </SectionCard>
          <SectionCard title="app.reports.domains_title" className="reports-domains">
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('app.reports.domain')}</TableCell>
                  <TableCell>{translate('app.reports.kind')}</TableCell>
                  <TableCell align="right">{translate('app.reports.reports')}</TableCell>
                  <TableCell align="right">{translate('app.reports.messages')}</TableCell>
                  <TableCell align="right">{translate('app.reports.failing')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.domains.map((d) => (
                  <TableRow key={`${d.domain_id}-${d.kind}`} className="reports-domain-row">
                    <TableCell>
                      <Link to={domainPaths.update(d.domain_id)} className="reports-domain-link">{d.name_unicode}</Link>
                    </TableCell>
                    <TableCell>{translate(`app.reports.kind_${d.kind}`)}</TableCell>
                    <TableCell align="right">{d.reports}</TableCell>
                    <TableCell align="right">{d.messages}</TableCell>
                    <TableCell align="right" sx={{ color: d.failed ? 'error.main' : undefined }}>
                      {d.failed}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </SectionCard>
          <SectionCard title="app.reports.refused_title" className="reports-refused">
            <Typography variant="body2" color="text.secondary">
              {data.refused.total ? translate('app.reports.refused_intro', { total: data.refused.total, smart_count: REPORT_DAYS }) : translate('app.reports.refused_none')}
            </Typography>
            {data.refused.latest.length > 0 && (
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('app.reports.received_at')}</TableCell>
                    <TableCell>{translate('app.reports.reason')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.refused.latest.map((r) => (
                    <TableRow key={r.id} className="reports-refused-row">
                      <TableCell>{shown.dateTime(r.received_at)}</TableCell>
                      <TableCell>
                        <Typography variant="body2">{translate(`app.reports.reason_labels.${r.reason}`, { _: r.reason })}</Typography>
                        <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }} data-user-data>
                          {/* A message key with parameters; refusals kept from before carry English text, shown as it is. */}
                          {translate(r.detail, { _: r.detail, ...r.params })}
                        </Typography>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </SectionCard>
        </>
      )}
    </Box>
  );
}
