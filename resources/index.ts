/** Every declared resource. Server routes, OpenAPI and screens are derived from this list. */
import { auditLog } from './audit_log.js';
import { customer } from './customer.js';
import { emailSendLog } from './email_send_log.js';
import { emailTemplate } from './email_template.js';
import { guestMessage } from './guest_message.js';
import { operator } from './operator.js';
import { teamMember } from './team_member.js';
import { domain } from './domain.js';
import { mailbox } from './mailbox.js';
// Mailbox deletion
import { deletedMailbox } from './deleted_mailbox.js';
import { alias } from './alias.js';
import { aliasDomain } from './alias_domain.js';
import { storage } from './storage.js';
// Shop.
import { product } from './product.js';
import { activity } from './activity.js';
import { order } from './order.js';
import { points } from './points.js';
// Support (tickets)
import { cannedReply } from './canned_reply.js';
import { ticket } from './ticket.js';
// Team-member invitations
import { teamInvitation } from './team_invitation.js';

export const resources = [operator, customer, teamMember, teamInvitation, auditLog, emailTemplate, emailSendLog, guestMessage, domain, mailbox,
  // Mailbox deletion: beside mailboxes in the operators' menu
  deletedMailbox,
  alias, aliasDomain, storage,
  // Shop.
  product, activity, order, points,
  // Support (tickets)
  ticket, cannedReply,
] as const;

export { auditLog, customer, emailSendLog, emailTemplate, guestMessage, operator, teamMember };
export { alias, aliasDomain, domain, mailbox, storage };
// Mailbox deletion
export { deletedMailbox };
// Shop.
export { activity, order, points, product };
// Support (tickets)
export { cannedReply, ticket };
// Team-member invitations
export { teamInvitation };
export * from './define.js';
