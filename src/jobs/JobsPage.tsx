/**
 * /manage/jobs: the job machinery for operators. Per job name: queued, running, failed and
 * done in the last day; the failed jobs with their error and payload (secrets come masked
 * from the server); retry and discard for superadmins (the server checks the role too).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useNotify, usePermissions, useTranslate } from 'react-admin';
import { useAreaCall } from '../area/useAreaCall';

interface JobCounts {
  name: string;
  queued: number;
  active: number;
  failed: number;
  done_1d: number;
}

interface Job {
  id: string;
  name: string;
  state: string;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  payload: unknown;
  updated_at: string;
}

export function JobsPage() {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { permissions } = usePermissions<{ role: string }>();
  const superadmin = permissions?.role === 'superadmin';
  const summary = useQuery({ queryKey: ['job', 'summary'], queryFn: () => call<JobCounts[]>('POST', 'job/summary') });
  const failed = useQuery({ queryKey: ['job', 'failed'], queryFn: () => call<{ list: Job[]; total: number }>('POST', 'job/list', { filter: { state: 'failed' }, page_size: 50 }) });

  async function act(action: 'retry' | 'discard', job: Job) {
    try {
      await call('POST', `job/${action}`, { id: job.id });
      notify(`app.jobs.${action}_done`, { type: 'info' });
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    }
    await queryClient.invalidateQueries({ queryKey: ['job'] });
  }

  return (
    <Box sx={{ mt: 2 }} className="jobs-page">
      <Title title="app.jobs.title" />
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {translate('app.jobs.by_name')}
          </Typography>
          <Table size="small" className="job-counts">
            <TableHead>
              <TableRow>
                {['name', 'queued', 'active', 'failed', 'done_1d'].map((column) => (
                  <TableCell key={column}>{translate(`app.jobs.${column}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(summary.data ?? []).map((line) => (
                <TableRow key={line.name} className={`job-counts-${line.name}`}>
                  <TableCell>{line.name}</TableCell>
                  <TableCell>{line.queued}</TableCell>
                  <TableCell>{line.active}</TableCell>
                  <TableCell>{line.failed}</TableCell>
                  <TableCell>{line.done_1d}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {summary.data?.length === 0 && <Typography color="text.secondary">{translate('app.jobs.none')}</Typography>}
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {translate('app.jobs.failed_jobs')}
          </Typography>
          {failed.data?.list.length === 0 && <Typography color="text.secondary">{translate('app.jobs.no_failed')}</Typography>}
          {failed.data?.list.map((job) => (
            <Box key={job.id} className="failed-job" sx={{ borderTop: 1, borderColor: 'divider', py: 1 }}>
              <Typography variant="subtitle2">
                {job.name} · {translate('app.jobs.attempts', { attempts: job.attempts, smart_count: job.max_attempts })}
              </Typography>
              <Typography variant="body2" color="error" className="job-error">
                {job.last_error}
              </Typography>
              <Typography component="pre" variant="body2" className="job-payload" sx={{ m: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {JSON.stringify(job.payload, null, 2)}
              </Typography>
              {superadmin && (
                <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
                  <Button size="small" variant="contained" className="job-retry" onClick={() => act('retry', job)}>
                    {translate('app.jobs.retry')}
                  </Button>
                  <Button size="small" color="error" className="job-discard" onClick={() => act('discard', job)}>
                    {translate('app.jobs.discard')}
                  </Button>
                </Box>
              )}
            </Box>
          ))}
        </CardContent>
      </Card>
    </Box>
  );
}
