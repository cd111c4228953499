/**
 * App passwords: made by the server (16 characters of an alphabet without look-alikes, in groups
 * of four), shown once, stored as an {ARGON2ID} hash like the mailbox's own, found by Dovecot
 * through their first four characters (the selector, unique per mailbox).
 */
import crypto from 'node:crypto';
import { appPassword } from '../../resources/app_password.js';
import { lineText } from '../../resources/text.js';
import { z } from 'zod';
import { audit } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { now } from '../core/time.js';
import { hashMailboxPassword } from '../mail/mailbox-password.js';

export const APP_PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** How many app passwords one mailbox may have. */
export const MAX_APP_PASSWORDS = 50;

/** xxxx-xxxx-xxxx-xxxx: the dashes are part of it (what people type). */
export function newAppPassword(): string {
  const characters = Array.from({ length: 16 }, () => APP_PASSWORD_ALPHABET[crypto.randomInt(APP_PASSWORD_ALPHABET.length)]);
  return [0, 4, 8, 12].map((i) => characters.slice(i, i + 4).join('')).join('-');
}

async function createAppPassword(ctx: CallContext, name: string) {
  if (ctx.actor.kind !== 'mailbox') throw new AppError('forbidden', 'error.forbidden');
  const { db } = ctx.services;
  const mailboxId = ctx.actor.mailboxId;
  const count = async () => Number((await db.selectFrom('app_password').select((eb) => eb.fn.countAll().as('n')).where('mailbox_id', '=', mailboxId).executeTakeFirstOrThrow()).n);
  if ((await count()) >= MAX_APP_PASSWORDS) throw new AppError('conflict', 'error.app_password_limit', { limit: MAX_APP_PASSWORDS, smart_count: MAX_APP_PASSWORDS });
  // A selector this mailbox does not use yet (31⁴ of them).
  let password = newAppPassword();
  for (let tries = 0; await db.selectFrom('app_password').select('id').where('mailbox_id', '=', mailboxId).where('selector', '=', password.slice(0, 4)).executeTakeFirst(); tries++) {
    if (tries > 20) throw new AppError('internal', 'error.internal');
    password = newAppPassword();
  }
  // Hashed before the transaction opens.
  const password_hash = await hashMailboxPassword(password);
  const created_at = now();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('app_password')
      .values({ mailbox_id: mailboxId, name, selector: password.slice(0, 4), password_hash, created_at, created_ip: ctx.ip })
      .returning(['id', 'name', 'created_at'])
      .executeTakeFirstOrThrow();
    await audit(trx, ctx, { action: 'create', targetType: appPassword.name, targetId: Number(row.id), userId: (ctx.actor as { customerId: number }).customerId, after: { name } });
    return { id: Number(row.id), name: row.name, password, created_at: row.created_at };
  });
}

export const appPasswordBehaviour: ResourceBehaviour = {
  calls: {
    create: {
      summary: 'Make an app password for mail programs (IMAP, POP3, SMTP submission). Answers {id, name, password, created_at}: the password (xxxx-xxxx-xxxx-xxxx, dashes included) is shown this once and never again.',
      input: z.object({ name: lineText(1, 64) }),
      handler: ({ name }, ctx) => createAppPassword(ctx, name),
    },
  },
};
