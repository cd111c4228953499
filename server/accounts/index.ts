/**
 * Accounts: customers' and operators' sign-in (password or e-mailed code, registration,
 * verification, password recovery), their sessions and the sign-in throttle, their own
 * profile, the operator and customer records, and the activity log of who did what.
 */
import { auditLog } from '../../resources/audit_log.js';
import { customer } from '../../resources/customer.js';
import { operator } from '../../resources/operator.js';
import { defineCapability } from '../core/capability.js';
import { daysAgo, now, nowMs } from '../core/time.js';
import { authenticators } from './authenticate.js';
import { customerBehaviour } from './customer.js';
import { customerLoginCalls } from './customer-login-calls.js';
import { customerMeCalls } from './customer-me-calls.js';
import { operatorBehaviour } from './operator.js';
import { operatorCalls } from './operator-calls.js';
import { signedInCalls } from './signed-in-calls.js';

export const accounts = defineCapability({
  name: 'accounts',
  resources: [
    { declaration: operator, behaviour: operatorBehaviour },
    { declaration: customer, behaviour: customerBehaviour },
    { declaration: auditLog },
  ],
  calls: [...customerLoginCalls, ...customerMeCalls, ...operatorCalls, ...signedInCalls('admin'), ...signedInCalls('manage')],
  authenticators,
  housekeeping: [
    // Sessions past their end (absolute or idle); revoked ones a day after, for the audit trail's sake.
    async ({ db, config }) => {
      await db.deleteFrom('session').where('expires_at', '<=', now()).execute();
      await db.deleteFrom('session').where('last_seen_at', '<=', new Date(nowMs() - config.sessionIdleMinutes * 60_000).toISOString()).execute();
      await db.deleteFrom('session').where('revoked_at', '<=', daysAgo(1)).execute();
    },
    // Codes past their 10 minutes (used ones too): a day's grace so that support can see one.
    async ({ db }) => {
      await db.deleteFrom('verify_code').where('expires_at', '<=', daysAgo(1)).execute();
    },
  ],
});
