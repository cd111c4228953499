/**
 * Allow and block lists: a sender (address or domain, stored in punycode) on a domain's list or on
 * one of its mailboxes'. In the mailbox owners' area the entry is the signed-in mailbox's.
 */
import { AppError, fieldError, notFound } from '../core/errors.js';
import type { ResourceBehaviour, WriteContext } from '../core/resource-calls.js';
import { now } from '../core/time.js';
import { usableDomain } from '../mail/domain-of.js';
import { asciiDomain, mailAddress } from '../mail/names.js';

/** An address or a domain as rspamd compares it (lower case, punycode); undefined when it is neither. */
export function senderKey(input: string): string | undefined {
  if (input.includes('@')) return mailAddress(input)?.ascii;
  return asciiDomain(input);
}

async function placeOf(input: Record<string, unknown>, ctx: WriteContext) {
  if (ctx.actor.kind === 'mailbox') {
    return { owner_id: ctx.actor.customerId, domain_id: ctx.actor.domainId, mailbox_id: ctx.actor.mailboxId };
  }
  if (input.domain_id === undefined || input.domain_id === null) throw fieldError('domain_id', 'validation.required');
  const domain = await usableDomain(ctx, input.domain_id);
  const mailboxId = input.mailbox_id ? Number(input.mailbox_id) : null;
  if (mailboxId) {
    const box = await ctx.trx.selectFrom('mailbox').select(['id', 'domain_id']).where('id', '=', mailboxId).where('owner_id', '=', domain.owner_id).executeTakeFirst();
    if (!box) throw notFound();
    if (Number(box.domain_id) !== domain.id) throw fieldError('mailbox_id', 'validation.spam_mailbox_of_domain');
  }
  return { owner_id: domain.owner_id, domain_id: domain.id, mailbox_id: mailboxId };
}

export const spamListBehaviour: ResourceBehaviour = {
  async toRow(input, change, ctx) {
    if (change.op !== 'create') return {};
    const sender = senderKey(String(input.sender));
    if (!sender) throw fieldError('sender', 'validation.spam_sender');
    return { ...(await placeOf(input, ctx)), sender, created_at: now() };
  },
  async check(change, ctx) {
    if (change.op !== 'create') return;
    const row = change.after!;
    let query = ctx.trx.selectFrom('spam_list').select('id').where('domain_id', '=', Number(row.domain_id)).where('sender', '=', String(row.sender));
    query = row.mailbox_id ? query.where('mailbox_id', '=', Number(row.mailbox_id)) : query.where('mailbox_id', 'is', null);
    if (await query.executeTakeFirst()) throw new AppError('conflict', 'error.spam_sender_listed', { sender: String(row.sender) });
  },
};
