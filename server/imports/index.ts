/**
 * Moving in: a PostfixAdmin installation (its database, read once) and CSV files of mailboxes
 * and aliases become Maildesk's records, keeping every password hash with its Dovecot {SCHEME}
 * so that old passwords work at once; runs are background jobs that resume after a crash and
 * never double anything. Copying the mail itself is server/imports/mail-copy/.
 */
import { defineCapability } from '../core/capability.js';
import { importCalls } from './import-calls.js';
import { resumeImports, runImport } from './runs.js';

export { runPostfixAdminImportFromCli } from './cli.js';

export const imports = defineCapability({
  name: 'imports',
  calls: importCalls,
  jobs: [runImport],
  schedules: [resumeImports],
  housekeeping: [],
});
