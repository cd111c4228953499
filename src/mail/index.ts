/** Mail: domains, mailboxes (and those deleted), aliases and alias domains. */
export { aliasDomains } from './aliasDomains';
export { aliases } from './aliases';
export { deletedMailboxes } from './deletedMailboxes';
export { domains } from './domains';
export { mailboxes } from './mailboxes';
