/**
 * How a capability declares work that must happen later, again, or exactly once. Jobs are
 * enqueued with services.jobs.enqueue inside the transaction that causes them; a capability
 * lists its jobs, schedules and housekeeping steps in its manifest.
 */
import type { Services } from './services.js';

export interface JobContext {
  services: Services;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** No retry follows if this run fails: the job is then kept as failed. */
  finalAttempt: boolean;
  /**
   * Aborted when this process stops (SIGTERM, a rolling upgrade): work that runs long ends at its next
   * safe point and leaves the rest to a later run, so the process stops in seconds, not minutes.
   */
  stopping?: AbortSignal;
}

export interface JobSpec<P> {
  /** 'mail.send', 'order.fulfil', … (letters, digits, '.', '_' and '-'). */
  name: string;
  /** Must be idempotent: a run cut short (crash, lost lease) runs again. */
  handler(payload: P, ctx: JobContext): Promise<void>;
  /** Retries after the first run; default 5. Then the job is kept as failed with its error. */
  retryLimit?: number;
  /** Wait before the first retry, in seconds (default 10); each further retry waits twice as long. */
  retryDelaySeconds?: number;
  /**
   * 'long': work that may hold a worker for long (a mail copy's slice: up to 30 s of copying, or
   * 20 s waiting on a silent server). Long jobs run in a lane of their own, several at once
   * (MAIL_COPY_WORKERS), so they never stand in front of the mail people wait for.
   */
  lane?: 'long';
  /**
   * A long job's owner (the customer): at most MAIL_COPY_PER_CUSTOMER of one owner's long jobs run at
   * once, and a free worker takes the job of the owner with the fewest running, so that one
   * customer's thousand copies do not hold the lane for everyone else.
   */
  ownerOf?(payload: P): string | number | undefined;
}

export function defineJob<P>(spec: JobSpec<P>): JobSpec<P> {
  return spec;
}

export interface ScheduleSpec {
  name: string;
  /** Five fields, UTC: minute hour day-of-month month day-of-week. */
  cron: string;
  handler(ctx: JobContext): Promise<void>;
  /** 'long': a run that may take minutes (the DNS watch) runs in the lane of long jobs (JobSpec.lane). */
  lane?: 'long';
}

/** A task that runs once per period of its cron expression, across all instances. */
export function defineSchedule(spec: ScheduleSpec): ScheduleSpec {
  return spec;
}

/**
 * One step of the hourly housekeeping: removes what has ended from the capability's tables.
 * One indexed DELETE or so, harmless when run twice.
 */
export type HousekeepingStep = (services: Services) => Promise<void>;

export const defaultRetryLimit = 5;
export const defaultRetryDelaySeconds = 10;

/** Wait before retry number `retry` (1-based): the first delay, doubled each time. */
export function retryDelayMs(spec: Pick<JobSpec<unknown>, 'retryDelaySeconds'>, retry: number): number {
  return (spec.retryDelaySeconds ?? defaultRetryDelaySeconds) * 1000 * 2 ** Math.max(0, retry - 1);
}
