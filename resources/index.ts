/** Every declared resource. Server routes, OpenAPI and screens are derived from this list. */
import { auditLog } from './audit_log.js';
import { customer } from './customer.js';
import { emailSendLog } from './email_send_log.js';
import { emailTemplate } from './email_template.js';
import { guestMessage } from './guest_message.js';
import { operator } from './operator.js';
import { teamMember } from './team_member.js';

export const resources = [operator, customer, teamMember, auditLog, emailTemplate, emailSendLog, guestMessage] as const;

export { auditLog, customer, emailSendLog, emailTemplate, guestMessage, operator, teamMember };
export * from './define.js';
