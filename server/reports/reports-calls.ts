/**
 * The reports calls of the customer and operator areas: a domain's DMARC and TLS pictures (with
 * advice and the policy's effect), the DMARC policy it publishes, and the operators' summary of
 * the installation. Every domain is found through the same scope as the derived calls
 * (findVisible): another customer's domain is not found, a team member sees their domains only.
 */
import { z } from 'zod';
import { domain as domainResource } from '../../resources/domain.js';
import { idSchema, staff, supportStaff, wholeNumber, type Area } from '../../resources/define.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext, type CallSpec } from '../core/calls.js';
import { findVisible } from '../core/scope.js';
import { now } from '../core/time.js';
import { dmarcValue } from '../mail/dns-records.js';
import { dmarcView, installationSummary, tlsView, type Policy } from './views.js';

const windowInput = z.object({ domain_id: idSchema, days: wholeNumber(1, 366).optional() });
const policyInput = z.object({ domain_id: idSchema, policy: z.enum(['none', 'quarantine', 'reject']) });

async function visibleDomain(ctx: CallContext, area: Area, id: number) {
  const visible = await findVisible(domainResource, area, ctx, id);
  const row = await ctx.services.db.selectFrom('domain').select(['id', 'name', 'owner_id', 'dmarc_policy']).where('id', '=', visible.id).executeTakeFirstOrThrow();
  return { id: Number(row.id), name: row.name, owner_id: Number(row.owner_id), dmarc_policy: row.dmarc_policy as Policy | null };
}

async function updatePolicy(ctx: CallContext, area: Area, input: z.output<typeof policyInput>) {
  const domain = await visibleDomain(ctx, area, input.domain_id);
  await ctx.services.db.transaction().execute(async (trx) => {
    await trx.updateTable('domain').set({ dmarc_policy: input.policy, updated_at: now() }).where('id', '=', domain.id).execute();
    await audit(trx, ctx, { action: 'update', targetType: 'domain_dmarc', targetId: domain.id, userId: domain.owner_id, before: { dmarc_policy: domain.dmarc_policy }, after: { dmarc_policy: input.policy } });
  });
  return { domain_id: domain.id, dmarc_policy: input.policy, record: { type: 'TXT', host: `_dmarc.${domain.name}`, value: dmarcValue(input.policy, ctx.services.config.reportsAddress) } };
}

const summaries = {
  dmarc:
    'DMARC aggregate reports about the domain over the last `days` UTC days (default 30): messages per day with DKIM aligned, SPF aligned, DMARC pass and fail; the sending sources grouped by organisation (the reverse name\'s registrable domain), with addresses, reverse names and failures; `advice` (spf_missing with the SPF mechanisms to add, dkim_missing, forwarded, unauthorised); the DMARC policy (chosen, published record) with the share of mail each policy would have affected; the latest reports received.',
  tls: 'TLS reports (RFC 8460) about connections to the domain\'s mail server over the last `days` UTC days (default 30): successful and failed sessions per day, failures by receiving server and result type, the latest reports received.',
  policy: 'Sets the DMARC policy the domain publishes (none, quarantine, reject): the DNS page then proposes it (v=DMARC1; p=…; rua=mailto:<reporting address>) and checks that it is the one published. Answers the record to publish.',
  summary: 'Across the installation over the last `days` UTC days (default 30): DMARC messages and failures and TLS sessions per day, the domains with their reports, messages and failures (most failures first), and the reports refused (malformed, hostile, too large, for no hosted domain) with why.',
};

function areaCalls(area: 'admin' | 'manage'): CallSpec<any, any>[] {
  const auth = area === 'admin' ? ('customer' as const) : ('operator' as const);
  const tag = `${area}/reports`;
  const read = area === 'manage' ? { roles: staff } : {};
  const write = area === 'manage' ? { roles: supportStaff } : {};
  return [
    defineCall({
      method: 'GET',
      path: `/api/${area}/reports/dmarc`,
      auth,
      tag,
      ...read,
      summary: summaries.dmarc,
      input: windowInput,
      handler: async (input, ctx) => dmarcView(ctx.services.db, ctx.services.config, await visibleDomain(ctx, area, input.domain_id), input.days ?? 30),
    }),
    defineCall({ method: 'GET', path: `/api/${area}/reports/tls`, auth, tag, ...read, summary: summaries.tls, input: windowInput, handler: async (input, ctx) => tlsView(ctx.services.db, (await visibleDomain(ctx, area, input.domain_id)).id, input.days ?? 30) }),
    defineCall({ method: 'POST', path: `/api/${area}/reports/update_policy`, auth, tag, ...write, summary: summaries.policy, input: policyInput, handler: (input, ctx) => updatePolicy(ctx, area, input) }),
  ];
}

export const reportCalls: CallSpec<any, any>[] = [
  ...areaCalls('admin'),
  ...areaCalls('manage'),
  defineCall({ method: 'GET', path: '/api/manage/reports/summary', auth: 'operator', tag: 'manage/reports', roles: staff, summary: summaries.summary, input: z.object({ days: wholeNumber(1, 366).optional() }), handler: (input, ctx) => installationSummary(ctx.services.db, input.days ?? 30) }),
];
