/**
 * One-time codes sent by e-mail: 6 digits, valid 10 minutes, single use, at most 5 wrong
 * tries, stored only as a hash. Issuing a new code voids the earlier ones of that purpose.
 */
import crypto from 'node:crypto';
import type { Db } from '../db/index.js';
import { inMinutes, now, nowMs } from '../core/time.js';

export type CodePurpose = 'verify' | 'login' | 'reset' | 'email_change';
/** Codes that prove something other than an account address (a mailbox receives mail). */
export type AnyCodePurpose = CodePurpose | 'mailbox_check';
export const CODE_MINUTES = 10;
const MAX_WRONG_TRIES = 5;

const hashCode = (id: number, code: string) => crypto.createHash('sha256').update(`${id}:${code}`).digest('hex');

export async function issueCode(db: Db, userId: number, purpose: AnyCodePurpose, target: string): Promise<string> {
  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
  await db
    .updateTable('verify_code')
    .set({ used_at: now() })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
  const { id } = await db
    .insertInto('verify_code')
    .values({ user_id: userId, purpose, code_hash: '', target, expires_at: inMinutes(CODE_MINUTES), created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('verify_code').set({ code_hash: hashCode(id, code) }).where('id', '=', id).execute();
  return code;
}

/**
 * Uses the account's current code of that purpose if `code` matches it. A wrong guess is
 * counted; the caller must commit that count even though it refuses the request.
 * Returns the address the code was sent to, or undefined.
 */
export async function consumeCode(db: Db, userId: number, purpose: AnyCodePurpose, code: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('verify_code')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row || row.attempts >= MAX_WRONG_TRIES || Date.parse(row.expires_at) <= nowMs()) return undefined;
  const expected = Buffer.from(row.code_hash, 'hex');
  const given = Buffer.from(hashCode(row.id, code), 'hex');
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
    await db.updateTable('verify_code').set({ attempts: row.attempts + 1 }).where('id', '=', row.id).execute();
    return undefined;
  }
  await db.updateTable('verify_code').set({ used_at: now() }).where('id', '=', row.id).execute();
  return row.target;
}
