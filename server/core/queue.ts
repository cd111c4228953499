/**
 * services.jobs: durable jobs and schedules behind one interface. SQLite: a table in the
 * same database, worked in-process; PostgreSQL: pg-boss (both in server/jobs/).
 */
import type { Db } from '../db/index.js';

/** A job as enqueueing sees it: its name, and the payload its handler takes (core/jobs.ts declares the rest). */
export interface JobRef<P> {
  name: string;
  handler(payload: P, ctx: never): Promise<void>;
}

export interface EnqueueOptions {
  /**
   * At most one job of this name with this key exists while it is kept (queued, running,
   * failed, or done within the retention time): a second enqueue is a no-op.
   */
  uniqueKey?: string;
  /** Not before this time. */
  startAfter?: Date;
}

export type JobState = 'queued' | 'active' | 'done' | 'failed';

/** Per job name, for the operators' screen and dashboard. */
export interface JobCounts {
  name: string;
  queued: number;
  active: number;
  failed: number;
  /** Finished in the last 24 hours. */
  done_1d: number;
}

/** One job as operators see it: the payload with its secrets masked. */
export interface JobView {
  id: string;
  name: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_at: string;
  last_error: string | null;
  payload: unknown;
  created_at: string;
  updated_at: string;
}

export interface JobQuery {
  name?: string;
  state?: JobState;
  page: number;
  pageSize: number;
}

export interface Jobs {
  /**
   * Enqueues `job` inside `db` (the caller's transaction, or services.db): the job exists
   * if and only if that transaction commits.
   */
  enqueue<P>(db: Db, job: JobRef<P>, payload: P, options?: EnqueueOptions): Promise<void>;
  /** Tests: runs every job that is due now, until none is left. */
  drain(): Promise<void>;
  /** Tests: runs a scheduled task now. */
  runSchedule(name: string): Promise<void>;
  counts(): Promise<JobCounts[]>;
  /** How long the job that has waited longest since it was due has waited, in seconds; 0 when none waits (metrics). */
  oldestWaitingSeconds(): Promise<number>;
  list(query: JobQuery): Promise<{ list: JobView[]; total: number }>;
  get(id: string): Promise<JobView | undefined>;
  /** A failed job gets one more try, now. False if it is not failed. */
  retry(id: string): Promise<boolean>;
  /** Removes a failed or queued job (its unique key becomes free). False if there is none such. */
  discard(id: string): Promise<boolean>;
}
