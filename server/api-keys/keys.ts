/**
 * Making an API key and checking where it is used from. A key is 32 random bytes (base64url)
 * after "mdk_"; only its SHA-256 is stored, so that a key is found by an index read and a copy of
 * the database gives nobody a working key.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { apiKey, MAX_API_KEYS } from '../../resources/api_key.js';
import { audit } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError, fieldError, forbidden } from '../core/errors.js';
import { now, nowMs } from '../core/time.js';
import type { Db } from '../db/index.js';

export const keyHash = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

/** What a list shows of a key so that people can tell theirs apart. */
const PREFIX_LENGTH = 12;

export interface NewApiKey {
  name: string;
  access: 'read' | 'write';
  expires_at?: string | null;
  allowed_ips?: string[];
}

/** The login a key belongs to and acts as, in the area it is made for. */
function holderOf(ctx: CallContext) {
  const { actor } = ctx;
  if (actor.kind === 'customer') return { area: 'admin' as const, customer_id: actor.customerId, user_id: actor.accountId, admin_id: null };
  if (actor.kind === 'operator') return { area: 'manage' as const, customer_id: null, user_id: null, admin_id: actor.id };
  throw forbidden();
}

export async function createApiKey(ctx: CallContext, input: NewApiKey) {
  const holder = holderOf(ctx);
  if (input.expires_at && Date.parse(input.expires_at) <= nowMs()) throw fieldError('expires_at', 'validation.in_the_past');
  const { db } = ctx.services;
  const key = `mdk_${crypto.randomBytes(32).toString('base64url')}`;
  return db.transaction().execute(async (trx) => {
    const mine = trx.selectFrom('api_key').select((eb) => eb.fn.countAll().as('n'));
    const { n } = await (holder.admin_id ? mine.where('admin_id', '=', holder.admin_id) : mine.where('user_id', '=', holder.user_id)).executeTakeFirstOrThrow();
    if (Number(n) >= MAX_API_KEYS) throw new AppError('conflict', 'error.api_key_limit', { limit: MAX_API_KEYS, smart_count: MAX_API_KEYS });
    const allowed = [...new Set(input.allowed_ips ?? [])];
    const row = await trx
      .insertInto('api_key')
      .values({
        ...holder,
        name: input.name,
        prefix: key.slice(0, PREFIX_LENGTH),
        key_hash: keyHash(key),
        access: input.access,
        allowed_ips: JSON.stringify(allowed),
        expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null,
        created_at: now(),
        created_ip: ctx.ip,
      })
      .returning(['id', 'area', 'name', 'prefix', 'access', 'expires_at', 'user_id', 'created_at', 'created_ip', 'last_used_at', 'last_used_ip'])
      .executeTakeFirstOrThrow();
    const record = { ...row, id: Number(row.id), allowed_ips: allowed };
    await audit(trx, ctx, { action: 'create', targetType: apiKey.name, targetId: record.id, userId: holder.customer_id, after: record });
    return { ...record, key };
  });
}

/** Revokes every key of one login (asked for with a password change: a key made from a stolen session dies with it); answers how many. */
export async function revokeKeysOf(db: Db, login: { user_id: number } | { admin_id: number }): Promise<number> {
  const query = db.deleteFrom('api_key');
  const result = await ('user_id' in login ? query.where('user_id', '=', login.user_id) : query.where('admin_id', '=', login.admin_id)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Whether `ip` is one of the addresses or ranges a key allows (none: any). Node's BlockList takes
 * an IPv4 address on an IPv6 socket (::ffff:203.0.113.7) for the IPv4 address, and the other way round.
 */
export function allowedFrom(allowed: readonly string[], ip: string): boolean {
  if (allowed.length === 0) return true;
  const family = net.isIP(ip);
  if (!family) return false;
  const list = new net.BlockList();
  for (const entry of allowed) {
    const [base, bits] = entry.split('/');
    const type = net.isIP(base) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(base, type);
    else list.addSubnet(base, Number(bits), type);
  }
  return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}
