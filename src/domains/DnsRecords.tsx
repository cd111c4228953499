/**
 * The DNS records a domain needs (verification TXT, MX, SPF, DKIM, DMARC), each with the exact
 * name, type and value to publish, copy buttons, and its live check: ok / missing / wrong /
 * unchecked with the translated advice. "Check now" looks them up again.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import RefreshIcon from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
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
import { useAreaCall } from '../area/useAreaCall';

export interface CheckedRecord {
  kind: 'verification' | 'mx' | 'spf' | 'dkim' | 'dmarc';
  type: 'TXT' | 'MX';
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
}

const statusColour = { ok: 'success', missing: 'warning', wrong: 'error', unchecked: 'default' } as const;

/** A long value (a DKIM key) is already in the Value column: the advice points there instead of repeating it. */
const shortened = (params: Record<string, string>, instead: string) => (params.value?.length > 100 ? { ...params, value: instead } : params);

function Copyable({ text, className }: { text: string; className: string }) {
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

export function DnsRecords() {
  const record = useRecordContext();
  const call = useAreaCall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const id = record?.id;
  const { data, isFetching, refetch } = useQuery({
    queryKey: ['domain-dns', id],
    queryFn: () => call<DnsView>('GET', 'domain/dns', { id }),
    enabled: id !== undefined,
  });
  if (!record) return null;
  return (
    <Box sx={{ p: 2 }} className="domain-dns">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6">{translate('app.dns.title')}</Typography>
        <Button label="app.dns.check_now" onClick={() => refetch()} disabled={isFetching} className="dns-check-now">
          <RefreshIcon />
        </Button>
        {data && (
          <Typography variant="caption" color="text.secondary">
            {translate('app.dns.checked_at', { time: new Date(data.checked_at).toLocaleString(locale === 'zh' ? 'zh-CN' : 'en-GB') })}
          </Typography>
        )}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.dns.intro')}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
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
            {data?.records.map((r) => (
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
                  {r.status !== 'ok' && (
                    <Typography variant="body2" sx={{ mt: 0.5, wordBreak: 'break-word' }} className="dns-advice">
                      {translate(r.message, { _: r.message, ...shortened(r.params, translate('app.dns.value_shown')) })}
                    </Typography>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
