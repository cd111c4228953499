/**
 * Recovery codes: ten random codes shown once when TOTP is turned on (or renewed), stored as
 * their SHA-256 (50 random bits each, and every try is throttled, so a slow hash adds nothing),
 * each accepted once.
 */
import crypto from 'node:crypto';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { Holder } from './holders.js';

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: read off paper and typed again.
const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** Spaces, dashes and case do not matter when a code is typed back. */
export const normalRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newCode(): string {
  const chars = Array.from({ length: 10 }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Replaces the holder's codes with ten new ones and answers them (the only time they are seen). */
export async function renewRecoveryCodes(db: Db, holder: Holder): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await db.deleteFrom('recovery_code').where('holder_kind', '=', holder.kind).where('holder_id', '=', holder.id).execute();
  const at = now();
  await db
    .insertInto('recovery_code')
    .values(codes.map((code) => ({ holder_kind: holder.kind, holder_id: holder.id, code_hash: sha256(normalRecoveryCode(code)), used_at: null, created_at: at })))
    .execute();
  return codes;
}

/** Uses a code of the holder's once; false when it is not theirs or already used. */
export async function useRecoveryCode(db: Db, holder: Holder, code: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_code')
    .set({ used_at: now() })
    .where('holder_kind', '=', holder.kind)
    .where('holder_id', '=', holder.id)
    .where('code_hash', '=', sha256(normalRecoveryCode(code)))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Db, holder: Holder): Promise<number> {
  const row = await db
    .selectFrom('recovery_code')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('holder_kind', '=', holder.kind)
    .where('holder_id', '=', holder.id)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function removeRecoveryCodes(db: Db, holder: Holder): Promise<void> {
  await db.deleteFrom('recovery_code').where('holder_kind', '=', holder.kind).where('holder_id', '=', holder.id).execute();
}
