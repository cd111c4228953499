/** The durable schedules of storage over time (server/jobs/all.ts lists them). */
import { defineSchedule } from '../jobs/define.js';
import { sendDueNotices } from './expiry.js';

/** Reminders and expiry notices that are due; every ten minutes, once across instances. */
export const storageNoticesSchedule = defineSchedule({
  name: 'storage.notices',
  cron: '*/10 * * * *',
  handler: async ({ services }) => {
    await sendDueNotices(services);
  },
});
