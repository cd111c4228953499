/**
 * The import calls as the screens use them (/api/{admin,manage}/imports/…): runs and their
 * progress, CSV files checked and imported, the template and the export downloaded.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { customerSession, operatorSession } from '../authProvider/session';
import { useAreaCall } from '../area/useAreaCall';

export type ItemKind = 'domain' | 'alias_domain' | 'mailbox' | 'alias' | 'rules';
export const itemKinds: ItemKind[] = ['domain', 'alias_domain', 'mailbox', 'alias', 'rules'];

export interface ImportReport {
  create: Record<ItemKind, number>;
  conflicts: { kind: string; name: string; reason: string; line?: number }[];
  not_carried: { kind: string; name: string; reason: string }[];
  capacity: { customer_id: number; customer_email: string; customer_name: string; shortfall: number }[];
  schemes: Record<string, number>;
}

export interface ImportRun {
  id: number;
  kind: 'postfixadmin' | 'csv';
  source: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  done: number;
  report: ImportReport;
  created: Record<ItemKind, number>;
  error: string | null;
  created_at: string;
}

export interface CsvError {
  line: number;
  column: string;
  message: string;
  params?: Record<string, unknown>;
}

const hasEnded = (run: ImportRun) => run.state === 'done' || run.state === 'failed';

/** A run, asked again every second until it has ended; then the list of runs is read again, to show it ended too. */
export function useRun(id: number | undefined) {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['import-run', id],
    queryFn: async () => {
      const run = await call<ImportRun>('GET', 'imports/get', { id });
      if (hasEnded(run)) void queryClient.invalidateQueries({ queryKey: ['import-runs'] });
      return run;
    },
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data && hasEnded(query.state.data) ? false : 1000),
  });
}

/** The area's runs; while one of them is under way, asked again every two seconds (a run started elsewhere ends here too). */
export function useRuns() {
  const call = useAreaCall();
  return useQuery({
    queryKey: ['import-runs'],
    queryFn: () => call<{ list: ImportRun[] }>('GET', 'imports/list'),
    refetchInterval: (query) => (query.state.data?.list.some((run) => !hasEnded(run)) ? 2000 : false),
  });
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Each count with its noun, in the language's plural forms: { mailboxes: 1 } → { mailboxes: '1 mailbox' }. */
export function countPhrases<K extends string>(translate: Translate, counts: Record<K, number>): Record<K, string> {
  return Object.fromEntries(Object.entries<number>(counts).map(([kind, n]) => [kind, translate(`app.imports.count.${kind}`, { smart_count: n })])) as Record<K, string>;
}

/** Where a run came from, when it says more than its kind (PostfixAdmin's host and database; not "csv" again). */
export const runSource = (run: Pick<ImportRun, 'kind' | 'source'>) => (run.source && run.source !== run.kind ? run.source : '');

/** Files come with the session header, so they are fetched and handed to the browser as a download. */
export async function download(area: 'admin' | 'manage', path: string, fileName: string) {
  const token = area === 'admin' ? customerSession.token() : operatorSession.token();
  const response = await fetch(`/api/${area}/imports/${path}`, { headers: { Authentication: token } });
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
