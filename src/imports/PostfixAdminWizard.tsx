/**
 * The operators' import wizard: the PostfixAdmin database (a read-only connection string), the
 * customer each of its domains goes to, the dry run's report, then the import with its progress.
 */
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import Autocomplete from '@mui/material/Autocomplete';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Title, useTranslate, type HttpError } from 'react-admin';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { RunsCard } from './CsvPage';
import { countPhrases, type ImportReport, type ImportRun } from './importsApi';
import { ReportView, RunProgress } from './Report';

interface SourceDomain {
  name: string;
  description: string;
  active: boolean;
  backup_mx: boolean;
  mailboxes: number;
  aliases: number;
}
interface Inspected {
  source: string;
  domains: SourceDomain[];
  totals: { domains: number; mailboxes: number; aliases: number; alias_domains: number; vacations: number };
}
interface Customer {
  id: number;
  email: string;
}

/** A customer chosen by e-mail, searched as it is typed. */
function CustomerPicker({ value, onChange, domain }: { value: Customer | null; onChange: (c: Customer | null) => void; domain: string }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const [q, setQ] = useState('');
  const { data } = useQuery({ queryKey: ['import-customers', q], queryFn: () => call<{ list: Customer[] }>('POST', 'user/list', { page_size: 20, q }) });
  return (
    <Autocomplete
      size="small"
      sx={{ minWidth: 260 }}
      options={data?.list ?? []}
      value={value}
      onChange={(_e, next) => onChange(next)}
      onInputChange={(_e, text) => setQ(text)}
      getOptionLabel={(c) => c.email}
      openText={translate('app.imports.open')}
      closeText={translate('app.imports.close')}
      clearText={translate('app.imports.clear')}
      noOptionsText={translate('app.imports.no_options')}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      renderInput={(params) => <TextField {...params} label={translate('app.imports.customer')} placeholder={translate('app.imports.no_customer')} inputProps={{ ...params.inputProps, 'data-domain': domain, className: `${params.inputProps.className ?? ''} import-customer` }} />}
    />
  );
}

export function PostfixAdminWizard() {
  const call = useAreaCall();
  const translate = useTranslate();
  const [source, setSource] = useState('');
  const [inspected, setInspected] = useState<Inspected>();
  const [choices, setChoices] = useState<Record<string, Customer | null>>({});
  const [report, setReport] = useState<ImportReport>();
  const [runId, setRunId] = useState<number>();
  const [shown, setShown] = useState(false);
  // The server's refusals of a named field (the source, the mapping), translated, shown at that field.
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mapping = () => Object.entries(choices).map(([domain, c]) => ({ domain, customer_id: c?.id ?? null }));
  const quietly = async (work: () => Promise<void>) => {
    setErrors({});
    try {
      await work();
    } catch (error) {
      // A refusal that names no field has been said by the WARNING alert.
      setErrors((error as HttpError).body?.errors ?? {});
    }
  };
  const read = () =>
    quietly(async () => {
      setReport(undefined);
      setRunId(undefined);
      const answer = await call<Inspected>('POST', 'imports/postfixadmin/inspect', { source });
      setInspected(answer);
      setChoices(Object.fromEntries(answer.domains.map((d) => [d.name, choices[d.name] ?? null])));
    });
  const dryRun = () => quietly(async () => setReport((await call<{ report: ImportReport }>('POST', 'imports/postfixadmin/dry_run', { source, mapping: mapping() })).report));
  const start = () => quietly(async () => setRunId((await call<ImportRun>('POST', 'imports/postfixadmin/start', { source, mapping: mapping() })).id));

  return (
    <Box sx={{ mt: 2 }} className="import-wizard">
      <Title title="app.imports.wizard_menu" />
      <SectionCard title="app.imports.source_title" className="import-source">
        <Typography variant="body2" sx={{ mb: 1 }}>{translate('app.imports.source_intro')}</Typography>
        <Box component="pre" sx={{ mb: 2, fontSize: 13 }}>
          {'mysql://user:password@host/postfixadmin\nmariadb://user:password@host/postfixadmin\npostgres://user:password@host/postfixadmin\nmysql://user:password@host/postfixadmin?table_prefix=pfa_'}
        </Box>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
          <TextField
            size="small"
            fullWidth
            type={shown ? 'text' : 'password'}
            label={translate('app.imports.source')}
            value={source}
            onChange={(e) => setSource(e.target.value)}
            error={Boolean(errors.source)}
            helperText={errors.source}
            FormHelperTextProps={{ className: 'import-source-error' }}
            inputProps={{ className: 'import-source-url', autoComplete: 'off', spellCheck: false }}
            InputProps={{
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton size="small" onClick={() => setShown(!shown)} aria-label={translate(shown ? 'app.imports.hide_source' : 'app.imports.show_source')} className="import-source-show">
                    {shown ? <VisibilityOffIcon fontSize="small" /> : <VisibilityIcon fontSize="small" />}
                  </IconButton>
                </InputAdornment>
              ),
            }}
          />
          <Button label="app.imports.read_source" variant="contained" disabled={!source.trim()} onClick={read} className="import-read" />
        </Box>
      </SectionCard>
      {inspected && (
        <SectionCard title="app.imports.mapping_title" className="import-mapping">
          <Typography variant="body2" sx={{ mb: 2 }}>{translate('app.imports.mapping_intro', countPhrases(translate, inspected.totals))}</Typography>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('app.imports.domain')}</TableCell>
                <TableCell>{translate('app.imports.customer')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {inspected.domains.map((d) => (
                <TableRow key={d.name} className="import-domain">
                  <TableCell>
                    <Typography variant="body2">{d.name}</Typography>
                    <Typography variant="caption">{d.backup_mx ? translate('app.imports.backup_mx') : translate('app.imports.holds', countPhrases(translate, { mailboxes: d.mailboxes, aliases: d.aliases }))}</Typography>
                  </TableCell>
                  <TableCell>
                    <CustomerPicker domain={d.name} value={choices[d.name] ?? null} onChange={(c) => setChoices({ ...choices, [d.name]: c })} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {errors.mapping && (
            <Typography variant="body2" color="error" sx={{ mt: 1 }} className="import-mapping-error">
              {errors.mapping}
            </Typography>
          )}
          <Box sx={{ mt: 2 }}>
            <Button label="app.imports.dry_run" variant="contained" onClick={dryRun} disabled={!Object.values(choices).some(Boolean)} className="import-dry-run" />
          </Box>
        </SectionCard>
      )}
      {report && (
        <SectionCard title="app.imports.report_title" className="import-report-card">
          <ReportView report={report} />
          <Button label="app.imports.start" variant="contained" onClick={start} disabled={runId !== undefined} className="import-start" />
        </SectionCard>
      )}
      {runId !== undefined && (
        <SectionCard title="app.imports.progress_title" className="import-progress">
          <RunProgress id={runId} />
        </SectionCard>
      )}
      <RunsCard />
    </Box>
  );
}
