/**
 * Mailbox owners: the people who read the mail, in an area of their own (/api/mail): sign-in with
 * the mailbox's address and password (any scheme Dovecot verifies, upgraded to argon2id), their
 * sessions, their mailbox and password, and app passwords for mail programs. Their out-of-office
 * and forwarding are the mail capability's (server/mail/rule-calls.ts), shared with the other areas.
 */
import { appPassword } from '../../resources/app_password.js';
import { defineCapability } from '../core/capability.js';
import { appPasswordBehaviour } from './app-password.js';
import { authenticators } from './authenticate.js';
import { mailLoginCalls } from './login-calls.js';
import { mailMeCalls } from './me-calls.js';
import { signedInCalls } from '../accounts/signed-in-calls.js';

export const mailboxOwners = defineCapability({
  name: 'mailbox-owners',
  resources: [{ declaration: appPassword, behaviour: appPasswordBehaviour }],
  calls: [...mailLoginCalls, ...mailMeCalls, ...signedInCalls('mail')],
  authenticators,
});
