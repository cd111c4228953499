/**
 * A process that works the job queue of DATABASE_URL (PostgreSQL) for one job, 'test.hang',
 * whose runs say "running <n>" and never end: the test kills it while it runs one.
 */
import { defineJob } from '../../server/core/jobs.js';
import type { Services } from '../../server/core/services.js';
import { openDatabase } from '../../server/db/index.js';
import { createJobs } from '../../server/jobs/create.js';

const databaseUrl = process.env.DATABASE_URL!;
const hang = defineJob<{ n: number }>({
  name: 'test.hang',
  async handler(payload) {
    console.log(`running ${payload.n}`);
    await new Promise(() => undefined);
  },
});
const database = openDatabase({ databaseUrl, dataDir: '' });
const queue = await createJobs(database, { jobs: [hang], schedules: [] }, { databaseUrl, jobPollMs: 200, jobSchedules: false, longJobs: { workers: 1, perGroup: 1 } }, console);
await queue.start({} as Services);
console.log('started');
