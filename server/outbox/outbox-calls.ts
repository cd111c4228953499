/**
 * /api/manage/outbox/*: the outgoing-mail settings as the panel runs with them (SMTP_URL,
 * MAIL_FROM: set in the environment, shown here), and a test message to check them, recorded
 * in the send log like every message.
 */
import { z } from 'zod';
import { locales } from '../../resources/customer.js';
import { emailAddress, staff, superadminOnly } from '../../resources/define.js';
import { audit } from '../core/audit.js';
import { defineCall } from '../core/calls.js';
import type { Config } from '../config.js';

/** The SMTP server of SMTP_URL as host:port, never its user name or password. */
export function smtpServer(smtpUrl: string | undefined): string | null {
  if (!smtpUrl) return null;
  try {
    const url = new URL(smtpUrl);
    const port = url.port || (url.protocol === 'smtps:' ? '465' : '587');
    return `${url.hostname}:${port}`;
  } catch {
    return null;
  }
}

export const outgoingSettings = (config: Pick<Config, 'smtpUrl' | 'mailFrom'>) => ({
  transport: config.smtpUrl ? ('smtp' as const) : ('outbox' as const),
  smtp_server: smtpServer(config.smtpUrl),
  mail_from: config.mailFrom,
});

export const outboxCalls = [
  defineCall({
    method: 'POST',
    path: '/api/manage/outbox/settings',
    reads: true,
    auth: 'operator',
    tag: 'manage/outbox',
    roles: staff,
    summary:
      'How the panel sends mail, as set in its environment: transport `smtp` (SMTP_URL is set; `smtp_server` is its host:port, never its credentials) or `outbox` (no SMTP_URL: every message is written as an .eml file under DATA_DIR/outbox and goes nowhere), and the sender `mail_from` (MAIL_FROM).',
    input: z.object({}),
    handler: async (_input, ctx) => outgoingSettings(ctx.services.config),
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/outbox/send_test',
    auth: 'operator',
    tag: 'manage/outbox',
    roles: superadminOnly,
    summary:
      'Sends a test message (template test_message, in `locale`) to `to` through the outgoing-mail settings, like every message: recorded in the send log as pending and sent by the mail.send job. Answers the send log entry (`id`, read it at /api/manage/email_send_log/get to see it sent or failed with the SMTP error) and the transport used.',
    input: z.object({ to: emailAddress, locale: z.enum(locales).default('en') }).strict(),
    async handler({ to, locale }, ctx) {
      const { config, mailer, db } = ctx.services;
      const settings = outgoingSettings(config);
      const id = await db.transaction().execute(async (trx) => {
        const sent = await mailer.send(trx, {
          key: 'test_message',
          locale,
          to,
          params: { operator: ctx.actor.username, from: settings.mail_from, server: settings.smtp_server ?? 'DATA_DIR/outbox' },
        });
        await audit(trx, ctx, { action: 'send_test', targetType: 'email_send_log', targetId: sent, after: { email: to, transport: settings.transport } });
        return sent;
      });
      return { id, transport: settings.transport };
    },
  }),
];
