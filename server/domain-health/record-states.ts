/**
 * What the DNS watch remembers of a domain's records: the state each was last seen in, and a
 * history row for every change. A record that was correct and no longer is has broken: its owner
 * is e-mailed once, in the same transaction as the change (so a crash leaves both or neither);
 * putting it back is a change too, and clears it. A lookup that failed says nothing new.
 */
import type { Selectable } from 'kysely';
import type { RequestOrigin } from '../core/audit.js';
import type { Services } from '../core/services.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { DomainDnsRecordRow, DomainRow, WatchedStatus } from '../db/schema.js';
import type { CheckedRecord } from '../mail/dns-records.js';
import { switchToNextKey } from '../mail/dkim.js';
import { breakageMail } from './breakage-notice.js';

const foundText = (record: CheckedRecord) => record.found.join(' | ');

export interface Outcome {
  changed: number;
  broken: number;
  notified: boolean;
  dkimSwitched: boolean;
}

/** Stores what one check of a domain found; the domain row is as it was read before the check. */
export async function recordStates(services: Pick<Services, 'db' | 'mailer' | 'config'>, domain: Selectable<DomainRow>, checked: CheckedRecord[], origin: RequestOrigin): Promise<Outcome> {
  return services.db.transaction().execute(async (trx) => {
    const at = now();
    const seen = checked.filter((r): r is CheckedRecord & { status: WatchedStatus } => r.status !== 'unchecked');
    const before = new Map((await trx.selectFrom('domain_dns_record').selectAll().where('domain_id', '=', domain.id).execute()).map((r) => [r.kind, r]));
    const outcome: Outcome = { changed: 0, broken: 0, notified: false, dkimSwitched: false };
    const broke: CheckedRecord[] = [];
    const brokeChanges: number[] = [];
    for (const record of seen) {
      const previous = before.get(record.kind);
      const state = { host: record.host, value: record.value, status: record.status, found: foundText(record) };
      if (!previous) {
        // First sight: the baseline, not a change.
        await trx.insertInto('domain_dns_record').values({ domain_id: domain.id, kind: record.kind, ...state, since: at }).onConflict((oc) => oc.columns(['domain_id', 'kind']).doNothing()).execute();
        continue;
      }
      if (previous.status === state.status && previous.found === state.found && previous.host === state.host) {
        // Only what we ask for moved (a new MTA-STS id, and DNS already has it wrong): no news in DNS.
        if (previous.value !== state.value) await trx.updateTable('domain_dns_record').set({ value: state.value }).where('domain_id', '=', domain.id).where('kind', '=', record.kind).execute();
        continue;
      }
      // Guarded by what was read: of two checks racing on one domain, one records the change.
      const updated = await trx
        .updateTable('domain_dns_record')
        .set({ ...state, since: previous.status === state.status ? previous.since : at })
        .where('domain_id', '=', domain.id)
        .where('kind', '=', record.kind)
        .where('status', '=', previous.status)
        .where('found', '=', previous.found)
        .where('host', '=', previous.host)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) continue;
      const breaks = previous.status === 'ok' && state.status !== 'ok';
      const { id } = await trx
        .insertInto('domain_dns_change')
        .values({ domain_id: domain.id, kind: record.kind, ...state, status_before: previous.status, found_before: previous.found, notified: breaks ? 1 : 0, at })
        .returning('id')
        .executeTakeFirstOrThrow();
      outcome.changed++;
      if (breaks) {
        broke.push(record);
        brokeChanges.push(Number(id));
      }
    }
    // Records no longer asked for (the next DKIM key once switched to) are no longer watched.
    const asked = new Set<string>(checked.map((r) => r.kind));
    const gone = [...before.keys()].filter((kind) => !asked.has(kind));
    if (gone.length) await trx.deleteFrom('domain_dns_record').where('domain_id', '=', domain.id).where('kind', 'in', gone).execute();

    outcome.broken = broke.length;
    if (broke.length) {
      const mail = await breakageMail(trx, services.config, domain, broke);
      if (mail) {
        await services.mailer.send(trx, mail);
        outcome.notified = true;
      } else {
        await trx.updateTable('domain_dns_change').set({ notified: 0 }).where('id', 'in', brokeChanges).execute();
      }
    }
    outcome.dkimSwitched = await switchWhenNextKeyKnown(trx, origin, domain, before, seen);
    await trx.updateTable('domain').set({ dns_checked_at: at }).where('id', '=', domain.id).execute();
    return outcome;
  });
}

/**
 * DKIM rotation finished by the watch: once the next key's record has been seen published on
 * two checks in a row (so resolvers that cached its absence have had a check's interval to
 * forget it), signing switches to it, as the customer's "switch" would.
 */
async function switchWhenNextKeyKnown(trx: Db, origin: RequestOrigin, domain: Selectable<DomainRow>, before: Map<string, DomainDnsRecordRow>, seen: CheckedRecord[]): Promise<boolean> {
  const next = seen.find((r) => r.kind === 'dkim_next');
  const earlier = before.get('dkim_next');
  if (!next || next.status !== 'ok' || earlier?.status !== 'ok' || earlier.host !== next.host) return false;
  return switchToNextKey(trx, origin, domain);
}
