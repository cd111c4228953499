/**
 * Statistics: the operators' dashboard figures (customers, mail, jobs, tickets and the business
 * over time), read from a daily summary the stats.daily schedule keeps.
 */
import { defineCapability } from '../core/capability.js';
import { defineSchedule } from '../core/jobs.js';
import { refreshSummary } from './business.js';
import { statCalls } from './stat-calls.js';

export const stats = defineCapability({
  name: 'stats',
  calls: statCalls,
  schedules: [
    // Every hour: today's figures and capacity snapshot, and yesterday's made final.
    defineSchedule({
      name: 'stats.daily',
      cron: '7 * * * *',
      handler: async ({ services }) => {
        await refreshSummary(services.db);
      },
    }),
  ],
});
