/**
 * The database's tables as Kysely sees them, each group in tables/ with the capability that
 * owns it; derived CRUD works from the declarations in resources/.
 */
import type { AccountsTables } from './tables/accounts.js';
import type { TeamTables } from './tables/team.js';
import type { MailTables } from './tables/mail.js';
import type { StorageTables } from './tables/storage.js';
import type { ShopTables } from './tables/shop.js';
import type { SupportTables } from './tables/support.js';
import type { OutboxTables } from './tables/outbox.js';
import type { JobsTables } from './tables/jobs.js';
import type { StatsTables } from './tables/stats.js';
import type { MailboxOwnersTables } from './tables/mailbox-owners.js';
import type { SecurityTables } from './tables/security.js';
import type { ApiKeyTables } from './tables/api-keys.js';
import type { SpamTables } from './tables/spam.js';
import type { FilesTables } from './tables/files.js';
import type { ImportTables } from './tables/imports.js';
import type { MailCopyTables } from './tables/mail-copy.js';
import type { ReportsTables } from './tables/reports.js';
import type { DomainHealthTables } from './tables/domain-health.js';

export type * from './tables/accounts.js';
export type * from './tables/team.js';
export type * from './tables/mail.js';
export type * from './tables/storage.js';
export type * from './tables/shop.js';
export type * from './tables/support.js';
export type * from './tables/outbox.js';
export type * from './tables/jobs.js';
export type * from './tables/stats.js';
export type * from './tables/mailbox-owners.js';
export type * from './tables/security.js';
export type * from './tables/api-keys.js';
export type * from './tables/spam.js';
export type * from './tables/files.js';
export type * from './tables/imports.js';
export type * from './tables/mail-copy.js';
export type * from './tables/reports.js';
export type * from './tables/domain-health.js';

export interface Database
  extends AccountsTables,
    TeamTables,
    MailTables,
    StorageTables,
    ShopTables,
    SupportTables,
    OutboxTables,
    JobsTables,
    StatsTables,
    MailboxOwnersTables,
    SecurityTables,
    ApiKeyTables,
    SpamTables,
    FilesTables,
    ImportTables,
    MailCopyTables,
    ReportsTables,
    DomainHealthTables {}
