/**
 * The spam calls of the three areas: the operators' defaults; a domain's and a mailbox's settings
 * (customers and their team for their domains, operators for all); the mailbox owner's own; held
 * mailboxes and their release; a domain's figures per day. Every call finds its record through
 * the same scope as the derived calls (findVisible), so another customer's record is not found.
 */
import { z } from 'zod';
import { domain as domainResource } from '../../resources/domain.js';
import { idSchema, staff, supportStaff, wholeNumber, type Area } from '../../resources/define.js';
import { mailbox as mailboxResource } from '../../resources/mailbox.js';
import { defineCall, type CallContext, type CallSpec } from '../core/calls.js';
import { findVisible } from '../core/scope.js';
import { daysAgo } from '../core/time.js';
import { releaseMailbox } from './holds.js';
import { defaultsInput, defaultsOf, defaultsView, settingInput, settingsOf, updateDefaults, updateSettings, type SpamTarget } from './settings.js';

const idInput = z.object({ id: idSchema });

async function domainTarget(ctx: CallContext, area: Area, id: number): Promise<SpamTarget> {
  const row = await findVisible(domainResource, area, ctx, id);
  return { owner_id: Number(row.owner_id), domain_id: Number(row.id) };
}

async function mailboxTarget(ctx: CallContext, area: Area, id: number): Promise<SpamTarget> {
  const row = await findVisible(mailboxResource, area, ctx, id);
  return { owner_id: Number(row.owner_id), domain_id: Number(row.domain_id), mailbox_id: Number(row.id) };
}

const ownTarget = (ctx: CallContext<'mailbox'>): SpamTarget => ({ owner_id: ctx.actor.customerId, domain_id: ctx.actor.domainId, mailbox_id: ctx.actor.mailboxId });

/** Held mailboxes the caller may see: a customer's (a team member's: their domains'), or every one. */
async function heldList(ctx: CallContext) {
  let query = ctx.services.db
    .selectFrom('spam_hold as h')
    .innerJoin('mailbox as m', 'm.id', 'h.mailbox_id')
    .select(['h.mailbox_id', 'h.address', 'h.reason', 'h.detail', 'h.held_at', 'h.owner_id', 'm.domain_id'])
    .orderBy('h.held_at', 'desc')
    .limit(500);
  if (ctx.actor.kind === 'customer') {
    query = query.where('h.owner_id', '=', ctx.actor.customerId);
    if (!ctx.actor.isOwner) query = query.where('m.domain_id', 'in', ctx.actor.domainIds?.length ? ctx.actor.domainIds : [0]);
  }
  const list = await query.execute();
  return { list, total: list.length };
}

const statsInput = z.object({ domain_id: idSchema, days: wholeNumber(1, 366).optional() });

/** Messages received, junked and rejected per day for one domain, oldest first, days without mail as zeros. */
async function domainStats(ctx: CallContext, area: Area, input: z.output<typeof statsInput>) {
  const target = await domainTarget(ctx, area, input.domain_id);
  const days = input.days ?? 30;
  const from = daysAgo(days - 1).slice(0, 10);
  const rows = await ctx.services.db.selectFrom('spam_day').select(['day', 'received', 'junked', 'rejected']).where('domain_id', '=', target.domain_id).where('day', '>=', from).execute();
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const series = Array.from({ length: days }, (_, i) => {
    const day = daysAgo(days - 1 - i).slice(0, 10);
    const row = byDay.get(day);
    return { day, received: Number(row?.received ?? 0), junked: Number(row?.junked ?? 0), rejected: Number(row?.rejected ?? 0) };
  });
  return { domain_id: target.domain_id, days: series };
}

const summaries = {
  settings: 'The spam setting of the record: filter (inherit, on, off), junk_score and reject_score (its own, or null), and `effective`: what applies (filter, scores) and where it comes from (mailbox, domain, default).',
  update:
    'Sets the spam setting: filter inherit (as the domain, or the operators\' default), off (nothing is filtered or refused), or on with junk_score (delivered to Junk at or over it) below reject_score (refused during the SMTP transaction at or over it); 0.1 to 100, one decimal. Applies to mail within a minute.',
  held: 'Mailboxes held for sending spam (reason "spam") or far more than usual ("rate"): their submissions are refused until released.',
  release: 'Releases a held mailbox: it may send again at once.',
  stats: 'Messages from outside to the domain per UTC day (days, default 30): received, junked (delivered to Junk) and rejected (refused at SMTP).',
};

function areaCalls(area: 'admin' | 'manage'): CallSpec<any, any>[] {
  const auth = area === 'admin' ? ('customer' as const) : ('operator' as const);
  const tag = `${area}/spam`;
  const read = area === 'manage' ? { roles: staff } : {};
  const write = area === 'manage' ? { roles: supportStaff } : {};
  return [
    defineCall({ method: 'GET', path: `/api/${area}/spam/domain`, auth, tag, ...read, summary: summaries.settings, input: idInput, handler: async ({ id }, ctx) => settingsOf(ctx.services.db, await domainTarget(ctx, area, id)) }),
    defineCall({ method: 'POST', path: `/api/${area}/spam/update_domain`, auth, tag, ...write, summary: summaries.update, input: idInput.extend(settingInput.shape), handler: async ({ id, ...input }, ctx) => updateSettings(ctx, await domainTarget(ctx, area, id), input) }),
    defineCall({ method: 'GET', path: `/api/${area}/spam/mailbox`, auth, tag, ...read, summary: summaries.settings, input: idInput, handler: async ({ id }, ctx) => settingsOf(ctx.services.db, await mailboxTarget(ctx, area, id)) }),
    defineCall({ method: 'POST', path: `/api/${area}/spam/update_mailbox`, auth, tag, ...write, summary: summaries.update, input: idInput.extend(settingInput.shape), handler: async ({ id, ...input }, ctx) => updateSettings(ctx, await mailboxTarget(ctx, area, id), input) }),
    defineCall({ method: 'GET', path: `/api/${area}/spam/held`, auth, tag, ...read, summary: summaries.held, input: z.object({}), handler: (_input, ctx) => heldList(ctx) }),
    defineCall({
      method: 'POST',
      path: `/api/${area}/spam/release`,
      auth,
      tag,
      ...write,
      summary: summaries.release,
      input: z.object({ mailbox_id: idSchema }),
      handler: async ({ mailbox_id }, ctx) => {
        const target = await mailboxTarget(ctx, area, mailbox_id);
        return releaseMailbox(ctx.services.db, ctx, mailbox_id, target.owner_id);
      },
    }),
    defineCall({ method: 'GET', path: `/api/${area}/spam/stats`, auth, tag, ...read, summary: summaries.stats, input: statsInput, handler: (input, ctx) => domainStats(ctx, area, input) }),
  ];
}

export const spamCalls: CallSpec<any, any>[] = [
  defineCall({ method: 'GET', path: '/api/manage/spam/defaults', auth: 'operator', tag: 'manage/spam', roles: staff, summary: 'The operators\' defaults: filter, junk_score, reject_score (also for mail mailboxes submit), hourly_floor and rate_factor (a mailbox is held when it submits more in an hour than both hourly_floor and rate_factor times its busiest hour of the last 7 days).', input: z.object({}), handler: async (_input, ctx) => defaultsView(await defaultsOf(ctx.services.db)) }),
  defineCall({ method: 'POST', path: '/api/manage/spam/update_defaults', auth: 'operator', tag: 'manage/spam', roles: supportStaff, summary: 'Sets the operators\' defaults (every domain and mailbox without a setting of its own). Applies within a minute.', input: defaultsInput, handler: (input, ctx) => updateDefaults(ctx, input) }),
  ...areaCalls('admin'),
  ...areaCalls('manage'),
  defineCall({ method: 'GET', path: '/api/mail/spam/info', auth: 'mailbox', tag: 'mail/spam', summary: summaries.settings, input: z.object({}), handler: (_input, ctx) => settingsOf(ctx.services.db, ownTarget(ctx)) }),
  defineCall({ method: 'POST', path: '/api/mail/spam/update', auth: 'mailbox', tag: 'mail/spam', summary: summaries.update, input: settingInput, handler: (input, ctx) => updateSettings(ctx, ownTarget(ctx), input) }),
];
