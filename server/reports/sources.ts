/**
 * Who sent as a domain: the sending addresses' reverse names (PTR, through DNS_SERVERS), looked
 * up once and kept in report_source for a week, and the organisation a name belongs to (its
 * registrable domain: google.com for mail-ed1-f41.google.com).
 */
import { getDomain } from 'tldts';
import type { Db } from '../db/index.js';
import type { ReportSourceRow } from '../db/schema.js';
import type { Config } from '../config.js';
import { resolverFor } from '../mail/dns-records.js';
import { DAY_MS, now, nowMs } from '../core/time.js';

const KEEP_MS = 7 * DAY_MS;
/** Lookups made at once, and at most this many per call (the rest wait for the next reading). */
const PARALLEL = 8;
const PER_CALL = 64;

/**
 * The organisation a reverse name belongs to: its registrable domain by the Public Suffix List's
 * ICANN part (tldts, which carries the list): google.com for mail-ed1-f41.google.com,
 * example.co.uk, amazonaws.com for an EC2 host (a cloud's private suffixes would make each
 * customer's host an organisation). A name with no public suffix stays as it is.
 */
export function organisationOf(ptr: string): string {
  const name = ptr.toLowerCase().replace(/\.$/, '');
  return getDomain(name, { allowPrivateDomains: false }) ?? name;
}

/** Reverse names of these addresses ('' when there is none), from the cache or DNS. */
export async function reverseNames(db: Db, config: Pick<Config, 'dnsServers'>, ips: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ips)];
  const names = new Map<string, string>();
  if (!unique.length) return names;
  const cached: ReportSourceRow[] = [];
  for (let i = 0; i < unique.length; i += 500) cached.push(...(await db.selectFrom('report_source').selectAll().where('ip', 'in', unique.slice(i, i + 500)).execute()));
  const fresh = new Date(nowMs() - KEEP_MS).toISOString();
  for (const row of cached) names.set(row.ip, row.ptr);
  const stale = unique.filter((ip) => !cached.some((row) => row.ip === ip && row.looked_up_at >= fresh)).slice(0, PER_CALL);
  const resolver = resolverFor(config);
  for (let i = 0; i < stale.length; i += PARALLEL) {
    await Promise.all(
      stale.slice(i, i + PARALLEL).map(async (ip) => {
        let ptr = '';
        try {
          ptr = ((await resolver.reverse(ip))[0] ?? '').toLowerCase().replace(/\.$/, '').slice(0, 255);
        } catch {
          // No reverse name (or no answer): kept as none, asked again in a week.
        }
        names.set(ip, ptr);
        await db
          .insertInto('report_source')
          .values({ ip, ptr, looked_up_at: now() })
          .onConflict((oc) => oc.column('ip').doUpdateSet({ ptr, looked_up_at: now() }))
          .execute();
      }),
    );
  }
  return names;
}
