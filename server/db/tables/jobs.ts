/** Jobs: the embedded queue's table (SQLite; PostgreSQL's jobs are in pg-boss's own schema). */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

export type JobState = 'queued' | 'active' | 'done' | 'failed';

export interface JobRow {
  id: Id;
  name: string;
  payload: string;
  state: JobState;
  unique_key: string | null;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  retry_delay_seconds: number;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  done_at: Timestamp | null;
}

export interface JobsTables {
  job: JobRow;
}
