/** The DNS records of a domain, checked live, and proving ownership through the verification TXT record. */

import { domain as domainResource } from '../../resources/domain.js';
import { staff, supportStaff, type Area } from '../../resources/define.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { findVisible, idInput } from '../core/resource-calls.js';
import { now } from '../core/time.js';
import { checkRecords, verificationHost, verificationValue } from '../mail/dns-records.js';

async function domainRow(ctx: CallContext, area: Area, id: number, db = ctx.services.db) {
  const visible = await findVisible(domainResource, area, ctx, id, db);
  return db.selectFrom('domain').selectAll().where('id', '=', visible.id).executeTakeFirstOrThrow();
}

async function dnsView(ctx: CallContext, area: Area, id: number) {
  const domain = await domainRow(ctx, area, id);
  const records = await checkRecords(domain, ctx.services.config);
  const { name, name_unicode, status, verified_at } = domain;
  return { domain: { id: domain.id, name, name_unicode, status, verified_at }, records, checked_at: now() };
}

/** Looks the verification record up now; when it is there, the domain becomes active. */
async function verify(ctx: CallContext, area: Area, id: number) {
  const domain = await domainRow(ctx, area, id);
  if (domain.status === 'suspended') throw new AppError('forbidden', 'error.domain_suspended', { domain: domain.name_unicode });
  // Already proven: nothing to do (the call is safe to repeat).
  if (domain.verified_at && domain.status === 'active') return findVisible(domainResource, area, ctx, domain.id);
  const [verification] = await checkRecords(domain, ctx.services.config).then((all) => all.filter((r) => r.kind === 'verification'));
  if (verification.status !== 'ok') {
    throw new AppError('conflict', 'error.domain_not_verified', { host: verificationHost(domain.name), value: verificationValue(domain.verify_token) });
  }
  return ctx.services.db.transaction().execute(async (trx) => {
    const changes = { status: 'active' as const, verified_at: now(), verified_by: 'dns' as const };
    await trx.updateTable('domain').set({ ...changes, updated_at: now() }).where('id', '=', domain.id).execute();
    await audit(trx, ctx, { action: 'verify', targetType: 'domain', targetId: domain.id, userId: domain.owner_id, before: { status: domain.status, verified_at: domain.verified_at }, after: changes });
    return findVisible(domainResource, area, ctx, domain.id, trx);
  });
}

const dnsSummary =
  'The DNS records to publish for the domain (verification TXT, MX, SPF, DKIM, DMARC), each looked up live now: status ok / missing / wrong / unchecked, what was found, and a translated message saying what to fix.';
const verifySummary =
  'Proves ownership (a no-op answering the domain when it is already verified and active): looks up the TXT record _maildesk.<domain> = maildesk-verification=<token> now; when present the domain becomes active (verified by DNS). Otherwise error.domain_not_verified names the record to publish.';

export const domainDnsCalls = [
  defineCall({ method: 'GET', path: '/api/admin/domain/dns', auth: 'customer', tag: 'admin/domain', summary: dnsSummary, input: idInput, handler: ({ id }, ctx) => dnsView(ctx, 'admin', id) }),
  defineCall({ method: 'GET', path: '/api/manage/domain/dns', auth: 'operator', roles: staff, tag: 'manage/domain', summary: dnsSummary, input: idInput, handler: ({ id }, ctx) => dnsView(ctx, 'manage', id) }),
  defineCall({ method: 'POST', path: '/api/admin/domain/verify', auth: 'customer', tag: 'admin/domain', summary: verifySummary, input: idInput, handler: ({ id }, ctx) => verify(ctx, 'admin', id) }),
  defineCall({
    method: 'POST',
    path: '/api/manage/domain/verify',
    auth: 'operator',
    roles: supportStaff,
    tag: 'manage/domain',
    summary: `${verifySummary} (Operators can also mark a domain verified without DNS: update with status "active".)`,
    input: idInput,
    handler: ({ id }, ctx) => verify(ctx, 'manage', id),
  }),
];
