/** A dry run's report and a run's progress, as the wizard and the CSV page show them. */
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { formatBytes } from '../../resources/bytes';
import { itemKinds, useRun, type ImportReport, type ItemKind } from './importsApi';

const LIST_MAX = 200;

/** Counts per kind: what will be made, and (for a run) what was. */
export function Counts({ create, created }: { create: Record<ItemKind, number>; created?: Record<ItemKind, number> }) {
  const translate = useTranslate();
  return (
    <Table size="small" className="import-counts" sx={{ maxWidth: 480, mb: 2 }}>
      <TableHead>
        <TableRow>
          <TableCell />
          <TableCell align="right">{translate('app.imports.will_create')}</TableCell>
          {created && <TableCell align="right">{translate('app.imports.created')}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {itemKinds.map((kind) => (
          <TableRow key={kind} className={`import-count-${kind}`}>
            <TableCell>{translate(`app.imports.create_${kind}`)}</TableCell>
            <TableCell align="right">{create[kind]}</TableCell>
            {created && <TableCell align="right">{created[kind]}</TableCell>}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const reasonText = (translate: ReturnType<typeof useTranslate>, reason: string) => translate(`app.imports.reason_${reason}`, { _: reason });

export function ReportView({ report }: { report: ImportReport }) {
  const translate = useTranslate();
  const schemes = Object.entries(report.schemes).map(([scheme, n]) => `${scheme} ${n}`).join(', ');
  return (
    <div className="import-report">
      <Counts create={report.create} />
      {schemes && <Alert severity="info" sx={{ mb: 1 }}>{translate('app.imports.weak_brought', { schemes })}</Alert>}
      {report.capacity.map((c) => (
        <Alert key={c.customer_id} severity="warning" sx={{ mb: 1 }} className="import-capacity">
          {translate('app.imports.capacity_short', { customer: c.customer_name ? `${c.customer_name} (${c.customer_email})` : c.customer_email || `#${c.customer_id}`, shortfall: formatBytes(c.shortfall) })}
        </Alert>
      ))}
      <Typography variant="subtitle1">{translate('app.imports.conflicts')}</Typography>
      {report.conflicts.length === 0 ? (
        <Typography variant="body2" sx={{ mb: 2 }}>{translate('app.imports.no_conflicts')}</Typography>
      ) : (
        <Table size="small" className="import-conflicts" sx={{ mb: 2 }}>
          <TableBody>
            {report.conflicts.slice(0, LIST_MAX).map((c) => (
              <TableRow key={`${c.kind}:${c.name}`}>
                {c.line !== undefined && <TableCell>{c.line}</TableCell>}
                <TableCell data-user-data>{c.name}</TableCell>
                <TableCell>{reasonText(translate, c.reason)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {report.not_carried.length > 0 && (
        <>
          <Typography variant="subtitle1">{translate('app.imports.not_carried')}</Typography>
          <Table size="small" className="import-not-carried">
            <TableBody>
              {report.not_carried.slice(0, LIST_MAX).map((n) => (
                <TableRow key={`${n.kind}:${n.name}:${n.reason}`}>
                  <TableCell data-user-data>{n.name}</TableCell>
                  <TableCell>{reasonText(translate, n.reason)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </div>
  );
}

/** A run's progress, asked again every second until it ends, then what it made. */
export function RunProgress({ id }: { id: number }) {
  const translate = useTranslate();
  const { data: run } = useRun(id);
  if (!run) return <LinearProgress />;
  const made = Object.values(run.created).reduce((a, b) => a + b, 0);
  return (
    <div className={`import-run import-run-${run.state}`}>
      <LinearProgress variant="determinate" value={run.total ? (100 * run.done) / run.total : run.state === 'done' ? 100 : 0} sx={{ mb: 1 }} />
      <Typography variant="body2" className="import-run-state" sx={{ mb: 1 }}>
        {translate(`app.imports.state_${run.state}`, { done: run.done, total: run.total, smart_count: run.total, created: made, error: run.error ?? '' })}
      </Typography>
      {run.state === 'done' && <Counts create={run.report.create} created={run.created} />}
    </div>
  );
}
