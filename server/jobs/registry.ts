/** What a queue runs: each job and schedule by name, with its retry settings. */
import cronParser from 'cron-parser';
import { nowMs } from '../core/time.js';
import { defaultRetryDelaySeconds, defaultRetryLimit, type JobContext, type JobSpec, type ScheduleSpec } from '../core/jobs.js';
import type { Jobs } from '../core/queue.js';
import type { Services } from '../core/services.js';

/** Every job and schedule the app runs, from the capabilities' manifests (jobs/housekeeping.ts gathers them). */
export interface JobRegistry {
  jobs: JobSpec<any>[];
  schedules: ScheduleSpec[];
}

/** A queue as the start-up sees it: services.jobs, and starting and stopping its workers. */
export interface Queue extends Jobs {
  /** Starts working (the app's services are the handlers' context). */
  start(services: Services): Promise<void>;
  /** Stops taking work and waits for the running job to end. */
  stop(): Promise<void>;
}

export interface Runnable {
  name: string;
  retryLimit: number;
  retryDelaySeconds: number;
  run(payload: unknown, ctx: JobContext): Promise<void>;
  /** Set for a schedule's job. */
  cron?: string;
  /** Runs in the lane of long jobs (core/jobs.ts). */
  long: boolean;
  /** Whose long job this is (its fair share), as a string; undefined: nobody's. */
  ownerOf(payload: unknown): string | undefined;
}

/** The lane of long jobs: how many run at once, and how many of one owner. */
export interface LongLane {
  workers: number;
  perGroup: number;
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
    const ownerOf = (payload: unknown) => {
      const owner = payload && typeof payload === 'object' ? job.ownerOf?.(payload) : undefined;
      return owner === undefined || owner === null ? undefined : String(owner);
    };
    add({ name: job.name, retryLimit: job.retryLimit ?? defaultRetryLimit, retryDelaySeconds: job.retryDelaySeconds ?? defaultRetryDelaySeconds, run: job.handler, long: job.lane === 'long', ownerOf });
  }
  for (const schedule of registry.schedules) {
    add({ name: schedule.name, cron: schedule.cron, retryLimit: scheduleRetryLimit, retryDelaySeconds: 30, run: (_payload, ctx) => schedule.handler(ctx), long: schedule.lane === 'long', ownerOf: () => undefined });
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

/** What both queues do alike: know the runnables by name, hold the app's services once started, run a schedule by hand. */
export function queueBase(registry: JobRegistry) {
  const runnables = runnablesOf(registry);
  let services: Services | undefined;
  const stopping = new AbortController();
  return {
    runnables,
    names: [...runnables.keys()],
    /** The jobs of the lane of long jobs, and those of the other lane (the mail people wait for, schedules, …). */
    longNames: [...runnables.values()].filter((r) => r.long).map((r) => r.name),
    shortNames: [...runnables.values()].filter((r) => !r.long).map((r) => r.name),
    /** The runnable of a job being enqueued: one no manifest lists is a programming error. */
    runnableOf(name: string): Runnable {
      const runnable = runnables.get(name);
      if (!runnable) throw new Error(`Job "${name}" is not listed in any capability's manifest`);
      return runnable;
    },
    /** At start: the schedules' cron expressions parse, and the handlers get the app's services. */
    begin(appServices: Services) {
      checkSchedules(runnables);
      services = appServices;
    },
    contextOf(attempt: number, maxAttempts: number): JobContext {
      return { services: services!, attempt, finalAttempt: attempt >= maxAttempts, stopping: stopping.signal };
    },
    /** At stop: running jobs are told to end at their next safe point. */
    halt() {
      stopping.abort();
    },
    async runSchedule(name: string) {
      const runnable = runnables.get(name);
      if (!runnable?.cron) throw new Error(`No schedule is named "${name}"`);
      await runnable.run(null, this.contextOf(1, 1));
    },
  };
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message || error.name : String(error)).slice(0, 2000);
