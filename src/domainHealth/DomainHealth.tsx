/**
 * On a domain's page (customer and operator areas): what the DNS watch last saw of each required
 * record and since when, a look now, the history of changes (which ones were e-mailed), and the
 * MTA-STS policy with its testing → enforce switch.
 */
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Pagination from '@mui/material/Pagination';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, useLocaleState, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useAreaCall } from '../area/useAreaCall';
import { confirm } from '../dialogs/store';
import { formatDateTime } from '../screens/shownDates';

type Status = 'ok' | 'missing' | 'wrong';

interface WatchView {
  watched: boolean;
  checked_at: string | null;
  next_check_at: string | null;
  records: { kind: string; host: string; status: Status; found: string; since: string }[];
  mta_sts: { mode: 'testing' | 'enforce'; id: string; policy_url: string; policy: string };
}

interface Change {
  id: number;
  kind: string;
  host: string;
  status_before: Status;
  found_before: string;
  status: Status;
  found: string;
  notified: boolean;
  at: string;
}

const PAGE_SIZE = 10;
const colour = { ok: 'success', missing: 'warning', wrong: 'error' } as const;
/** The order of the DNS page. */
const order = ['verification', 'mx', 'spf', 'dkim', 'dkim_next', 'dmarc', 'mta_sts', 'mta_sts_host', 'tls_rpt'];

function StatusChip({ status }: { status: Status }) {
  const translate = useTranslate();
  return <Chip size="small" color={colour[status]} label={translate(`app.dns.state.${status}`)} className={`health-status health-${status}`} />;
}

function useTime() {
  const [locale] = useLocaleState();
  return (iso: string) => formatDateTime(iso, locale);
}

function MtaStsCard({ id, mtaSts }: { id: unknown; mtaSts: WatchView['mta_sts'] }) {
  const translate = useTranslate();
  const call = useAreaCall();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const toggle = async (enforce: boolean) => {
    if (enforce && !(await confirm(translate('app.health.enforce_confirm'), translate('app.health.enforce')))) return;
    try {
      const answer = await call<{ record: { host: string; value: string } }>('POST', 'domain/mta_sts_mode', { id, mode: enforce ? 'enforce' : 'testing' });
      notify('app.health.mode_saved', { type: 'success', messageArgs: answer.record });
    } catch {
      // The warning has said why.
    }
    await queryClient.invalidateQueries({ queryKey: ['dns-watch', id] });
    await queryClient.invalidateQueries({ queryKey: ['domain-dns', id] });
  };
  return (
    <Card variant="outlined" sx={{ flex: '1 1 320px' }} className="health-mta-sts">
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {translate('app.health.mta_sts_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
          {translate('app.health.mta_sts_intro', { url: mtaSts.policy_url })}
        </Typography>
        <FormControlLabel
          sx={{ mt: 1 }}
          control={<Switch checked={mtaSts.mode === 'enforce'} onChange={(e) => toggle(e.target.checked)} className="health-enforce" />}
          label={translate('app.health.enforce')}
        />
        <Typography variant="body2" className="health-mode">
          {translate(`app.health.mode_${mtaSts.mode}`)}
        </Typography>
        <Box component="pre" sx={{ fontFamily: 'monospace', fontSize: 12, bgcolor: 'action.hover', p: 1, mt: 1, mb: 0, overflowX: 'auto' }} className="health-policy">
          {mtaSts.policy}
        </Box>
      </CardContent>
    </Card>
  );
}

function History({ id }: { id: unknown }) {
  const translate = useTranslate();
  const call = useAreaCall();
  const time = useTime();
  const [page, setPage] = useState(1);
  const { data } = useQuery({
    queryKey: ['dns-history', id, page],
    queryFn: () => call<{ list: Change[]; total: number }>('GET', 'domain/dns_history', { id, page, page_size: PAGE_SIZE }),
  });
  if (!data) return null;
  // What DNS answered is data (a DKIM key is long): shown as code, cut short, whole on hover.
  const found = (text: string) => (
    <>
      {translate('app.health.found')}{' '}
      {text ? (
        <code title={text} style={{ fontFamily: 'monospace' }}>
          {text.length > 60 ? `${text.slice(0, 60)}…` : text}
        </code>
      ) : (
        translate('app.health.nothing_found')
      )}
    </>
  );
  return (
    <Box sx={{ mt: 2 }} className="health-history">
      <Typography variant="subtitle1">{translate('app.health.history')}</Typography>
      {data.total === 0 ? (
        <Typography variant="body2" color="text.secondary" className="health-no-history">
          {translate('app.health.no_history')}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" sx={{ minWidth: 560 }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 170 }}>{translate('app.health.at')}</TableCell>
                <TableCell sx={{ width: 140 }}>{translate('app.health.record')}</TableCell>
                <TableCell>{translate('app.health.change')}</TableCell>
                <TableCell sx={{ width: 90 }}>{translate('app.health.notified')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.list.map((c) => (
                <TableRow key={c.id} className={`health-change health-change-${c.kind}`} sx={{ verticalAlign: 'top' }}>
                  <TableCell>{time(c.at)}</TableCell>
                  <TableCell>
                    {translate(`app.dns.kind.${c.kind}`, { _: c.kind })}
                    <Typography variant="caption" component="div" color="text.secondary" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                      {c.host}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
                      <StatusChip status={c.status_before} /> → <StatusChip status={c.status} />
                    </Box>
                    <Typography variant="caption" component="div" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                      {found(c.found)}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {c.notified && (
                      <Tooltip title={translate('app.health.notified')}>
                        <MailOutlineIcon fontSize="small" color="action" className="health-notified" aria-label={translate('app.health.notified')} />
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {data.total > PAGE_SIZE && <Pagination sx={{ mt: 1 }} size="small" count={Math.ceil(data.total / PAGE_SIZE)} page={page} onChange={(_e, p) => setPage(p)} />}
        </Box>
      )}
    </Box>
  );
}

export function DomainHealth() {
  const record = useRecordContext();
  const translate = useTranslate();
  const call = useAreaCall();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const time = useTime();
  const id = record?.id;
  const { data, isFetching } = useQuery({ queryKey: ['dns-watch', id], queryFn: () => call<WatchView>('GET', 'domain/dns_watch', { id }), enabled: id !== undefined });
  if (!record || !data) return null;
  const lookNow = async () => {
    try {
      const fresh = await call<WatchView>('POST', 'domain/dns_check', { id });
      queryClient.setQueryData(['dns-watch', id], fresh);
      notify('app.health.checked', { type: 'info' });
    } catch {
      // The warning has said why.
    }
    await queryClient.invalidateQueries({ queryKey: ['dns-history', id] });
  };
  const records = [...data.records].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  return (
    <>
      <Divider />
      <Box sx={{ p: 2 }} className="domain-health">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="h6">{translate('app.health.title')}</Typography>
          {data.watched && (
            <>
              <Button label="app.health.check_now" onClick={lookNow} disabled={isFetching} className="health-check-now">
                <RefreshIcon />
              </Button>
              <Typography variant="caption" color="text.secondary" className="health-checked-at">
                {data.checked_at ? translate('app.health.checked_at', { time: time(data.checked_at) }) : translate('app.health.never_checked')}
                {data.next_check_at && ` · ${translate('app.health.next_at', { time: time(data.next_check_at) })}`}
              </Typography>
            </>
          )}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('app.health.intro')}
        </Typography>
        {!data.watched && (
          <Alert severity="info" sx={{ mb: 1 }} className="health-not-watched">
            {translate('app.health.not_watched')}
          </Alert>
        )}
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          {records.length > 0 && (
            <Box sx={{ flex: '2 1 380px', display: 'flex', flexDirection: 'column', gap: 0.5 }} className="health-records">
              {records.map((r) => (
                <Box key={r.kind} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }} className={`health-record health-record-${r.kind}`}>
                  <Typography variant="body2" sx={{ minWidth: 130 }}>
                    {translate(`app.dns.kind.${r.kind}`, { _: r.kind })}
                  </Typography>
                  <StatusChip status={r.status} />
                  <Typography variant="caption" color="text.secondary">
                    {translate('app.health.since', { time: time(r.since) })}
                  </Typography>
                </Box>
              ))}
            </Box>
          )}
          <MtaStsCard id={id} mtaSts={data.mta_sts} />
        </Box>
        {data.watched && <History id={id} />}
      </Box>
    </>
  );
}
