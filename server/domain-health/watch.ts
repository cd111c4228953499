/**
 * The DNS watch: every active domain's required records (MX, SPF, DKIM with the current and the
 * next key, DMARC, MTA-STS, TLS-RPT, the ownership record) looked up every DNS_WATCH_HOURS with
 * the DNS page's own checker, what changed remembered (record-states.ts).
 *
 * Spread over time so that a million domains never run at once: each domain carries when it is
 * next due (domain.dns_watch_at, read by the index (status, dns_watch_at)); a run takes the due
 * ones in batches, a few at a time, for at most RUN_BUDGET_MS, and sets each one's next time
 * with a random tenth of the interval added, so that domains made together drift apart. A
 * backlog (the first run after an upgrade) is worked off over the following runs.
 */
import type { Selectable } from 'kysely';
import { systemOrigin, type RequestOrigin } from '../core/audit.js';
import type { Services } from '../core/services.js';
import { now, nowMs } from '../core/time.js';
import type { DomainRow } from '../db/schema.js';
import { checkRequiredRecords } from '../mail/dns-records.js';
import { recordStates, type Outcome } from './record-states.js';

const BATCH = 200;
/** Domains looked up at once; each is some nine lookups at once. */
const PARALLEL = 16;
/** The schedule runs every five minutes: a run stops taking work after four. */
const RUN_BUDGET_MS = 4 * 60_000;

type WatchServices = Pick<Services, 'db' | 'mailer' | 'config'>;

/** When a domain checked now is next due: the interval, plus up to a tenth of it. */
export function nextWatchAt(config: WatchServices['config'], at = nowMs()): string {
  const interval = config.dnsWatchHours * 3_600_000;
  return new Date(at + interval + Math.floor(Math.random() * interval * 0.1)).toISOString();
}

/** Checks one domain now and remembers what it found. */
export async function watchDomain(services: WatchServices, domain: Selectable<DomainRow>, origin: RequestOrigin = systemOrigin('dns-watch')): Promise<Outcome> {
  const checked = await checkRequiredRecords(domain, services.config);
  return recordStates(services, domain, checked, origin);
}

/** Takes a due domain: of two runs that read it, one moves its time on and checks it. */
async function claim(services: WatchServices, id: number, dueAt: string): Promise<Selectable<DomainRow> | undefined> {
  const claimed = await services.db.updateTable('domain').set({ dns_watch_at: nextWatchAt(services.config) }).where('id', '=', id).where('dns_watch_at', '=', dueAt).where('status', '=', 'active').executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  return services.db.selectFrom('domain').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One run of the schedule: the due domains, batch by batch, within the run's budget. */
export async function watchDueDomains(services: WatchServices, budgetMs = RUN_BUDGET_MS, stopping?: AbortSignal) {
  const started = Date.now();
  const totals = { checked: 0, changed: 0, notified: 0 };
  const failures: string[] = [];
  for (;;) {
    const due = await services.db
      .selectFrom('domain')
      .select(['id', 'dns_watch_at'])
      .where('status', '=', 'active')
      .where('dns_watch_at', '<=', now())
      .orderBy('dns_watch_at')
      .limit(BATCH)
      .execute();
    const queue = [...due];
    const worker = async () => {
      // A stopping process takes no more: the domains not claimed stay due for the next run.
      for (let next = queue.shift(); next && !stopping?.aborted; next = queue.shift()) {
        try {
          const domain = await claim(services, next.id, next.dns_watch_at);
          if (!domain) continue;
          const outcome = await watchDomain(services, domain);
          totals.checked++;
          totals.changed += outcome.changed;
          if (outcome.notified) totals.notified++;
        } catch (error) {
          // One domain's trouble (its next time is already set) does not hold up the others.
          failures.push(`domain ${next.id}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    if (due.length < BATCH || Date.now() - started > budgetMs || stopping?.aborted) break;
  }
  if (failures.length) throw new Error(`DNS watch: ${failures.length} domain(s) failed; ${failures.slice(0, 3).join('; ')}`);
  return totals;
}
