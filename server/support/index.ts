/**
 * Support: tickets between customers (or their team members) and operators, with internal
 * notes, attachments, notices by e-mail and canned replies; and the public contact form's
 * guest messages, which operators answer by e-mail.
 */
import { cannedReply } from '../../resources/canned_reply.js';
import { guestMessage } from '../../resources/guest_message.js';
import { ticket } from '../../resources/ticket.js';
import { defineCapability } from '../core/capability.js';
import { defineSchedule } from '../core/jobs.js';
import { removeFilesJob } from './attachments.js';
import { guestMessageCalls, guestReplyCalls } from './guest-message-calls.js';
import { ticketBehaviour } from './ticket-calls.js';
import { closeWaitingTickets } from './tickets.js';

export const support = defineCapability({
  name: 'support',
  resources: [{ declaration: ticket, behaviour: ticketBehaviour }, { declaration: cannedReply }, { declaration: guestMessage }],
  calls: [...guestMessageCalls, ...guestReplyCalls],
  jobs: [removeFilesJob],
  schedules: [
    // Every hour: tickets waiting for the customer longer than TICKET_AUTOCLOSE_DAYS close (guarded, so a run twice closes nothing twice).
    defineSchedule({
      name: 'ticket.autoclose',
      cron: '17 * * * *',
      handler: async ({ services }) => {
        await closeWaitingTickets(services);
      },
    }),
  ],
});
