/**
 * Spam and malware protection: rspamd (deploy/templates/rspamd.ts) filters what arrives and what
 * mailboxes send, driven by the settings and allow/block lists kept here; mail over a mailbox's
 * junk score is filed into Junk by Sieve; a mailbox that sends spam or far too much is held.
 */
import { spamList } from '../../resources/spam.js';
import { defineCapability } from '../core/capability.js';
import { registerMailServerRoutes } from './mail-server-routes.js';
import { spamListBehaviour } from './sender-list.js';
import { spamCalls } from './spam-calls.js';

export const spam = defineCapability({
  name: 'spam',
  resources: [{ declaration: spamList, behaviour: spamListBehaviour }],
  calls: spamCalls,
  routes: registerMailServerRoutes,
  housekeeping: [],
});
