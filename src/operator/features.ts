/** The operator area's features, in menu order, in the menu's groups. */
import GroupsIcon from '@mui/icons-material/Groups';
import MailIcon from '@mui/icons-material/Mail';
import SettingsIcon from '@mui/icons-material/Settings';
import StorefrontIcon from '@mui/icons-material/Storefront';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import { activityLog, customers, operators } from '../accounts';
import { apiKeysPage } from '../apiKeys/ApiKeysPage';
import { signedInPage } from '../signedIn/SignedInPage';
import type { AreaEntry } from '../area/features';
import { jobsPage } from '../jobs';
import { aliasDomains, aliases, deletedMailboxes, domains, mailboxes, mailStores } from '../mail';
import { sendLog, emailTemplates } from '../outbox';
import { orders, pointsLedger, products, promotions } from '../shop';
import { operatorSecurityPage } from '../security';
import { storageBlocks } from '../storage';
import { operatorReportsPage } from '../reports';
import { operatorSpamPage, spamLists } from '../spam';
import { importWizardPage, operatorCsvPage } from '../imports';
import { cannedReplies, guestMessages, tickets } from '../support';
import { mailServerPage } from './MailServerPage';
import { teamInvitations, teamMembers } from '../team';

export const operatorFeatures: readonly AreaEntry[] = [
  {
    group: 'customers',
    label: 'app.menu.customers',
    icon: GroupsIcon,
    // Team members and invitations have no screens here (customers run their teams), but the activity log tells of their changes.
    features: [customers, storageBlocks, activityLog, teamMembers, teamInvitations],
  },
  { group: 'mail', label: 'app.menu.mail', icon: MailIcon, features: [domains, mailboxes, deletedMailboxes, aliases, aliasDomains, spamLists, operatorSpamPage, operatorReportsPage, importWizardPage, operatorCsvPage] },
  { group: 'shop', label: 'app.menu.shop', icon: StorefrontIcon, features: [products, promotions, orders, pointsLedger] },
  { group: 'support', label: 'app.menu.support', icon: SupportAgentIcon, features: [tickets, cannedReplies, guestMessages] },
  { group: 'system', label: 'app.menu.system', icon: SettingsIcon, features: [operators, operatorSecurityPage, mailServerPage, mailStores, emailTemplates, sendLog, jobsPage, signedInPage, apiKeysPage('manage')] },
];
