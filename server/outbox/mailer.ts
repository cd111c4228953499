/**
 * Outgoing mail from templates: through SMTP_URL, or as .eml files in DATA_DIR/outbox when
 * none is set. `send` records the message as pending in the send log inside the caller's
 * transaction and enqueues the 'mail.send' job, which sends it, retries with backoff when
 * the SMTP server fails, and marks it sent or (after the last try) failed. The call itself
 * only writes rows, so no call's timing tells whether an address has an account.
 *
 * A code travels only in the job's payload: the send log has the subject with it masked,
 * and the jobs screen masks it too. The job payload is removed with the job.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { TemplateKey } from '../../resources/email_template.js';
import type { Locale } from '../../resources/customer.js';
import type { Config } from '../config.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import { defineJob } from '../core/jobs.js';
import type { Mailer, MailPayload, TemplateMail } from '../core/mailer.js';
import type { Jobs } from '../core/queue.js';
import { masked, secretNames } from '../core/mask.js';
import { defaultTemplates } from './default-templates.js';

export function render(text: string, params: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export async function ensureDefaultTemplates(db: Db): Promise<void> {
  const existing = await db.selectFrom('email_template').select(['key', 'locale']).execute();
  const have = new Set(existing.map((t) => `${t.key}/${t.locale}`));
  const at = now();
  for (const [key, byLocale] of Object.entries(defaultTemplates)) {
    for (const [locale, template] of Object.entries(byLocale)) {
      if (have.has(`${key}/${locale}`)) continue;
      await db.insertInto('email_template').values({ key, locale, ...template, created_at: at, updated_at: at }).execute();
    }
  }
}

async function templateOf(db: Db, key: TemplateKey, locale: Locale) {
  const row = await db.selectFrom('email_template').select(['subject', 'body']).where('key', '=', key).where('locale', '=', locale).executeTakeFirst();
  return row ?? defaultTemplates[key][locale];
}

export const mailSendJob = defineJob<MailPayload>({
  name: 'mail.send',
  // 30 s, 1, 2, 4, 8 min: a brief SMTP outage costs a few minutes, not the message.
  retryLimit: 5,
  retryDelaySeconds: 30,
  handler: (payload, ctx) => ctx.services.mailer.deliver(payload, ctx),
});

export function createMailer(db: Db, jobs: Jobs, config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'publicUrl'>): Mailer {
  const outbox = path.join(config.dataDir, 'outbox');
  const transport: Transporter = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const fromHost = /@([^>\s]+)/.exec(config.mailFrom)?.[1] ?? 'maildesk.localhost';
  const paramsOf = (mail: Pick<TemplateMail, 'to' | 'params'>) => ({ url: config.publicUrl, email: mail.to, ...mail.params });

  return {
    async send(into, mail) {
      const template = await templateOf(into, mail.key, mail.locale);
      // The send log is read by every operator role: a live code in it would open the account.
      const loggedSubject = render(template.subject, { ...paramsOf(mail), ...Object.fromEntries(secretNames.map((name) => [name, masked])) });
      const { id } = await into
        .insertInto('email_send_log')
        .values({
          template_key: mail.key,
          locale: mail.locale,
          recipient: mail.to,
          subject: loggedSubject,
          status: 'pending',
          transport: config.smtpUrl ? 'smtp' : 'outbox',
          error: null,
          message_id: null,
          user_id: mail.userId ?? null,
          created_at: now(),
          sent_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const messageId = `<${crypto.randomUUID()}@${fromHost}>`;
      await jobs.enqueue(into, mailSendJob, { sendLogId: Number(id), key: mail.key, locale: mail.locale, to: mail.to, params: mail.params, messageId });
      return Number(id);
    },

    async deliver(payload, attempt) {
      const entry = await db.selectFrom('email_send_log').select(['status', 'attempts']).where('id', '=', payload.sendLogId).executeTakeFirst();
      // Deleted by an operator, or already sent. (A failed one is tried again when an operator retries its job.)
      if (!entry || entry.status === 'sent') return;
      const template = await templateOf(db, payload.key, payload.locale);
      const params = paramsOf(payload);
      let info;
      try {
        info = await transport.sendMail({
          from: config.mailFrom,
          to: payload.to,
          subject: render(template.subject, params),
          text: render(template.body, params),
          messageId: payload.messageId,
        });
        if (!config.smtpUrl) {
          await fs.mkdir(outbox, { recursive: true });
          const name = `${now().replace(/[:.]/g, '-')}-${payload.key}-${process.hrtime.bigint()}.eml`;
          await fs.writeFile(path.join(outbox, name), info.message as Buffer);
        }
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        await db
          .updateTable('email_send_log')
          .set({ status: attempt.finalAttempt ? 'failed' : 'pending', attempts: entry.attempts + 1, error })
          .where('id', '=', payload.sendLogId)
          .execute();
        throw e;
      }
      await db
        .updateTable('email_send_log')
        .set({ status: 'sent', attempts: entry.attempts + 1, message_id: info.messageId ?? payload.messageId, sent_at: now() })
        .where('id', '=', payload.sendLogId)
        .execute();
    },
  };
}
