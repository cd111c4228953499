/**
 * The outbox: mail the panel itself sends (codes, notices, receipts) from editable templates,
 * recorded in the send log and sent by the mail.send job; the settings it runs with and a
 * test message for operators. services.mailer is made here.
 */
import { emailSendLog } from '../../resources/email_send_log.js';
import { emailTemplate } from '../../resources/email_template.js';
import { defineCapability } from '../core/capability.js';
import { daysAgo } from '../core/time.js';
import { emailTemplateBehaviour } from './email-template.js';
import { ensureDefaultTemplates, mailSendJob } from './mailer.js';
import { outboxCalls } from './outbox-calls.js';

export const outbox = defineCapability({
  name: 'outbox',
  resources: [{ declaration: emailTemplate, behaviour: emailTemplateBehaviour }, { declaration: emailSendLog }],
  calls: outboxCalls,
  jobs: [mailSendJob],
  housekeeping: [
    // Finished entries older than MAIL_LOG_RETENTION_DAYS; pending ones wait for their job.
    async ({ db, config }) => {
      await db.deleteFrom('email_send_log').where('created_at', '<', daysAgo(config.mailLogRetentionDays)).where('status', '!=', 'pending').execute();
    },
  ],
  prepare: ensureDefaultTemplates,
});
