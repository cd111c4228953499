/** Domains: names in punycode, a verification token and a DKIM key made with each, status rules. */
import crypto from 'node:crypto';
import { AppError, fieldError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { now } from '../core/time.js';
import { dkimKeyPair, selectorOf } from './dkim.js';
import { asciiDomain, unicodeDomain } from './names.js';
import { endMailboxSessions } from '../mailbox-owners/sessions.js';

export const domainBehaviour: ResourceBehaviour = {
  // An RSA key takes a while to make: before the transaction opens.
  prepare: async (_input, op) => {
    if (op !== 'create') return {};
    const key = await dkimKeyPair();
    return { dkim_public_key: key.publicKey, dkim_private_key: key.privateKey };
  },
  async toRow(input, change, ctx) {
    if (change.op === 'create') {
      const name = asciiDomain(String(input.name));
      if (!name) throw fieldError('name', 'validation.invalid_domain');
      const owner = await ctx.trx.selectFrom('user').select(['id', 'owner_id']).where('id', '=', Number(input.owner_id)).executeTakeFirst();
      if (!owner || owner.owner_id !== null) throw fieldError('owner_id', 'validation.not_a_customer');
      return {
        name,
        name_unicode: unicodeDomain(name),
        verify_token: crypto.randomBytes(16).toString('hex'),
        dkim_selector: selectorOf(new Date()),
      };
    }
    // An operator's activation is the "marked verified" path; back to pending means unverified.
    if (input.status === 'active' && !change.before?.verified_at) return { verified_at: now(), verified_by: 'operator' };
    if (input.status === 'pending') return { verified_at: null, verified_by: null };
    return {};
  },
  async check(change, ctx) {
    if (change.op === 'update') {
      // Out of service, or its area turned off: its mailboxes' owners' sessions end with this change.
      const [before, after] = [change.before!, change.after!];
      const outOfService = before.status === 'active' && after.status !== 'active';
      const areaOff = Number(before.mailbox_area) === 1 && Number(after.mailbox_area) === 0;
      if (outOfService || areaOff) await endMailboxSessions(ctx.trx, { domainId: before.id });
    }
    if (change.op !== 'delete') return;
    const id = change.before!.id;
    const [mailboxes, aliases, aliasDomains] = await Promise.all([
      ctx.trx.selectFrom('mailbox').select('id').where('domain_id', '=', id).executeTakeFirst(),
      ctx.trx.selectFrom('alias').select('id').where('domain_id', '=', id).executeTakeFirst(),
      ctx.trx
        .selectFrom('alias_domain')
        .select('id')
        .where((eb) => eb.or([eb('alias_domain_id', '=', id), eb('target_domain_id', '=', id)]))
        .executeTakeFirst(),
    ]);
    if (mailboxes || aliases || aliasDomains) throw new AppError('conflict', 'error.domain_not_empty', { domain: change.before!.name_unicode });
  },
};
