/**
 * Short-lived, single-purpose tokens, stored as their SHA-256: the pending sign-in the password
 * step hands to the second step (never a session: it lives in its own table, which no
 * authenticator reads), and WebAuthn challenges. Each is used once; a pending sign-in dies after
 * a few wrong codes, so guessing has to go through the (throttled) password step again.
 */
import crypto from 'node:crypto';
import { inMinutes, now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { ChallengePurpose, HolderKind, SecondFactorChallengeRow } from '../db/schema.js';
import type { Selectable } from 'kysely';

export const CHALLENGE_MINUTES = 5;
/** Wrong codes one pending sign-in takes before it is dead. */
export const ATTEMPTS_PER_SIGN_IN = 5;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

export type Challenge = Selectable<SecondFactorChallengeRow>;

export async function issueChallenge(
  db: Db,
  purpose: ChallengePurpose,
  holder: { kind: HolderKind; id: number | null },
  challenge = '',
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db
    .insertInto('second_factor_challenge')
    .values({
      token_hash: sha256(token),
      purpose,
      holder_kind: holder.kind,
      holder_id: holder.id,
      challenge,
      expires_at: inMinutes(CHALLENGE_MINUTES),
      used_at: null,
      created_at: now(),
    })
    .execute();
  return token;
}

/** The live challenge a token names, for this purpose and area; undefined when unknown, used, expired or worn out. */
export async function liveChallenge(db: Db, token: string, purpose: ChallengePurpose, kind: HolderKind): Promise<Challenge | undefined> {
  if (!token) return undefined;
  const row = await db
    .selectFrom('second_factor_challenge')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', purpose)
    .where('holder_kind', '=', kind)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.expires_at <= now() || row.attempts >= ATTEMPTS_PER_SIGN_IN) return undefined;
  return { ...row, holder_id: row.holder_id === null ? null : Number(row.holder_id) };
}

/** Marks it used; false when another request used it first (so exactly one of two wins). */
export async function useChallenge(db: Db, id: number): Promise<boolean> {
  const result = await db.updateTable('second_factor_challenge').set({ used_at: now() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countWrongAttempt(db: Db, id: number): Promise<void> {
  await db
    .updateTable('second_factor_challenge')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}
