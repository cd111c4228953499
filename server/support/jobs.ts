/** Support's durable work: removing a deleted ticket's files, and closing tickets nobody answered. */
import { defineJob, defineSchedule } from '../jobs/define.js';
import { removeFiles } from './attachments.js';
import { closeWaitingTickets } from './tickets.js';

/** Idempotent: a file already gone is fine. */
export const removeFilesJob = defineJob<{ storedNames: string[] }>({
  name: 'ticket.remove_files',
  retryDelaySeconds: 60,
  handler: ({ storedNames }, { services }) => removeFiles(services.config, storedNames),
});

/** Every hour: tickets waiting for the customer longer than TICKET_AUTOCLOSE_DAYS close (guarded, so a run twice closes nothing twice). */
export const autoCloseSchedule = defineSchedule({
  name: 'ticket.autoclose',
  cron: '17 * * * *',
  handler: async ({ services }) => {
    await closeWaitingTickets(services);
  },
});
