/**
 * A domain's health in the customer and operator areas: what the DNS watch last saw of each
 * required record, the history of changes, a check now, and the MTA-STS mode. Every call finds
 * the domain through the same scope as the derived calls (findVisible): another customer's
 * domain is not found, a team member sees only their domains.
 */
import { z } from 'zod';
import { domain as domainResource } from '../../resources/domain.js';
import { idSchema, staff, supportStaff, wholeNumber, type Area } from '../../resources/define.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext, type CallSpec } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { findVisible } from '../core/scope.js';
import { now } from '../core/time.js';
import { mtaStsOf } from '../mail/dns-records.js';
import { mtaStsHost, mtaStsModes } from '../mail/mta-sts.js';
import { watchDomain } from './watch.js';

const idInput = z.object({ id: idSchema });
const historyInput = idInput.extend({ page: wholeNumber(1, 1_000_000).default(1), page_size: wholeNumber(1, 100).default(20) });
const modeInput = idInput.extend({ mode: z.enum(mtaStsModes) });

async function domainRow(ctx: CallContext, area: Area, id: number) {
  const visible = await findVisible(domainResource, area, ctx, id);
  return ctx.services.db.selectFrom('domain').selectAll().where('id', '=', visible.id).executeTakeFirstOrThrow();
}

/** The watch's picture of a domain: each record's last state and since when, and its MTA-STS policy. */
async function watchView(ctx: CallContext, area: Area, id: number) {
  const domain = await domainRow(ctx, area, id);
  const records = await ctx.services.db.selectFrom('domain_dns_record').select(['kind', 'host', 'value', 'status', 'found', 'since']).where('domain_id', '=', domain.id).execute();
  const mtaSts = mtaStsOf(domain, ctx.services.config.mailHostname);
  return {
    domain_id: domain.id,
    watched: domain.status === 'active',
    checked_at: domain.dns_checked_at,
    next_check_at: domain.status === 'active' ? (domain.dns_watch_at || now()) : null,
    records,
    mta_sts: { mode: mtaSts.mode, id: mtaSts.id, policy_url: `https://${mtaStsHost(domain.name)}/.well-known/mta-sts.txt`, policy: mtaSts.policy },
  };
}

/** Changes of the domain's records, newest first (index (domain_id, id)). */
async function history(ctx: CallContext, area: Area, input: z.output<typeof historyInput>) {
  const domain = await domainRow(ctx, area, input.id);
  const db = ctx.services.db;
  const [list, count] = await Promise.all([
    db
      .selectFrom('domain_dns_change')
      .select(['id', 'kind', 'host', 'value', 'status_before', 'found_before', 'status', 'found', 'notified', 'at'])
      .where('domain_id', '=', domain.id)
      .orderBy('id', 'desc')
      .limit(input.page_size)
      .offset((input.page - 1) * input.page_size)
      .execute(),
    db.selectFrom('domain_dns_change').select((eb) => eb.fn.countAll<number>().as('n')).where('domain_id', '=', domain.id).executeTakeFirstOrThrow(),
  ]);
  return { list: list.map((c) => ({ ...c, notified: Number(c.notified) === 1 })), total: Number(count.n), page: input.page, page_size: input.page_size };
}

async function checkNow(ctx: CallContext, area: Area, id: number) {
  const domain = await domainRow(ctx, area, id);
  if (domain.status !== 'active') throw new AppError('conflict', 'error.domain_not_watched', { domain: domain.name_unicode });
  await watchDomain(ctx.services, domain, ctx);
  return watchView(ctx, area, id);
}

/** testing → enforce (or back): the policy text, and so its id, change; the _mta-sts record must follow. */
async function setMode(ctx: CallContext, area: Area, input: z.output<typeof modeInput>) {
  const domain = await domainRow(ctx, area, input.id);
  if (domain.mta_sts_mode !== input.mode) {
    await ctx.services.db.transaction().execute(async (trx) => {
      await trx.updateTable('domain').set({ mta_sts_mode: input.mode, updated_at: now() }).where('id', '=', domain.id).execute();
      await audit(trx, ctx, { action: 'mta_sts_mode', targetType: 'domain', targetId: domain.id, userId: domain.owner_id, before: { name_unicode: domain.name_unicode, mta_sts_mode: domain.mta_sts_mode }, after: { name_unicode: domain.name_unicode, mta_sts_mode: input.mode } });
    });
  }
  const mtaSts = mtaStsOf({ mta_sts_mode: input.mode }, ctx.services.config.mailHostname);
  return { id: domain.id, mode: mtaSts.mode, policy_id: mtaSts.id, record: { type: 'TXT', host: `_mta-sts.${domain.name}`, value: `v=STSv1; id=${mtaSts.id}` } };
}

const summaries = {
  watch:
    "What the DNS watch last saw of the domain's required records (verification, MX, SPF, DKIM and the next DKIM key, DMARC, MTA-STS, its host, TLS-RPT): status ok / missing / wrong, what DNS answered and since when; when it looked last and looks next (every DNS_WATCH_HOURS, active domains only); and the MTA-STS policy served at policy_url with its mode and id.",
  history:
    'Changes the DNS watch noticed in the domain\'s records, newest first (page, page_size ≤ 100): the record, its state and what DNS answered before and after, and notified: whether this change broke the record and the customer was e-mailed (once per break; a record put back is a change that clears it).',
  check: 'Looks the required records of an active domain up now, as the scheduled watch does: changes go into the history, and a record that broke e-mails the customer once. A domain that is not active: error.domain_not_watched.',
  mode: "Sets the MTA-STS mode: testing (senders report TLS failures but deliver anyway) or enforce (senders that know MTA-STS deliver only over valid TLS to the domain's MX). The policy's id changes with it: answers the _mta-sts TXT record to publish now.",
};

function areaCalls(area: 'admin' | 'manage'): CallSpec<any, any>[] {
  const auth = area === 'admin' ? ('customer' as const) : ('operator' as const);
  const tag = `${area}/domain`;
  const read = area === 'manage' ? { roles: staff } : {};
  const write = area === 'manage' ? { roles: supportStaff } : {};
  return [
    defineCall({ method: 'GET', path: `/api/${area}/domain/dns_watch`, auth, tag, ...read, summary: summaries.watch, input: idInput, handler: ({ id }, ctx) => watchView(ctx, area, id) }),
    defineCall({ method: 'GET', path: `/api/${area}/domain/dns_history`, auth, tag, ...read, summary: summaries.history, input: historyInput, handler: (input, ctx) => history(ctx, area, input) }),
    defineCall({ method: 'POST', path: `/api/${area}/domain/dns_check`, auth, tag, ...write, summary: summaries.check, input: idInput, handler: ({ id }, ctx) => checkNow(ctx, area, id) }),
    defineCall({ method: 'POST', path: `/api/${area}/domain/mta_sts_mode`, auth, tag, ...write, summary: summaries.mode, input: modeInput, handler: (input, ctx) => setMode(ctx, area, input) }),
  ];
}

export const domainHealthCalls = [...areaCalls('admin'), ...areaCalls('manage')];
