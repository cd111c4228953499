/** The customer area's features, in menu order. */
import { activityLog, customers } from '../accounts';
import { apiKeysPage } from '../apiKeys/ApiKeysPage';
import type { AreaFeature } from '../area/features';
import { aliasDomains, aliases, domains, mailboxes } from '../mail';
import { buyStoragePage, orders, pointsLedger } from '../shop';
import { customerSecurityPage } from '../security';
import { storageBlocks } from '../storage';
import { heldMailboxesPage, spamLists } from '../spam';
import { customerCsvPage } from '../imports';
import { tickets } from '../support';
import { signedInPage } from '../signedIn/SignedInPage';
import { teamInvitations, teamMembers } from '../team';

export const customerFeatures: readonly AreaFeature[] = [
  teamMembers,
  teamInvitations,
  activityLog,
  domains,
  mailboxes,
  aliases,
  aliasDomains,
  spamLists,
  heldMailboxesPage,
  customerCsvPage,
  storageBlocks,
  orders,
  pointsLedger,
  tickets,
  buyStoragePage,
  customerSecurityPage,
  signedInPage,
  apiKeysPage('admin'),
  // No screen here (the profile page is the account's own), but the activity log tells of the account's changes.
  customers,
];
