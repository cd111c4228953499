/**
 * Who calls with an API key: the login that made it, with its rights as they are now (a
 * disabled or deleted login's keys stop at once), within the key's own: its area, access,
 * expiry and allowed addresses, at most API_KEY_RATE_LIMIT calls a minute. One index read by the
 * key's hash per call; the last use is written at most once a minute per key.
 */
import { accountColumns, type Actor, type ApiKeyOfCall, type AccountInfo } from '../core/actor.js';
import { AppError } from '../core/errors.js';
import type { KeyAuthenticators } from '../core/calls.js';
import type { Services } from '../core/services.js';
import { now, nowMs } from '../core/time.js';
import { customerActorOf, operatorActorOf } from '../accounts/authenticate.js';
import { allowedFrom, keyHash } from './keys.js';

const keyColumns = 'k.id as key_id, k.name as key_name, k.access, k.allowed_ips, k.expires_at, k.last_used_at';
// Written once as SQL, like the sessions' read: no query is built per request.
const keySql = {
  customer: `select ${keyColumns}, ${accountColumns.map((c) => `u.${c}`).join(', ')}, o.status as owner_status
    from api_key k join "user" u on u.id = k.user_id left join "user" o on o.id = u.owner_id
    where k.key_hash = ? and k.area = 'admin'`,
  operator: `select ${keyColumns}, a.id, a.username, a.role, a.status
    from api_key k join admin a on a.id = k.admin_id
    where k.key_hash = ? and k.area = 'manage'`,
};
/** Exported for the test that proves each is an index read. */
export const keyLookupSql = {
  sqlite: keySql,
  postgres: { customer: keySql.customer.replace('?', '$1'), operator: keySql.operator.replace('?', '$1') },
};

interface KeyRow {
  key_id: number;
  key_name: string;
  access: 'read' | 'write';
  allowed_ips: string;
  expires_at: string | null;
  last_used_at: string | null;
}

const unknownKey = () => new AppError('session', 'error.api_key');

async function liveKey<R extends KeyRow>({ database, db, limiter, config }: Services, area: 'customer' | 'operator', key: string, ip: string): Promise<R> {
  const hash = keyHash(key);
  const [row] = await database.read<R>(keyLookupSql[database.dialect][area], [hash]);
  if (!row || (row.expires_at && Date.parse(row.expires_at) <= nowMs())) throw unknownKey();
  if (!allowedFrom(JSON.parse(row.allowed_ips) as string[], ip)) throw new AppError('forbidden', 'error.api_key_source', { ip });
  // Per key, whoever holds it and from wherever: a runaway script slows itself, not the panel.
  // Counted by the key's hash, not its id: ids repeat across databases that share one Redis.
  if (config.apiKeyRateLimit > 0) await limiter.hitSetting('apiKey', hash, { max: config.apiKeyRateLimit, windowSeconds: 60 }, 'error.api_key_rate_limited');
  // At most one write a minute per key, however busy the script (the address is the one of that minute's first call).
  const lastUsed = row.last_used_at ? Date.parse(row.last_used_at) : 0;
  if (nowMs() - lastUsed > 60_000) {
    await db.updateTable('api_key').set({ last_used_at: now(), last_used_ip: ip }).where('id', '=', Number(row.key_id)).execute();
  }
  return row;
}

const ofCall = (row: KeyRow): ApiKeyOfCall => ({ id: Number(row.key_id), name: row.key_name, access: row.access });

export const keyAuthenticators: KeyAuthenticators = {
  async customer(services, key, ip): Promise<Actor> {
    const row = await liveKey<KeyRow & AccountInfo & { owner_status: string | null }>(services, 'customer', key, ip);
    const { key_id: _id, key_name: _name, access: _access, allowed_ips: _ips, expires_at: _expires, last_used_at: _at, ...account } = row;
    return { ...(await customerActorOf(services.db, account, 0)), apiKey: ofCall(row) };
  },
  async operator(services, key, ip): Promise<Actor> {
    const row = await liveKey<KeyRow & { id: number; username: string; role: string; status: string }>(services, 'operator', key, ip);
    return { ...operatorActorOf(row, 0), apiKey: ofCall(row) };
  },
};
