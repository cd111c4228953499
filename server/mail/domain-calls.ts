/** The DNS records of a domain, checked live, and proving ownership through the verification TXT record. */

import { domain as domainResource } from '../../resources/domain.js';
import { staff, supportStaff, type Area } from '../../resources/define.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { idInput } from '../core/resource-calls.js';
import { findVisible } from '../core/scope.js';
import { now } from '../core/time.js';
import { dkimKeyPair, selectorOf, switchToNextKey } from './dkim.js';
import { checkRecords, mailServerNotice, verificationHost, verificationValue } from './dns-records.js';

async function domainRow(ctx: CallContext, area: Area, id: number, db = ctx.services.db) {
  const visible = await findVisible(domainResource, area, ctx, id, db);
  return db.selectFrom('domain').selectAll().where('id', '=', visible.id).executeTakeFirstOrThrow();
}

async function dnsView(ctx: CallContext, area: Area, id: number) {
  const domain = await domainRow(ctx, area, id);
  const records = await checkRecords(domain, ctx.services.config);
  const { name, name_unicode, status, verified_at } = domain;
  return { domain: { id: domain.id, name, name_unicode, status, verified_at }, records, checked_at: now(), notice: mailServerNotice(ctx.services.config.mailHostname, area) };
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
    await audit(trx, ctx, { action: 'verify', targetType: 'domain', targetId: domain.id, userId: domain.owner_id, before: { name_unicode: domain.name_unicode, status: domain.status, verified_at: domain.verified_at }, after: { name_unicode: domain.name_unicode, ...changes } });
    return findVisible(domainResource, area, ctx, domain.id, trx);
  });
}

/**
 * DKIM key rotation, one step per call: without a next key, makes one (its record then appears
 * in the DNS view beside the current one); with a next key whose record is in DNS, switches
 * signing to it (OpenDKIM reads it for the next message). The old record may go afterwards.
 */
async function rotateDkim(ctx: CallContext, area: Area, id: number) {
  const domain = await domainRow(ctx, area, id);
  if (!domain.dkim_next_selector) {
    const key = await dkimKeyPair();
    const next = { dkim_next_selector: selectorOf(new Date(now()), true), dkim_next_public_key: key.publicKey, dkim_next_private_key: key.privateKey };
    await ctx.services.db.transaction().execute(async (trx) => {
      await trx.updateTable('domain').set({ ...next, updated_at: now() }).where('id', '=', domain.id).where('dkim_next_selector', 'is', null).execute();
      await audit(trx, ctx, { action: 'dkim_prepare', targetType: 'domain', targetId: domain.id, userId: domain.owner_id, before: { dkim_selector: domain.dkim_selector }, after: { dkim_next_selector: next.dkim_next_selector } });
    });
    return dkimState(ctx, area, domain.id, false);
  }
  const [record] = (await checkRecords(domain, ctx.services.config)).filter((r) => r.kind === 'dkim_next');
  if (record.status !== 'ok') throw new AppError('conflict', 'error.dkim_next_not_published', { host: record.host, value: record.value });
  await ctx.services.db.transaction().execute((trx) => switchToNextKey(trx, ctx, domain));
  return dkimState(ctx, area, domain.id, true);
}

async function dkimState(ctx: CallContext, area: Area, id: number, switched: boolean) {
  const domain = await domainRow(ctx, area, id);
  return { id: domain.id, dkim_selector: domain.dkim_selector, dkim_next_selector: domain.dkim_next_selector, switched };
}

const rotateSummary =
  'DKIM key rotation, one step per call. Without a next key: makes one (dkim_next_selector); the DNS view then lists its TXT record (kind dkim_next) to publish beside the current one. With a next key whose record is found in DNS: signing switches to it for the next message (switched: true), and the old record may be removed. Otherwise error.dkim_next_not_published names the record.';

const dnsSummary =
  'The DNS records to publish for the domain (verification TXT, MX, SPF, DKIM, the next DKIM key during a rotation, DMARC, MTA-STS: the _mta-sts TXT with the id of the policy served now and mta-sts.<domain> pointing at the panel, TLS-RPT), each looked up live now: status ok / missing / wrong / unchecked, what was found, and a translated message saying what to fix. While the mail server name (MAIL_HOSTNAME) is unset, an address or not a public name, MX, SPF, MTA-STS and TLS-RPT are left out and `notice` says so (operators: what to configure).';
const verifySummary =
  'Proves ownership (a no-op answering the domain when it is already verified and active): looks up the TXT record _maildesk.<domain> = maildesk-verification=<token> now; when present the domain becomes active (verified by DNS). Otherwise error.domain_not_verified names the record to publish.';

export const domainDnsCalls = [
  defineCall({ method: 'POST', path: '/api/admin/domain/dkim_rotate', auth: 'customer', tag: 'admin/domain', summary: rotateSummary, input: idInput, handler: ({ id }, ctx) => rotateDkim(ctx, 'admin', id) }),
  defineCall({ method: 'POST', path: '/api/manage/domain/dkim_rotate', auth: 'operator', roles: supportStaff, tag: 'manage/domain', summary: rotateSummary, input: idInput, handler: ({ id }, ctx) => rotateDkim(ctx, 'manage', id) }),
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
