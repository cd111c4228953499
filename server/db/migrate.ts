import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Migration } from 'kysely';
import type { DatabaseHandle } from './index.js';
import { foundation } from './migrations/0001_foundation.js';
import { hostedMail } from './migrations/0002_hosted_mail.js';
// Durable jobs
import { jobs } from './migrations/0003_jobs.js';
// Hardening
import { hardening } from './migrations/0004_hardening.js';
// Shop.
import { shop } from './migrations/0005_shop.js';
// Mail server in production (DKIM rotation, signing keys, full mailboxes)
import { mailServer } from './migrations/0007_mail_server.js';
// Mailbox deletion as a lifecycle (issue 12)
import { mailboxDeletion } from './migrations/0013_mailbox_deletion.js';
// Fast lists at a million rows (perf)
import { searchAndCounts } from './migrations/0008_search_and_counts.js';
// Storage over time (issue 10)
import { storageOverTime } from './migrations/0010_storage_over_time.js';
// Support (tickets)
import { support } from './migrations/0006_support.js';
// Guest message replies and handled state (issue 14)
import { guestMessageReplies } from './migrations/0009_guest_message_replies.js';
// Search indexes for the shop's and support's columns
import { searchShopSupport } from './migrations/0011_search_shop_support.js';
// Team-member invitations (issue 8)
import { teamInvitations } from './migrations/0012_team_invitations.js';
// Order numbers for people (links to orders)
import { orderNumber } from './migrations/0014_order_number.js';
// Mailbox creation's costs (issue 13)
import { mailboxAllocation } from './migrations/0015_mailbox_allocation.js';

/** Migrations in order; each is written once and never edited after it lands. */
function migrations(dialect: DatabaseHandle['dialect']): Record<string, Migration> {
  return {
    '0001_foundation': foundation(dialect),
    '0002_hosted_mail': hostedMail(dialect),
    // Durable jobs
    '0003_jobs': jobs(dialect),
    // Hardening
    '0004_hardening': hardening(dialect),
    // Shop.
    '0005_shop': shop(dialect),
    // Support (tickets)
    '0006_support': support(dialect),
    // Mail server in production
    '0007_mail_server': mailServer(dialect),
    // Fast lists at a million rows (perf)
    '0008_search_and_counts': searchAndCounts(dialect),
    // Guest message replies and handled state (issue 14)
    '0009_guest_message_replies': guestMessageReplies(dialect),
    // Storage over time (issue 10)
    '0010_storage_over_time': storageOverTime(dialect),
    // Search indexes for the shop's and support's columns
    '0011_search_shop_support': searchShopSupport(dialect),
    // Team-member invitations (issue 8)
    '0012_team_invitations': teamInvitations(dialect),
    // Mailbox deletion as a lifecycle (issue 12)
    '0013_mailbox_deletion': mailboxDeletion(dialect),
    // Order numbers for people (links to orders)
    '0014_order_number': orderNumber(dialect),
    // Mailbox creation's costs (issue 13)
    '0015_mailbox_allocation': mailboxAllocation(),
  };
}

export async function migrateToLatest({ db, dialect }: DatabaseHandle): Promise<void> {
  const all = migrations(dialect);
  // Up to date (every start but the first after an upgrade): one read, instead of the
  // migrator's look at every table, its lock and its transaction.
  const applied = await appliedMigrations(db);
  const names = Object.keys(all);
  if (applied.length === names.length && names.every((name) => applied.includes(name))) return;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
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
