/**
 * Bringing the mail (issue #25, item 4): copies of the mail of accounts on other IMAP servers into
 * mailboxes, as resumable background jobs. A fragment of the `imports` capability's manifest.
 */
import { mailCopy } from '../../../resources/mail_copy.js';
import type { Capability } from '../../core/capability.js';
import { endAbandonedCopies, mailCopyJob } from './copy-job.js';
import { mailCopyCalls } from './mail-copy-calls.js';

export const mailCopyFragment = {
  resources: [{ declaration: mailCopy, behaviour: { calls: mailCopyCalls } }],
  calls: [],
  jobs: [mailCopyJob],
  housekeeping: [endAbandonedCopies],
} satisfies Pick<Capability, 'resources' | 'calls' | 'jobs' | 'housekeeping'>;
