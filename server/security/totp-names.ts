/** How an authenticator app lists the account: the installation's host as issuer, the person's login as label. */
import type { CallContext } from '../core/calls.js';
import { notFound } from '../core/errors.js';
import { holderRecord, type Holder } from './holders.js';

export async function totpNames(ctx: CallContext, holder: Holder) {
  const record = await holderRecord(ctx.services.db, holder);
  if (!record) throw notFound();
  return { issuer: new URL(ctx.services.config.publicUrl).host, label: record.name };
}
