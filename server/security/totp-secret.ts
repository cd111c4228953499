/**
 * TOTP secrets at rest: sealed with SECRET_KEY (core/secret-box.ts), bound to their person, so a
 * copy of the database gives nobody a working authenticator. Without SECRET_KEY they are kept in
 * clear as before. Rows an older release wrote in clear (or written before SECRET_KEY was set) are
 * read as they are until the sealing below runs, at the next start with the key.
 */
import type { Config } from '../config.js';
import { isSealed, open, seal } from '../core/secret-box.js';
import type { Db } from '../db/index.js';
import type { Holder } from './holders.js';

export interface TotpStore {
  db: Db;
  config: Pick<Config, 'secretKey'>;
}

const purposeOf = (holder: Holder) => `totp:${holder.kind}:${holder.id}`;

export function sealTotpSecret({ config }: TotpStore, holder: Holder, secret: string): string {
  return config.secretKey ? seal(config.secretKey, secret, purposeOf(holder)) : secret;
}

/** The base32 secret; undefined when it is sealed and cannot be opened (no key, another key, or moved to another person). */
export function openTotpSecret({ config }: TotpStore, holder: Holder, stored: string): string | undefined {
  if (!isSealed(stored)) return stored;
  return config.secretKey ? open(config.secretKey, stored, purposeOf(holder)) : undefined;
}

/**
 * The data migration, on SQLite and PostgreSQL alike: every secret still in clear is sealed with
 * SECRET_KEY. Run at each start with the key (a no-op once all are sealed), so rows of an older
 * release, or of a time before the key was set, are sealed as soon as it is. Answers how many.
 */
export async function sealClearTotpSecrets(store: TotpStore): Promise<number> {
  if (!store.config.secretKey) return 0;
  const rows = await store.db.selectFrom('totp').select(['id', 'holder_kind', 'holder_id', 'secret']).where('secret', 'not like', 'v1.%').execute();
  let sealed = 0;
  for (const row of rows) {
    const holder = { kind: row.holder_kind, id: Number(row.holder_id) };
    // Guarded by the old value: a secret replaced meanwhile (a new enrolment) is left as it now is.
    const result = await store.db
      .updateTable('totp')
      .set({ secret: sealTotpSecret(store, holder, row.secret) })
      .where('id', '=', row.id)
      .where('secret', '=', row.secret)
      .executeTakeFirst();
    sealed += Number(result.numUpdatedRows);
  }
  return sealed;
}
