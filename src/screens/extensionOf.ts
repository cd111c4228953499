/** The special parts of each resource's screens, by declaration name (see extensions.ts). */
import { aliasScreens } from '../mail/aliases';
import { aliasDomainScreens } from '../mail/aliasDomains';
import { domainScreens } from '../mail/domains';
import { mailboxScreens } from '../mail/mailboxes';
import { storageScreens } from '../storage';
import { invitationScreens, teamScreens } from '../team';
// Shop.
import { activityScreens, customerShopScreens, orderScreens, pointsScreens, productScreens } from '../shop';
// Support (tickets)
import { ticketScreens } from '../support/tickets';
import { logScreens } from '../accounts/activityLog';
import { sendLogScreens, templateScreens } from '../outbox';
import { guestMessageScreens } from '../support/guestMessages';
// Mailbox deletion (issue 12)
import { deletedMailboxScreens } from '../mail/deletedMailboxes';
import type { ScreenExtension } from './extensions';
import type { Screen } from './registry';

const extensions: Record<string, ScreenExtension> = {
  domain: domainScreens,
  email: mailboxScreens,
  alias: aliasScreens,
  alias_domain: aliasDomainScreens,
  storage: storageScreens,
  team_member: teamScreens,
  team_invitation: invitationScreens,
  // Shop.
  product: productScreens,
  activity: activityScreens,
  order: orderScreens,
  points: pointsScreens,
  customer: customerShopScreens,
  // Support (tickets)
  ticket: ticketScreens,
  log: logScreens,
  guest_message: guestMessageScreens,
  email_send_log: sendLogScreens,
  email_template: templateScreens,
  // Mailbox deletion (issue 12)
  deleted_email: deletedMailboxScreens,
};

export function extensionOf(screen: Pick<Screen, 'declaration'>): ScreenExtension {
  return extensions[screen.declaration.name] ?? {};
}
