/** The operator area's features, in menu order. */
import { activityLog, customers, operators } from '../accounts';
import type { AreaFeature } from '../area/features';
import { jobsPage } from '../jobs';
import { aliasDomains, aliases, deletedMailboxes, domains, mailboxes } from '../mail';
import { sendLog, emailTemplates } from '../outbox';
import { orders, pointsLedger, products, promotions } from '../shop';
import { storageBlocks } from '../storage';
import { cannedReplies, guestMessages, tickets } from '../support';
import { teamInvitations, teamMembers } from '../team';

export const operatorFeatures: readonly AreaFeature[] = [
  operators,
  customers,
  activityLog,
  emailTemplates,
  sendLog,
  guestMessages,
  domains,
  mailboxes,
  deletedMailboxes,
  aliases,
  aliasDomains,
  storageBlocks,
  products,
  promotions,
  orders,
  pointsLedger,
  tickets,
  cannedReplies,
  jobsPage,
  // No screens here (customers run their teams), but the activity log tells of their changes.
  teamMembers,
  teamInvitations,
];
