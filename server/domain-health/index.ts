/**
 * Domain health: the DNS watch (every active domain's required records looked up on a schedule,
 * changes kept as history, the customer e-mailed once when one breaks; a DKIM rotation finished
 * once the next key is seen published) and MTA-STS (the policy served on mta-sts.<domain>, its
 * mode chosen by the customer). The records themselves, and their live check, are the DNS
 * page's (server/mail/dns-records.ts).
 */
import { defineCapability } from '../core/capability.js';
import { defineSchedule } from '../core/jobs.js';
import { daysAgo } from '../core/time.js';
import { domainHealthCalls } from './health-calls.js';
import { registerMtaStsPolicy } from './mta-sts-route.js';
import { watchDueDomains } from './watch.js';

/** Changes older than this leave the history. */
const HISTORY_DAYS = 400;

export const domainHealth = defineCapability({
  name: 'domain-health',
  calls: domainHealthCalls,
  routes: registerMtaStsPolicy,
  schedules: [
    // The domains whose check is due; every five minutes, once across instances.
    defineSchedule({
      name: 'domain-health.watch',
      cron: '*/5 * * * *',
      // Up to four minutes of DNS lookups: in the lane of long jobs, never in front of outgoing mail.
      lane: 'long',
      handler: async ({ services, stopping }) => {
        await watchDueDomains(services, undefined, stopping);
      },
    }),
  ],
  housekeeping: [
    async (services) => {
      await services.db.deleteFrom('domain_dns_change').where('at', '<', daysAgo(HISTORY_DAYS)).execute();
    },
  ],
});
