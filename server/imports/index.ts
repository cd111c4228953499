/**
 * Imports: moving in from another installation. Bringing the mail (mail-copy/) copies mailboxes'
 * mail from another IMAP server; the PostfixAdmin and CSV imports join this manifest.
 */
import { defineCapability } from '../core/capability.js';
import { mailCopyFragment } from './mail-copy/index.js';

export const imports = defineCapability({
  name: 'imports',
  resources: [...mailCopyFragment.resources],
  calls: [...mailCopyFragment.calls],
  jobs: [...mailCopyFragment.jobs],
  housekeeping: [...mailCopyFragment.housekeeping],
});
