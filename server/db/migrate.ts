import { Migrator, type Migration } from 'kysely';
import type { DatabaseHandle } from './index.js';
import { foundation } from './migrations/0001_foundation.js';
import { hostedMail } from './migrations/0002_hosted_mail.js';

/** Migrations in order; each is written once and never edited after it lands. */
function migrations(dialect: DatabaseHandle['dialect']): Record<string, Migration> {
  return {
    '0001_foundation': foundation(dialect),
    '0002_hosted_mail': hostedMail(dialect),
  };
}

export async function migrateToLatest({ db, dialect }: DatabaseHandle): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(dialect) } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
