/**
 * Moving in: a PostfixAdmin installation (its database, read once) and CSV files of mailboxes
 * and aliases become Maildesk's records, keeping every password hash with its Dovecot {SCHEME}
 * so that old passwords work at once; runs are background jobs that resume after a crash and
 * never double anything. Bringing the mail (mail-copy/) copies mailboxes' mail from another
 * IMAP server.
 */
import { defineCapability } from '../core/capability.js';
import { importCommand } from './cli.js';
import { importCalls } from './import-calls.js';
import { mailCopyFragment } from './mail-copy/index.js';
import { resumeImports, runImport } from './runs.js';


export const imports = defineCapability({
  name: 'imports',
  resources: [...mailCopyFragment.resources],
  calls: [...importCalls, ...mailCopyFragment.calls],
  jobs: [runImport, ...mailCopyFragment.jobs],
  schedules: [resumeImports],
  housekeeping: [...mailCopyFragment.housekeeping],
  commands: [importCommand],
});
