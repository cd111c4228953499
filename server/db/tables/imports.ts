/** Moving in: import runs (PostfixAdmin, CSV) with the items they create and how far they got. */
import type { Id, Timestamp } from './columns.js';

export type ImportRunState = 'queued' | 'running' | 'done' | 'failed';

export interface ImportRunRow {
  id: Id;
  kind: 'postfixadmin' | 'csv';
  area: 'admin' | 'manage';
  owner_id: number | null;
  /** What was read, without its password (mysql://pfa@db.example/postfix). */
  source: string;
  started_by: string;
  /** The caller who started it (JSON), whose name the log gives to what the job changes. */
  actor: string;
  state: ImportRunState;
  total: number;
  done: number;
  /** JSON: the items to create, in order. */
  items: string;
  /** JSON: the dry run's report at the start. */
  report: string;
  /** JSON: how many of each kind the run created. */
  created: string;
  error: string | null;
  lease_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface ImportTables {
  import_run: ImportRunRow;
}
