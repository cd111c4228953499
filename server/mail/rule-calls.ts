/**
 * A mailbox's out-of-office and forwarding, in the three areas: the owner's own (/api/mail/rules/*),
 * and on a mailbox's record for the customer's team and operators (/api/{admin,manage}/email/*),
 * with the access of reading (rules) and changing (update_*) the mailbox.
 */
import { z } from 'zod';
import { mailbox as mailboxResource } from '../../resources/mailbox.js';
import type { Area } from '../../resources/define.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { idInput, type OwnCall } from '../core/resource-calls.js';
import { findVisible } from '../core/scope.js';
import { forwardingInput, outOfOfficeInput, rulesOf, updateForwarding, updateOutOfOffice, type RuleTarget } from './mailbox-rules.js';

const targetOf = (row: Record<string, unknown>): RuleTarget => ({ id: Number(row.id), address: String(row.address), owner_id: Number(row.owner_id), domain_id: Number(row.domain_id) });
const visibleMailbox = async (ctx: CallContext, area: Area, id: number) => targetOf(await findVisible(mailboxResource, area, ctx, id));
const ownMailbox = (ctx: CallContext<'mailbox'>): RuleTarget => ({ id: ctx.actor.mailboxId, address: ctx.actor.address, owner_id: ctx.actor.customerId, domain_id: ctx.actor.domainId });

const summaries = {
  rules: 'Out-of-office ({enabled, starts_at, ends_at, time_zone, subject, body, interval_days}) and forwarding ({enabled, addresses, keep_copy}) of the mailbox, with updated_at and updated_by (who: "mailbox:…", "customer:…", "team_member:…", "operator:…").',
  outOfOffice:
    'Set the out-of-office reply: on/off, optional start and end (ISO 8601 with offset; stored in UTC), the time zone they were chosen in, subject and text, one reply per sender per interval_days (1–30, default 7). Never sent to mailing lists, bulk or automatic mail, nor for mail not addressed to the mailbox. Applies to the next delivery (a Sieve script Dovecot reads from the database).',
  forwarding:
    'Set forwarding: on/off, up to 10 addresses (none of the mailbox\'s own addresses: mail would go round), keep_copy (default true). Applies to the next delivery.',
};

/** On a mailbox's record, in the customer's and the operators' areas. */
export const mailboxRuleCalls: Record<string, OwnCall> = {
  rules: { method: 'GET', access: 'get', summary: summaries.rules, input: idInput, handler: async ({ id }, ctx, area) => rulesOf(ctx.services.db, (await visibleMailbox(ctx, area, id)).id) },
  update_out_of_office: { access: 'update', summary: summaries.outOfOffice, input: idInput.extend(outOfOfficeInput.shape), handler: async ({ id, ...input }, ctx, area) => updateOutOfOffice(ctx, await visibleMailbox(ctx, area, id), input) },
  update_forwarding: { access: 'update', summary: summaries.forwarding, input: idInput.extend(forwardingInput.shape), handler: async ({ id, ...input }, ctx, area) => updateForwarding(ctx, await visibleMailbox(ctx, area, id), input) },
};

/** The mailbox owner's own. */
export const ownRuleCalls = [
  defineCall({ method: 'GET', path: '/api/mail/rules/info', auth: 'mailbox', tag: 'mail/rules', summary: summaries.rules, input: z.object({}), handler: (_input, ctx) => rulesOf(ctx.services.db, ctx.actor.mailboxId) }),
  defineCall({ method: 'POST', path: '/api/mail/rules/update_out_of_office', auth: 'mailbox', tag: 'mail/rules', summary: summaries.outOfOffice, input: outOfOfficeInput, handler: (input, ctx) => updateOutOfOffice(ctx, ownMailbox(ctx), input) }),
  defineCall({ method: 'POST', path: '/api/mail/rules/update_forwarding', auth: 'mailbox', tag: 'mail/rules', summary: summaries.forwarding, input: forwardingInput, handler: (input, ctx) => updateForwarding(ctx, ownMailbox(ctx), input) }),
];
