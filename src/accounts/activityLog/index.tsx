/** The activity log as sentences (list and view). */
import HistoryIcon from '@mui/icons-material/History';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { auditLog } from '../../../resources/audit_log';
import type { Area } from '../../../resources/define';
import { useAreaScreens } from '../../screens/areaScreens';
import { WholeAddress } from '../../screens/fields';
import type { FieldViewProps, ScreenExtension, ScreenFeature } from '../../screens/screen';
import { logChanges, logSentence, type LogEntry } from './sentence';

function useReader() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return { t: translate as (key: string, options?: Record<string, unknown>) => string, locale: (locale === 'en' ? 'en' : 'zh') as 'zh' | 'en' };
}

/** An address or a domain name inside a sentence (ASCII: IDNs are named in punycode or by their address). */
const addressIn = /([\w.%+-]+@[\w-]+(?:\.[\w-]+)+|(?:[\w-]+\.)+[a-z]{2,}\b)/i;

export function LogSentence({ area }: FieldViewProps & { area?: Area }) {
  const record = useRecordContext<LogEntry & { id: number }>();
  const { t, locale } = useReader();
  if (!record) return null;
  // The sentence wraps between its words, never at a hyphen inside an address or a domain.
  const parts = logSentence(record, area ?? 'manage', locale, t).split(addressIn);
  return (
    <Typography variant="body2" component="span" className="log-sentence">
      {parts.map((part, i) => (i % 2 ? <WholeAddress key={i} value={part} /> : part))}
    </Typography>
  );
}

export function LogChanges() {
  const record = useRecordContext<LogEntry & { id: number }>();
  const { t, locale } = useReader();
  const { declarations } = useAreaScreens();
  if (!record) return null;
  const changes = logChanges(record, declarations, locale, t);
  if (changes.length === 0) return <Typography variant="body2">{t('app.log.no_changes')}</Typography>;
  const hasBefore = Boolean(record.before);
  const hasAfter = Boolean(record.after);
  return (
    <Table size="small" className="log-changes" sx={{ maxWidth: 720 }}>
      <TableHead>
        <TableRow>
          <TableCell>{t('app.log.field')}</TableCell>
          {hasBefore && <TableCell>{t('app.log.before')}</TableCell>}
          {hasAfter && <TableCell>{t('app.log.after')}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((c) => (
          <TableRow key={c.field}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{c.label}</TableCell>
            {hasBefore && <TableCell sx={{ wordBreak: 'break-word' }}>{c.before}</TableCell>}
            {hasAfter && <TableCell sx={{ wordBreak: 'break-word' }}>{c.after}</TableCell>}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const logScreens: ScreenExtension = {
  columns: (area) => ['created_at', 'action', ...(area === 'manage' ? ['user_id'] : []), 'ip'],
  views: { action: LogSentence, before: LogChanges },
  viewFields: (area) => ['created_at', 'action', 'before', ...(area === 'manage' ? ['actor_type', 'user_id'] : []), 'ip', 'user_agent'],
};

export const activityLog: ScreenFeature = { declaration: auditLog, extension: logScreens, icon: HistoryIcon };
