/** The durable schedule that keeps the dashboard's daily summary (server/jobs/all.ts lists it). */
import { defineSchedule } from '../jobs/define.js';
import { refreshSummary } from './business.js';

/** Every hour: today's figures and capacity snapshot, and yesterday's made final. */
export const statsDailySchedule = defineSchedule({
  name: 'stats.daily',
  cron: '7 * * * *',
  handler: async ({ services }) => {
    await refreshSummary(services.db);
  },
});
