/**
 * Hourly housekeeping: what has ended is removed, so that tables hold what is still of use.
 * Each capability lists its steps in its manifest; this one schedule runs them all, in order.
 */
import type { Capability } from '../core/capability.js';
import { defineSchedule, type HousekeepingStep } from '../core/jobs.js';
import type { JobRegistry } from './registry.js';

/** Done jobs of the embedded queue are kept this long (their unique keys hold as long); pg-boss archives its own. */
export const keepDoneJobsDays = 7;
/** Failed jobs stay for operators to retry or discard this long. */
export const keepFailedJobsDays = 30;

function housekeeping(steps: HousekeepingStep[]) {
  return defineSchedule({
    name: 'housekeeping',
    // Hourly; HOUSEKEEPING_CRON changes it (the two-instance test runs it every minute).
    cron: process.env.HOUSEKEEPING_CRON || '17 * * * *',
    async handler({ services }) {
      for (const step of steps) await step(services);
      await services.limiter.sweep();
    },
  });
}

/** Every job and schedule of the capabilities, and the housekeeping of them all. */
export function registryOf(capabilities: readonly Capability[]): JobRegistry {
  return {
    jobs: capabilities.flatMap((c) => c.jobs ?? []),
    schedules: [...capabilities.flatMap((c) => c.schedules ?? []), housekeeping(capabilities.flatMap((c) => c.housekeeping ?? []))],
  };
}
