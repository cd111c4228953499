/**
 * Hosted mail: domains (DNS records, proof of ownership, DKIM keys), mailboxes, aliases and
 * alias domains, which Postfix and Dovecot read straight from the database; deleting and
 * restoring mailboxes; the settings mail programs need, and their automatic configuration; the
 * mail server the domains point at, for operators; mailboxes' out-of-office and forwarding (Sieve);
 * the mail stores that hold the mailboxes, and where a new one is placed (stores/).
 */
import { alias } from '../../resources/alias.js';
import { aliasDomain } from '../../resources/alias_domain.js';
import { deletedMailbox } from '../../resources/deleted_mailbox.js';
import { domain } from '../../resources/domain.js';
import { mailbox } from '../../resources/mailbox.js';
import { mailStore } from '../../resources/mail_store.js';
import { defineCapability } from '../core/capability.js';
import { aliasBehaviour } from './alias.js';
import { aliasDomainBehaviour } from './alias-domain.js';
import { mailClientCalls, registerMailClientConfig } from './client-config-calls.js';
import { deletedMailboxCalls } from './deleted-mailbox-calls.js';
import { domainBehaviour } from './domain.js';
import { domainDnsCalls } from './domain-calls.js';
import { mailboxBehaviour } from './mailbox.js';
import { mailboxCalls } from './mailbox-calls.js';
import { mailServerCalls } from './mail-server-calls.js';
import { forgetFinishedDeletions, purgeMailboxJob } from './mailbox-deletion.js';
import { mailboxRuleCalls, ownRuleCalls } from './rule-calls.js';
import { mailStoreBehaviour, measureStoresSchedule } from './stores/store.js';

export const mail = defineCapability({
  name: 'mail',
  resources: [
    { declaration: domain, behaviour: domainBehaviour },
    { declaration: mailbox, behaviour: { ...mailboxBehaviour, calls: mailboxRuleCalls } },
    { declaration: deletedMailbox },
    { declaration: alias, behaviour: aliasBehaviour },
    { declaration: aliasDomain, behaviour: aliasDomainBehaviour },
    { declaration: mailStore, behaviour: mailStoreBehaviour },
  ],
  calls: [...domainDnsCalls, ...mailboxCalls, ...deletedMailboxCalls, ...mailClientCalls, ...mailServerCalls, ...ownRuleCalls],
  routes: registerMailClientConfig,
  jobs: [purgeMailboxJob],
  schedules: [measureStoresSchedule],
  housekeeping: [
    // Deleted mailboxes' records, DELETED_MAILBOX_RETENTION_DAYS after their mail went or they were restored.
    forgetFinishedDeletions,
  ],
});
