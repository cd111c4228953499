/**
 * How many mailbox passwords are still kept in a weaker scheme than argon2id, by scheme: each
 * becomes argon2id at its owner's next sign-in to the mailbox owners' area or password change.
 * Read through the partial index that holds only weak hashes (0024), so an all-argon2id
 * installation counts nothing.
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../db/index.js';

export async function weakHashes(db: Db, dialect: Dialect) {
  const scheme = dialect === 'postgres' ? sql<string>`split_part(substr(password_hash, 2), '}', 1)` : sql<string>`substr(password_hash, 2, instr(password_hash, '}') - 2)`;
  const rows = await db
    .selectFrom('mailbox')
    .select([scheme.as('scheme'), (eb) => eb.fn.countAll<number>().as('count')])
    .where(sql<boolean>`password_hash NOT LIKE '{ARGON2ID}%'`)
    .groupBy(scheme)
    .orderBy('count', 'desc')
    .execute();
  const schemes = rows.map((r) => ({ scheme: r.scheme || 'UNKNOWN', count: Number(r.count) }));
  return { total: schemes.reduce((sum, s) => sum + s.count, 0), schemes };
}
