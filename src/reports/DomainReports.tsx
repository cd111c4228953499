/**
 * A domain's reports on its page (customer and operator areas): messages per day by result, who
 * sends as the domain and what fails, advice in plain words, the DMARC policy with what each
 * would have affected shown before choosing, TLS failures, and the reports received.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { Button, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { SectionCard } from '../area/SectionCard';
import { Copyable } from '../mail/domains/DnsRecords';
import { REPORT_DAYS, useDmarcReport, useTlsReport, useUpdatePolicy, type DmarcReportView, type Policy, type ReceivedReport, type TlsReportView } from './reportsApi';
import { useShownDates } from '../screens/shownDates';

const charts = () => import('./ReportCharts');
const DmarcDaysChart = lazy(() => charts().then((m) => ({ default: m.DmarcDaysChart })));
const SourcesChart = lazy(() => charts().then((m) => ({ default: m.SourcesChart })));
const TlsDaysChart = lazy(() => charts().then((m) => ({ default: m.TlsDaysChart })));

const cards = { p: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', '& > .MuiCard-root': { flex: '1 1 420px', mb: 0 } } as const;
const reportsAddressOf = (record: string) => /rua=mailto:([^;\s]+)/.exec(record)?.[1] ?? '';

function DaysCard({ view }: { view: DmarcReportView }) {
  const translate = useTranslate();
  return (
    <SectionCard title="app.reports.days_title" className="reports-dmarc-days">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {reportsAddressOf(view.policy.record)
          ? translate('app.reports.intro', { address: reportsAddressOf(view.policy.record), smart_count: REPORT_DAYS })
          : translate('app.reports.intro_no_address')}
      </Typography>
      {view.totals.messages === 0 ? (
        <Alert severity="info" className="reports-none">
          {translate('app.reports.no_reports', { smart_count: REPORT_DAYS })} {translate('app.reports.no_reports_yet')}
        </Alert>
      ) : (
        <>
          <Typography variant="body2" className="reports-totals">
            {translate('app.reports.totals', { smart_count: view.totals.messages, fail: view.totals.fail, share: view.totals.share_failing })}
          </Typography>
          <Suspense fallback={null}>
            <DmarcDaysChart view={view} />
          </Suspense>
        </>
      )}
    </SectionCard>
  );
}

function SourcesCard({ view }: { view: DmarcReportView }) {
  const translate = useTranslate();
  if (!view.sources.length) return null;
  return (
    <SectionCard title="app.reports.sources_title" className="reports-sources">
      <Typography variant="body2" color="text.secondary">
        {translate('app.reports.sources_intro')}
      </Typography>
      <Suspense fallback={null}>
        <SourcesChart view={view} />
      </Suspense>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.reports.organisation')}</TableCell>
            <TableCell>{translate('app.reports.address')}</TableCell>
            <TableCell align="right">{translate('app.reports.messages')}</TableCell>
            <TableCell align="right">{translate('app.reports.failing')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {view.sources.slice(0, 15).flatMap((org) =>
            org.sources.map((s, i) => (
              <TableRow key={`${org.organisation}-${s.ip}`} className={`reports-source${s.fail ? ' reports-source-failing' : ''}`}>
                <TableCell data-user-data>{i === 0 ? org.organisation : ''}</TableCell>
                <TableCell>
                  <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                    {s.ip}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {s.ptr || translate('app.reports.no_reverse_name')}
                  </Typography>
                </TableCell>
                <TableCell align="right">{s.messages}</TableCell>
                <TableCell align="right" sx={{ color: s.fail ? 'error.main' : undefined }}>
                  {s.fail}
                </TableCell>
              </TableRow>
            )),
          )}
        </TableBody>
      </Table>
    </SectionCard>
  );
}

function AdviceCard({ view }: { view: DmarcReportView }) {
  const translate = useTranslate();
  if (view.totals.messages === 0) return null;
  return (
    <SectionCard title="app.reports.advice_title" className="reports-advice">
      {view.advice.length === 0 ? (
        <Alert severity="success">{translate('app.reports.advice_none')}</Alert>
      ) : (
        <Stack spacing={1}>
          {view.advice.map((a) => (
            <Alert key={`${a.kind}-${a.organisation}`} severity={a.kind === 'forwarded' ? 'info' : 'warning'} className={`reports-advice-item reports-advice-${a.kind}`}>
              {translate(`app.reports.advice.${a.kind}`, { organisation: a.organisation, smart_count: a.messages, addition: a.spf_addition ?? '' })}
            </Alert>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}

function PolicyCard({ view, domainId, domainName }: { view: DmarcReportView; domainId: number; domainName: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const update = useUpdatePolicy(domainId);
  const [published, setPublished] = useState<{ host: string; value: string }>();
  const choose = async (policy: Policy) => {
    try {
      const answer = await update(policy);
      setPublished(answer.record);
      notify('app.reports.policy_saved', { type: 'success' });
    } catch {
      // The warning has said why.
    }
  };
  const record = published ?? { host: `_dmarc.${domainName}`, value: view.policy.record };
  return (
    <SectionCard title="app.reports.policy_title" className="reports-policy">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.reports.policy_intro')}
      </Typography>
      <Stack spacing={1}>
        {view.policy.options.map((o) => (
          <Box key={o.policy} className={`reports-policy-${o.policy}`} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', p: 1, border: 1, borderColor: o.policy === view.policy.current ? 'primary.main' : 'divider', borderRadius: 1 }}>
            <Box sx={{ flex: 1, minWidth: 200 }}>
              <Typography variant="subtitle2">
                {/* The record's own value, as published; its meaning in the reader's language. */}
                <Box component="code" sx={{ mr: 1 }}>p={o.policy}</Box>
                {translate(`app.reports.policy.${o.policy}`)}
              </Typography>
              <Typography variant="body2" className="reports-policy-affected" color={o.affected ? 'warning.main' : 'text.secondary'}>
                {o.policy === 'none' ? translate('app.reports.not_affected') : translate('app.reports.affected', { smart_count: o.affected, share: o.share }) + (o.forwarded ? translate('app.reports.affected_forwarded', { forwarded: o.forwarded }) : '')}
              </Typography>
            </Box>
            {o.policy === view.policy.current ? <Typography variant="caption">{translate('app.reports.current')}</Typography> : <Button label="app.reports.choose" variant="outlined" onClick={() => choose(o.policy)} />}
          </Box>
        ))}
      </Stack>
      <Typography variant="body2" sx={{ mt: 2 }}>
        {translate('app.reports.publish', { host: record.host })}
      </Typography>
      <Box data-user-data>
        <Copyable text={record.value} className="reports-policy-record" />
      </Box>
    </SectionCard>
  );
}

function TlsCard({ view }: { view: TlsReportView }) {
  const translate = useTranslate();
  if (view.totals.successful + view.totals.failed === 0) {
    // Said, not hidden: what this card will show, and when.
    return (
      <SectionCard title="app.reports.tls_title" className="reports-tls">
        <Alert severity="info" className="reports-tls-none">{translate('app.reports.tls_empty')}</Alert>
      </SectionCard>
    );
  }
  return (
    <SectionCard title="app.reports.tls_title" className="reports-tls">
      <Typography variant="body2" color="text.secondary">
        {translate('app.reports.tls_intro')}
      </Typography>
      <Typography variant="body2" className="reports-tls-totals">
        {translate('app.reports.tls_totals', { successful: view.totals.successful, failed: view.totals.failed, share: view.totals.share_failed })}
      </Typography>
      <Suspense fallback={null}>
        <TlsDaysChart view={view} />
      </Suspense>
      <Typography variant="subtitle2">{translate('app.reports.tls_failures')}</Typography>
      {view.failures.length === 0 ? (
        <Typography variant="body2">{translate('app.reports.tls_none')}</Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.reports.receiving_mx')}</TableCell>
              <TableCell>{translate('app.reports.result_type')}</TableCell>
              <TableCell align="right">{translate('app.reports.sessions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {view.failures.map((f) => (
              <TableRow key={`${f.receiving_mx}-${f.result_type}`} className="reports-tls-failure">
                <TableCell sx={{ fontFamily: 'monospace' }} data-user-data>
                  {f.receiving_mx || '—'}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }} data-user-data>
                  {f.result_type}
                </TableCell>
                <TableCell align="right">{f.sessions}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </SectionCard>
  );
}

function ReceivedCard({ reports }: { reports: (ReceivedReport & { kind: 'dmarc' | 'tls' })[] }) {
  const translate = useTranslate();
  const shown = useShownDates();
  if (!reports.length) return null;
  return (
    <SectionCard title="app.reports.received_title" className="reports-received">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.reports.kind')}</TableCell>
            <TableCell>{translate('app.reports.reporter')}</TableCell>
            <TableCell>{translate('app.reports.period')}</TableCell>
            <TableCell align="right">{translate('app.reports.messages')}</TableCell>
            <TableCell align="right">{translate('app.reports.failing')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {reports.map((r) => (
            <TableRow key={`${r.kind}-${r.id}`} className="reports-received-row">
              <TableCell>{translate(`app.reports.kind_${r.kind}`)}</TableCell>
              <TableCell data-user-data>{r.org_name}</TableCell>
              <TableCell>{`${shown.day(r.begin_at)} – ${shown.day(r.end_at)}`}</TableCell>
              <TableCell align="right">{r.messages}</TableCell>
              <TableCell align="right">{r.failed}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </SectionCard>
  );
}

export function DomainReports() {
  const record = useRecordContext();
  const translate = useTranslate();
  const id = record?.id as number | undefined;
  const dmarc = useDmarcReport(id);
  const tls = useTlsReport(id);
  if (!record || !dmarc.data) return null;
  const received = [...dmarc.data.reports.map((r) => ({ ...r, kind: 'dmarc' as const })), ...(tls.data?.reports ?? []).map((r) => ({ ...r, kind: 'tls' as const }))].sort((a, b) => b.received_at.localeCompare(a.received_at));
  return (
    <>
      <Divider />
      <Box sx={{ px: 2, pt: 2 }}>
        <Typography variant="h6">{translate('app.reports.title')}</Typography>
      </Box>
      <Box sx={cards} className="domain-reports">
        <DaysCard view={dmarc.data} />
        <AdviceCard view={dmarc.data} />
        <PolicyCard view={dmarc.data} domainId={record.id as number} domainName={String(record.name)} />
        <SourcesCard view={dmarc.data} />
        {tls.data && <TlsCard view={tls.data} />}
        <ReceivedCard reports={received} />
      </Box>
    </>
  );
}
