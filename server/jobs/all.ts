/** Every job and scheduled task the app runs. Each capability adds its own block. */
import type { JobSpec, ScheduleSpec } from './define.js';
import type { JobRegistry } from './index.js';
// Outgoing mail
import { mailSendJob } from '../mail/mailer.js';
// Housekeeping
import { housekeeping } from './housekeeping.js';
// Storage over time (issue 10)
import { storageNoticesSchedule } from '../storage/schedules.js';
import { statsDailySchedule } from '../stats/schedules.js';
// Shop
import { orderExpirySchedule, orderFulfilJob, paymentGiveBackJob } from '../shop/effects.js';
// Support (tickets)
import { autoCloseSchedule, removeFilesJob } from '../support/jobs.js';
// Mailbox deletion (issue 12)
import { purgeMailboxJob } from '../mail/mailbox-deletion.js';

export const jobs: JobSpec<any>[] = [
  // Outgoing mail
  mailSendJob,
  // Shop
  orderFulfilJob,
  paymentGiveBackJob,
  // Support (tickets)
  removeFilesJob,
  // Mailbox deletion (issue 12)
  purgeMailboxJob,
];

export const schedules: ScheduleSpec[] = [
  // Housekeeping
  housekeeping,
  // Storage over time (issue 10)
  storageNoticesSchedule,
  statsDailySchedule,
  // Shop
  orderExpirySchedule,
  // Support (tickets)
  autoCloseSchedule,
];

export const allJobs: JobRegistry = { jobs, schedules };
