/** The domain a mailbox, alias or alias domain is made in, as the caller may use it. */
import { AppError, notFound } from '../core/errors.js';
import type { WriteContext } from '../core/resource-calls.js';
import type { Db } from '../db/index.js';

const usedColumns = ['id', 'owner_id', 'name', 'name_unicode', 'status', 'max_mailboxes', 'max_aliases', 'max_quota', 'mail_store_id'] as const;

/**
 * The domain with that id, if the caller's customer owns it (any customer's for operators).
 * Customers cannot add records to a suspended domain. `lockOwner`: the domain's customer is
 * locked in the same statement (PostgreSQL), as a capacity decision needs (lockCustomer).
 */
export async function usableDomain(ctx: WriteContext, domainId: unknown, options: { lockOwner?: boolean } = {}) {
  // What records made in it need: not its DKIM keys, notes or tokens.
  let query = ctx.trx
    .selectFrom('domain')
    .select(usedColumns.map((column) => `domain.${column}` as const))
    .where('domain.id', '=', Number(domainId));
  if (ctx.actor.kind === 'customer') query = query.where('domain.owner_id', '=', ctx.actor.customerId);
  if (options.lockOwner && ctx.services.dialect === 'postgres') query = (query as any).innerJoin('user', 'user.id', 'domain.owner_id').forUpdate('user') as typeof query;
  const domain = await query.executeTakeFirst();
  // Another customer's domain is as good as none: the same answer as for any record not yours.
  if (!domain) throw notFound();
  if (ctx.area === 'admin' && domain.status === 'suspended') throw new AppError('forbidden', 'error.domain_suspended', { domain: domain.name_unicode });
  return domain;
}

/**
 * A customer-set limit of a domain (0 = none) against how many mailboxes or aliases it already
 * has; counted only when there is a limit (a count reads every one of the domain's records).
 */
export async function checkLimit(trx: Db, table: 'mailbox' | 'alias', domainId: number, limit: number, message: string, name: string) {
  if (limit <= 0) return;
  const { count } = await trx.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('count')).where('domain_id', '=', domainId).executeTakeFirstOrThrow();
  if (Number(count) >= limit) throw new AppError('conflict', message, { limit, smart_count: limit, domain: name });
}
