/**
 * Jobs: the durable queue behind services.jobs (a table on SQLite, pg-boss on PostgreSQL),
 * the hourly housekeeping that runs every capability's steps, and the operators' job calls.
 */
import { defineCapability } from '../core/capability.js';
import { daysAgo } from '../core/time.js';
import { keepDoneJobsDays, keepFailedJobsDays } from './housekeeping.js';
import { jobCalls } from './job-calls.js';

export const jobs = defineCapability({
  name: 'jobs',
  calls: jobCalls,
  housekeeping: [
    // The embedded queue's finished rows; pg-boss archives its own.
    async ({ db, dialect }) => {
      if (dialect !== 'sqlite') return;
      await db.deleteFrom('job').where('state', '=', 'done').where('updated_at', '<', daysAgo(keepDoneJobsDays)).execute();
      await db.deleteFrom('job').where('state', '=', 'failed').where('updated_at', '<', daysAgo(keepFailedJobsDays)).execute();
    },
  ],
});
