import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Migration } from 'kysely';
import type { DatabaseHandle } from './index.js';
import { foundation } from './migrations/0001_foundation.js';
import { hostedMail } from './migrations/0002_hosted_mail.js';
import { jobs } from './migrations/0003_jobs.js';
import { hardening } from './migrations/0004_hardening.js';
import { shop } from './migrations/0005_shop.js';
import { support } from './migrations/0006_support.js';
import { mailServer } from './migrations/0007_mail_server.js';
import { searchAndCounts } from './migrations/0008_search_and_counts.js';
import { guestMessageReplies } from './migrations/0009_guest_message_replies.js';
import { storageOverTime } from './migrations/0010_storage_over_time.js';
import { searchShopSupport } from './migrations/0011_search_shop_support.js';
import { teamInvitations } from './migrations/0012_team_invitations.js';
import { mailboxDeletion } from './migrations/0013_mailbox_deletion.js';
import { orderNumber } from './migrations/0014_order_number.js';
import { mailboxAllocation } from './migrations/0015_mailbox_allocation.js';
import { plannerStatistics } from './migrations/0016_planner_statistics.js';
import { mailLookups } from './migrations/0017_mail_lookups.js';
import { mailboxOwners } from './migrations/0018_mailbox_owners.js';
import { mailOwnersServer } from './migrations/0019_mail_owners_server.js';
import { secondFactors } from './migrations/0020_second_factors.js';
import { sessionsAndApiKeys } from './migrations/0021_sessions_and_api_keys.js';
import { spam } from './migrations/0022_spam.js';
import { storedFiles } from './migrations/0023_stored_files.js';
import { imports } from './migrations/0024_imports.js';
import { mailCopy } from './migrations/0025_mail_copy.js';
import { reports } from './migrations/0026_reports.js';
import { domainHealth } from './migrations/0027_domain_health.js';
import { searchEveryList } from './migrations/0028_search_every_list.js';
import { refusalDetailParams } from './migrations/0029_refusal_detail_params.js';
import { allowedSendersInSieve } from './migrations/0030_allowed_senders_in_sieve.js';
import { mailStores } from './migrations/0031_mail_stores.js';

/** Migrations in order; each is written once and never edited after it lands. */
function migrations(dialect: DatabaseHandle['dialect']): Record<string, Migration> {
  return {
    '0001_foundation': foundation(dialect),
    '0002_hosted_mail': hostedMail(dialect),
    '0003_jobs': jobs(dialect),
    '0004_hardening': hardening(dialect),
    '0005_shop': shop(dialect),
    '0006_support': support(dialect),
    '0007_mail_server': mailServer(dialect),
    '0008_search_and_counts': searchAndCounts(dialect),
    '0009_guest_message_replies': guestMessageReplies(dialect),
    '0010_storage_over_time': storageOverTime(dialect),
    '0011_search_shop_support': searchShopSupport(dialect),
    '0012_team_invitations': teamInvitations(dialect),
    '0013_mailbox_deletion': mailboxDeletion(dialect),
    '0014_order_number': orderNumber(dialect),
    '0015_mailbox_allocation': mailboxAllocation(),
    '0016_planner_statistics': plannerStatistics(dialect),
    '0017_mail_lookups': mailLookups(dialect),
    '0018_mailbox_owners': mailboxOwners(dialect),
    '0019_mail_owners_server': mailOwnersServer(dialect),
    '0020_second_factors': secondFactors(dialect),
    '0021_sessions_and_api_keys': sessionsAndApiKeys(dialect),
    '0022_spam': spam(dialect),
    '0023_stored_files': storedFiles(dialect),
    '0024_imports': imports(dialect),
    '0025_mail_copy': mailCopy(dialect),
    '0026_reports': reports(dialect),
    '0027_domain_health': domainHealth(dialect),
    '0028_search_every_list': searchEveryList(dialect),
    '0029_refusal_detail_params': refusalDetailParams(),
    '0030_allowed_senders_in_sieve': allowedSendersInSieve(dialect),
    '0031_mail_stores': mailStores(dialect),
  };
}

/** A database some migrations of which this code does not know: a newer release ran on it. */
export class DatabaseNewerThanCode extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `This database was upgraded by a newer Maildesk: it has migrations this version does not know (${unknown.join(', ')}). ` +
        'Start the newer release again, or restore the backup taken before the upgrade (docs/operations.md#upgrades). Nothing was changed.',
    );
    this.name = 'DatabaseNewerThanCode';
  }
}

export interface MigrationStatus {
  /** Known to this code and not yet run. */
  pending: string[];
  /** Run by a newer release. */
  unknown: string[];
}

/** What migrating would do (doctor, /ready): one read of the migration table. */
export async function migrationStatus({ db, dialect }: Pick<DatabaseHandle, 'db' | 'dialect'>): Promise<MigrationStatus> {
  const names = Object.keys(migrations(dialect));
  const applied = await appliedMigrations(db);
  return { pending: names.filter((n) => !applied.includes(n)), unknown: applied.filter((n) => !names.includes(n)) };
}

export async function migrateToLatest({ db, dialect }: Pick<DatabaseHandle, 'db' | 'dialect'>): Promise<void> {
  const all = migrations(dialect);
  // Up to date (every start but the first after an upgrade): one read, instead of the
  // migrator's look at every table, its lock and its transaction.
  const applied = await appliedMigrations(db);
  const names = Object.keys(all);
  // Older code on a newer database would write rows the newer schema does not expect: refuse.
  const unknown = applied.filter((name) => !names.includes(name));
  if (unknown.length) throw new DatabaseNewerThanCode(unknown);
  if (applied.length === names.length && names.every((name) => applied.includes(name))) return;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Runs the migrations up to and including `last` only: how the upgrade fixtures of earlier releases are made. */
export async function migrateUpTo({ db, dialect }: Pick<DatabaseHandle, 'db' | 'dialect'>, last: string): Promise<void> {
  const all = migrations(dialect);
  if (!(last in all)) throw new Error(`No migration ${last}`);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
}

/** The names of the migrations this database has run; none when it has no migration table yet. */
async function appliedMigrations(db: DatabaseHandle['db']): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
    return rows.map((r) => r.name);
  } catch {
    return []; // the migrator makes the table, or reports what is wrong
  }
}
