/** Mail: domains, mailboxes (and those deleted), aliases and alias domains; the mail server they point at and the stores that hold the mail. */
export { aliasDomains } from './aliasDomains';
export { aliases } from './aliases';
export { deletedMailboxes } from './deletedMailboxes';
export { domains } from './domains';
export { mailboxes } from './mailboxes';
export { MailServerCard, mailServerGap, mailServerReady, useMailServer } from './mailServer/MailServerCard';
export { mailStores } from './stores';
export { MailStoresCard } from './stores/MailStoresCard';
