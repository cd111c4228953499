/** What a queue runs: each job and schedule by name, with its retry settings. */
import cronParser from 'cron-parser';
import { nowMs } from '../core/time.js';
import type { Services } from '../services.js';
import { defaultRetryDelaySeconds, defaultRetryLimit, type JobContext } from './define.js';
import type { JobRegistry } from './index.js';

export interface Runnable {
  name: string;
  retryLimit: number;
  retryDelaySeconds: number;
  run(payload: unknown, ctx: JobContext): Promise<void>;
  /** Set for a schedule's job. */
  cron?: string;
}

/** A failed scheduled run is retried a little, then waits for its next period. */
const scheduleRetryLimit = 2;

export function runnablesOf(registry: JobRegistry): Map<string, Runnable> {
  const byName = new Map<string, Runnable>();
  const add = (runnable: Runnable) => {
    if (!/^[\w.-]+$/.test(runnable.name)) throw new Error(`Job name "${runnable.name}": use letters, digits, '.', '_' and '-'`);
    if (byName.has(runnable.name)) throw new Error(`Two jobs or schedules are named "${runnable.name}"`);
    byName.set(runnable.name, runnable);
  };
  for (const job of registry.jobs) {
    add({ name: job.name, retryLimit: job.retryLimit ?? defaultRetryLimit, retryDelaySeconds: job.retryDelaySeconds ?? defaultRetryDelaySeconds, run: job.handler });
  }
  for (const schedule of registry.schedules) {
    add({ name: schedule.name, cron: schedule.cron, retryLimit: scheduleRetryLimit, retryDelaySeconds: 30, run: (_payload, ctx) => schedule.handler(ctx) });
  }
  return byName;
}

/**
 * A schedule whose cron does not parse fails the queue's start, not a run at 3 a.m. (Checked
 * when the workers start, after the app listens: the cron library's first use is slow.)
 */
export function checkSchedules(runnables: Map<string, Runnable>) {
  for (const runnable of runnables.values()) if (runnable.cron) cronParser.parseExpression(runnable.cron);
}

/** The start of the cron period we are in (its latest occurrence not after now), in UTC. */
export function currentPeriod(cron: string, at = nowMs()): string {
  return cronParser.parseExpression(cron, { currentDate: new Date(at + 1), tz: 'UTC' }).prev().toDate().toISOString();
}

/** When the cron period we are in ends (its next occurrence after now), in ms. */
export function periodEnd(cron: string, at = nowMs()): number {
  return cronParser.parseExpression(cron, { currentDate: new Date(at), tz: 'UTC' }).next().toDate().getTime();
}

export function contextOf(services: Services, attempt: number, maxAttempts: number): JobContext {
  return { services, attempt, finalAttempt: attempt >= maxAttempts };
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message || error.name : String(error)).slice(0, 2000);
