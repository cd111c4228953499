/**
 * The DNS records a domain needs (verification TXT, MX, SPF, DKIM, DMARC, MTA-STS, TLS-RPT, and the recommended
 * records mail programs configure themselves from), each with the exact name, type and value
 * to publish, copy buttons, and its live check: ok / missing / wrong / unchecked with the
 * translated advice. "Check now" looks them up again. A table on wide screens, cards on phones.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import KeyIcon from '@mui/icons-material/Key';
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Button, useLocaleState, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useAreaCall } from '../../area/useAreaCall';
import { formatDateTime } from '../../screens/shownDates';

/** Records with which mail programs find the servers themselves: recommended, shown as a group of their own. */
const clientKinds = ['autoconfig', 'autodiscover', 'autodiscover_srv', 'imaps_srv', 'submission_srv', 'submissions_srv'] as const;
const isClientKind = (kind: string) => (clientKinds as readonly string[]).includes(kind);

export interface CheckedRecord {
  kind: 'verification' | 'mx' | 'spf' | 'dkim' | 'dkim_next' | 'dmarc' | 'mta_sts' | 'mta_sts_host' | 'tls_rpt' | (typeof clientKinds)[number];
  type: 'TXT' | 'MX' | 'CNAME' | 'SRV';
  host: string;
  value: string;
  priority?: number;
  status: 'ok' | 'missing' | 'wrong' | 'unchecked';
  found: string[];
  message: string;
  params: Record<string, string>;
}

interface DnsView {
  records: CheckedRecord[];
  checked_at: string;
  /** While the mail server's name cannot be an MX: what to configure (operators) or wait for (customers). */
  notice: { message: string; params: Record<string, string> } | null;
}

const statusColour = { ok: 'success', missing: 'warning', wrong: 'error', unchecked: 'default' } as const;

/** A long value (a DKIM key) is already in the Value column: the advice points there instead of repeating it. */
const shortened = (params: Record<string, string>, instead: string) => (params.value?.length > 100 ? { ...params, value: instead } : params);

export function Copyable({ text, className }: { text: string; className: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    notify('app.dns.copied', { type: 'info' });
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <Typography variant="body2" className={className} sx={{ fontFamily: 'monospace', wordBreak: 'break-all', flex: 1 }}>
        {text}
      </Typography>
      <Tooltip title={translate('app.dns.copy')}>
        <IconButton size="small" onClick={copy} aria-label={translate('app.dns.copy')}>
          <ContentCopyIcon fontSize="inherit" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

const MARK = '\u0000';

/** The advice sentence, with the record's names and values set apart (monospace, data) from its wording. */
function Advice({ r }: { r: CheckedRecord }) {
  const translate = useTranslate();
  if (r.status === 'ok') return null;
  const params = shortened(r.params, translate('app.dns.value_shown'));
  const marked = Object.fromEntries(Object.keys(params).map((key) => [key, `${MARK}${key}${MARK}`]));
  const parts = translate(r.message, { _: r.message, ...marked }).split(MARK);
  return (
    <Typography variant="body2" sx={{ mt: 0.5, wordBreak: 'break-word' }} className="dns-advice">
      {parts.map((part, i) =>
        i % 2 === 0 ? (
          part
        ) : params[part] === r.params[part] ? (
          <code key={i} className="dns-advice-value" style={{ fontFamily: 'monospace' }}>
            {params[part]}
          </code>
        ) : (
          <span key={i}>{params[part]}</span>
        ),
      )}
    </Typography>
  );
}

/** At phone width each record is a card: name, type, host, value and check one under the other, nothing off-screen. */
function RecordCards({ records }: { records: CheckedRecord[] }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      {records.map((r, i) => (
        <Box key={r.kind}>
          {isClientKind(r.kind) && !isClientKind(records[i - 1]?.kind ?? '') && <ClientHeading />}
          <Card variant="outlined" className={`dns-record dns-${r.kind} dns-${r.status}`}>
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
                <Typography variant="subtitle2">
                  {translate(`app.dns.kind.${r.kind}`)} · {r.type}
                </Typography>
                <Chip size="small" color={statusColour[r.status]} label={translate(`app.dns.state.${r.status}`)} className="dns-status" />
              </Box>
              <Typography variant="caption" color="text.secondary">
                {translate('app.dns.host')}
              </Typography>
              <Copyable text={r.host} className="dns-host" />
              <Typography variant="caption" color="text.secondary">
                {translate('app.dns.value')}
                {r.priority !== undefined && ` · ${translate('app.dns.priority', { priority: r.priority })}`}
              </Typography>
              <Copyable text={r.value} className="dns-value" />
              <Advice r={r} />
            </CardContent>
          </Card>
        </Box>
      ))}
    </Box>
  );
}

function ClientHeading() {
  const translate = useTranslate();
  return (
    <Box sx={{ mt: 2, mb: 1 }} className="dns-client-heading">
      <Typography variant="subtitle1">{translate('app.dns.client_title')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('app.dns.client_intro')}
      </Typography>
    </Box>
  );
}

export function DnsRecords() {
  const record = useRecordContext();
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const id = record?.id;
  const { data, isFetching, refetch } = useQuery({
    queryKey: ['domain-dns', id],
    queryFn: () => call<DnsView>('GET', 'domain/dns', { id }),
    enabled: id !== undefined,
  });
  if (!record) return null;
  // DKIM rotation: first a next key to publish beside the current one, then the switch.
  const rotating = data?.records.some((r) => r.kind === 'dkim_next') ?? false;
  const rotate = async () => {
    try {
      const result = await call<{ switched: boolean }>('POST', 'domain/dkim_rotate', { id });
      notify(result.switched ? 'app.dns.dkim_switched' : 'app.dns.dkim_prepared', { type: 'success' });
    } catch {
      // The warning names the record to publish.
    }
    await refetch();
  };
  return (
    <Box sx={{ p: 2 }} className="domain-dns">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6">{translate('app.dns.title')}</Typography>
        <Button label="app.dns.check_now" onClick={() => refetch()} disabled={isFetching} className="dns-check-now">
          <RefreshIcon />
        </Button>
        <Button label={rotating ? 'app.dns.dkim_switch' : 'app.dns.dkim_prepare'} onClick={rotate} disabled={isFetching} className="dns-dkim-rotate">
          <KeyIcon />
        </Button>
        {data && (
          <Typography variant="caption" color="text.secondary">
            {translate('app.dns.checked_at', { time: formatDateTime(data.checked_at, locale) })}
          </Typography>
        )}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.dns.intro')}
      </Typography>
      {data?.notice && (
        <Alert severity="warning" sx={{ mb: 1 }} className="dns-notice">
          {translate(data.notice.message, { _: data.notice.message, ...data.notice.params })}
        </Alert>
      )}
      {narrow && data && <RecordCards records={data.records} />}
      <Box sx={{ overflowX: 'auto', display: narrow ? 'none' : undefined }}>
        <Table size="small" sx={{ tableLayout: 'fixed', minWidth: 760 }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 110 }}>{translate('app.dns.record')}</TableCell>
              <TableCell sx={{ width: 70 }}>{translate('app.dns.type')}</TableCell>
              <TableCell sx={{ width: '24%' }}>{translate('app.dns.host')}</TableCell>
              <TableCell>{translate('app.dns.value')}</TableCell>
              <TableCell sx={{ width: '26%' }}>{translate('app.dns.status')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.records.map((r, i) => [
              isClientKind(r.kind) && !isClientKind(data.records[i - 1]?.kind ?? '') && (
                <TableRow key="client-heading">
                  <TableCell colSpan={5}>
                    <ClientHeading />
                  </TableCell>
                </TableRow>
              ),
              <TableRow key={r.kind} className={`dns-record dns-${r.kind} dns-${r.status}`} sx={{ verticalAlign: 'top' }}>
                <TableCell>{translate(`app.dns.kind.${r.kind}`)}</TableCell>
                <TableCell>{r.type}</TableCell>
                <TableCell>
                  <Copyable text={r.host} className="dns-host" />
                </TableCell>
                <TableCell>
                  {r.priority !== undefined && (
                    <Typography variant="caption" color="text.secondary">
                      {translate('app.dns.priority', { priority: r.priority })}
                    </Typography>
                  )}
                  <Copyable text={r.value} className="dns-value" />
                </TableCell>
                <TableCell>
                  <Chip size="small" color={statusColour[r.status]} label={translate(`app.dns.state.${r.status}`)} className="dns-status" />
                  <Advice r={r} />
                </TableCell>
              </TableRow>,
            ])}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
