/**
 * Outgoing mail from templates: through SMTP_URL, or as .eml files in DATA_DIR/outbox when
 * none is set. Every message is recorded in the send log, sent or failed. Sending happens
 * after the response, so that no call's timing tells whether an address has an account.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Locale } from '../../resources/customer.js';
import type { TemplateKey } from '../../resources/email_template.js';
import type { Config } from '../config.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import { defaultTemplates } from './default-templates.js';

export interface TemplateMail {
  key: TemplateKey;
  locale: Locale;
  to: string;
  params: Record<string, string | number>;
  userId?: number | null;
}

export interface Mailer {
  /** Queues a message; it is rendered, sent and logged in the background. */
  send(mail: TemplateMail): void;
  /** Resolves when every queued message has been sent or has failed. */
  idle(): Promise<void>;
}

/** Template parameters that never reach the send log. */
const secretParams = ['code'];

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

export function createMailer(db: Db, config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'publicUrl'>, logger: { error(obj: unknown, msg?: string): void }): Mailer {
  const outbox = path.join(config.dataDir, 'outbox');
  const transport: Transporter = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // One message at a time, in the order they were queued: the outbox and the send log read in
  // the order things happened, and an SMTP server gets one connection from us, not a burst.
  let queue: Promise<void> = Promise.resolve();

  async function deliver(mail: TemplateMail) {
    const row = await db
      .selectFrom('email_template')
      .select(['subject', 'body'])
      .where('key', '=', mail.key)
      .where('locale', '=', mail.locale)
      .executeTakeFirst();
    const template = row ?? defaultTemplates[mail.key][mail.locale];
    const params = { url: config.publicUrl, email: mail.to, ...mail.params };
    const subject = render(template.subject, params);
    // The send log is read by every operator role: a live code in it would open the account.
    const loggedSubject = render(template.subject, { ...params, ...Object.fromEntries(secretParams.map((name) => [name, '••••••'])) });
    let status: 'sent' | 'failed' = 'sent';
    let error: string | null = null;
    let messageId: string | null = null;
    try {
      const info = await transport.sendMail({ from: config.mailFrom, to: mail.to, subject, text: render(template.body, params) });
      messageId = info.messageId ?? null;
      if (!config.smtpUrl) {
        await fs.mkdir(outbox, { recursive: true });
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.key}-${process.hrtime.bigint()}.eml`;
        await fs.writeFile(path.join(outbox, name), info.message as Buffer);
      }
    } catch (e) {
      status = 'failed';
      error = e instanceof Error ? e.message : String(e);
      logger.error({ err: e, to: mail.to, key: mail.key }, 'sending mail failed');
    }
    await db
      .insertInto('email_send_log')
      .values({
        template_key: mail.key,
        locale: mail.locale,
        recipient: mail.to,
        subject: loggedSubject,
        status,
        transport: config.smtpUrl ? 'smtp' : 'outbox',
        error,
        message_id: messageId,
        user_id: mail.userId ?? null,
        created_at: now(),
      })
      .execute();
  }

  return {
    send(mail) {
      queue = queue.then(() => deliver(mail)).catch((e) => logger.error({ err: e }, 'recording mail failed'));
    },
    async idle() {
      let last;
      do {
        last = queue;
        await last;
      } while (last !== queue);
    },
  };
}
