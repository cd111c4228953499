/** The product's capabilities: the app, the start-up and the job queue loop over this list. */
import { accounts } from './accounts/index.js';
import { apiKeys } from './api-keys/index.js';
import type { Capability } from './core/capability.js';
import { imports } from './imports/index.js';
import { domainHealth } from './domain-health/index.js';
import { jobs } from './jobs/index.js';
import { mail } from './mail/index.js';
import { mailboxOwners } from './mailbox-owners/index.js';
import { operations } from './operations/index.js';
import { outbox } from './outbox/index.js';
import { reports } from './reports/index.js';
import { security } from './security/index.js';
import { shop } from './shop/index.js';
import { spam } from './spam/index.js';
import { stats } from './stats/index.js';
import { storage } from './storage/index.js';
import { support } from './support/index.js';
import { team } from './team/index.js';

export const capabilities: readonly Capability[] = [accounts, team, mail, mailboxOwners, security, spam, storage, shop, support, outbox, jobs, stats, apiKeys, operations, imports, reports, domainHealth];
