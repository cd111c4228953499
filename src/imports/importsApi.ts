/**
 * The import calls as the screens use them (/api/{admin,manage}/imports/…): runs and their
 * progress, CSV files checked and imported, the template and the export downloaded.
 */
import { useQuery } from '@tanstack/react-query';
import { customerSession, operatorSession } from '../authProvider/session';
import { useAreaCall } from '../area/useAreaCall';

export type ItemKind = 'domain' | 'alias_domain' | 'mailbox' | 'alias' | 'rules';
export const itemKinds: ItemKind[] = ['domain', 'alias_domain', 'mailbox', 'alias', 'rules'];

export interface ImportReport {
  create: Record<ItemKind, number>;
  conflicts: { kind: string; name: string; reason: string; line?: number }[];
  not_carried: { kind: string; name: string; reason: string }[];
  capacity: { customer_id: number; shortfall: number }[];
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

/** A run, asked again every second until it has ended. */
export function useRun(id: number | undefined) {
  const call = useAreaCall();
  return useQuery({
    queryKey: ['import-run', id],
    queryFn: () => call<ImportRun>('GET', 'imports/get', { id }),
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data && (query.state.data.state === 'done' || query.state.data.state === 'failed') ? false : 1000),
  });
}

export function useRuns() {
  const call = useAreaCall();
  return useQuery({ queryKey: ['import-runs'], queryFn: () => call<{ list: ImportRun[] }>('GET', 'imports/list') });
}

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
