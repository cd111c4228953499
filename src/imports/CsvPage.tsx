/**
 * CSV import and export, in the customer area (their domains) and the operators' (any customer's):
 * the template, the export, a file checked row by row (problems by line and column), then its
 * import with progress, and the area's last runs.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Title, useTranslate } from 'react-admin';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { CsvErrors } from './CsvErrors';
import { download, runSource, useRuns, type CsvError, type ImportReport, type ImportRun } from './importsApi';
import { ReportView, RunProgress } from './Report';
import { useShownDates } from '../screens/shownDates';

export function CsvPage({ area }: { area: 'admin' | 'manage' }) {
  const translate = useTranslate();
  const call = useAreaCall();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<{ name: string; text: string }>();
  const [checked, setChecked] = useState<{ errors: CsvError[]; report: ImportReport | null }>();
  const [runId, setRunId] = useState<number>();

  const choose = async (chosen: File | undefined) => {
    setChecked(undefined);
    setRunId(undefined);
    // A spreadsheet's byte order mark is no part of the text.
    setFile(chosen ? { name: chosen.name, text: (await chosen.text()).replace(/^\ufeff/, '') } : undefined);
  };
  const check = async () => {
    if (!file) return;
    try {
      setChecked(await call<{ errors: CsvError[]; report: ImportReport | null }>('POST', 'imports/csv_dry_run', { csv: file.text }));
    } catch {
      // The warning has said why.
    }
  };
  const start = async () => {
    if (!file) return;
    try {
      const run = await call<ImportRun>('POST', 'imports/csv_start', { csv: file.text });
      setRunId(run.id);
      await queryClient.invalidateQueries({ queryKey: ['import-runs'] });
    } catch {
      // The warning has said why.
    }
  };
  const rows = file ? file.text.split(/\r?\n/).filter((l) => l.trim()).length - 1 : 0;
  return (
    <Box sx={{ mt: 2 }} className="csv-page">
      <Title title="app.imports.csv_menu" />
      <SectionCard title="app.imports.csv_title" className="csv-import">
        <Typography variant="body2" sx={{ mb: 1 }}>{translate('app.imports.csv_intro')}</Typography>
        <Box component="pre" sx={{ mb: 2, fontSize: 13, overflowX: 'auto' }}>
          {'type,address,name,password,password_hash,quota,active,destinations\nmailbox,anna@example.org,Anna,,{SHA512-CRYPT}$6$…,2G,1,\nalias,sales@example.org,,,,,1,anna@example.org'}
        </Box>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
          <Button label="app.imports.template" onClick={() => download(area, 'csv_template', 'maildesk-import-template.csv')} className="csv-template" />
          <Button label="app.imports.choose_file" component="label" variant="outlined" className="csv-choose">
            <input hidden type="file" accept=".csv,text/csv" className="csv-file" onChange={(e) => void choose(e.target.files?.[0])} />
          </Button>
          {file && <Typography variant="body2" className="csv-file-name" data-user-data>{translate('app.imports.file_chosen', { name: file.name, smart_count: rows })}</Typography>}
        </Box>
        <Box sx={{ display: 'flex', gap: 2, mb: 2 }}>
          <Button label="app.imports.check" variant="contained" disabled={!file} onClick={check} className="csv-check" />
          <Button label="app.imports.start" variant="contained" disabled={!checked || checked.errors.length > 0 || runId !== undefined} onClick={start} className="csv-start" />
        </Box>
        {checked && checked.errors.length > 0 && <CsvErrors errors={checked.errors} />}
        {checked?.report && runId === undefined && (
          <>
            <Typography variant="body2" color="success.main" sx={{ mb: 1 }} className="csv-ok">{translate('app.imports.file_ok')}</Typography>
            <ReportView report={checked.report} />
          </>
        )}
        {runId !== undefined && <RunProgress id={runId} />}
      </SectionCard>
      <SectionCard title="app.imports.export_title" className="csv-export">
        <Typography variant="body2" sx={{ mb: 2 }}>{translate(area === 'admin' ? 'app.imports.export_intro' : 'app.imports.export_intro_manage')}</Typography>
        <Button label="app.imports.export" variant="outlined" onClick={() => download(area, 'csv_export', `maildesk-export-${new Date().toISOString().slice(0, 10)}.csv`)} />
      </SectionCard>
      <RunsCard />
    </Box>
  );
}

/** The area's last runs, each with its state. */
export function RunsCard() {
  const translate = useTranslate();
  const shown = useShownDates();
  const { data } = useRuns();
  return (
    <SectionCard title="app.imports.runs_title" className="import-runs">
      {!data || data.list.length === 0 ? (
        <Typography variant="body2">{translate('app.imports.no_runs')}</Typography>
      ) : (
        data.list.slice(0, 10).map((run) => (
          <Box key={run.id} sx={{ mb: 1 }} className="import-runs-row">
            <Typography variant="caption">
              #{run.id} {translate(`app.imports.kind_${run.kind}`)}
              {runSource(run) && <span data-user-data> ({runSource(run)})</span>} — {shown.dateTime(run.created_at)}
            </Typography>
            <Typography variant="body2">
              {translate(`app.imports.state_${run.state}`, { done: run.done, total: run.total, smart_count: run.total, created: Object.values(run.created).reduce((a, b) => a + b, 0), error: run.error ?? '' })}
            </Typography>
          </Box>
        ))
      )}
    </SectionCard>
  );
}
