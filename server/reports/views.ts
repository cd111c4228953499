/**
 * What the pictures show, read from the stored rows of a window of UTC days (index reads on
 * (domain_id, day), or on day across the installation): a domain's DMARC results per day, its
 * sources grouped by organisation, the advice and what each policy would have done; its TLS
 * results per day and failures by receiving server and type; the operators' summary.
 */
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { daysAgo } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { ReportKind } from '../db/schema.js';
import { dmarcValue } from '../mail/dns-records.js';
import { adviceFor, kindOf, type SourceResults } from './advice.js';
import { organisationOf, reverseNames } from './sources.js';

export type Policy = 'none' | 'quarantine' | 'reject';

const firstDay = (days: number) => daysAgo(days - 1).slice(0, 10);
const dayList = (days: number) => Array.from({ length: days }, (_, i) => daysAgo(days - 1 - i).slice(0, 10));
const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);
/** A refusal's detail parameters (none for rows kept from before they had them). */
const paramsOf = (json: string): Record<string, string | number> => {
  try {
    const params = JSON.parse(json);
    return params && typeof params === 'object' && !Array.isArray(params) ? params : {};
  } catch {
    return {};
  }
};

/** The queries the views run, by name (tests/api/reports.test.ts checks that each reads indexes). */
export const reportQueries = {
  latest: (db: Db, kind: ReportKind, domainId: number | undefined, since: string) => {
    let query = db
    .selectFrom('mail_report as r')
    .innerJoin('domain as d', 'd.id', 'r.domain_id')
    .select(['r.id', 'r.org_name', 'r.report_id', 'r.contact', 'r.begin_at', 'r.end_at', 'r.messages', 'r.failed', 'r.received_at', 'd.name as domain'])
    .where('r.kind', '=', kind)
    .where('r.received_at', '>=', since)
    .orderBy('r.received_at', 'desc')
    .limit(20);
    if (domainId !== undefined) query = query.where('r.domain_id', '=', domainId);
    return query;
  },
  dmarcDays: (db: Db, domainId: number, from: string) =>
    db
      .selectFrom('dmarc_row')
      .select(['day', 'dkim', 'spf', (eb) => eb.fn.sum<number>('messages').as('messages')])
      .where('domain_id', '=', domainId)
      .where('day', '>=', from)
      .groupBy(['day', 'dkim', 'spf']),
  dmarcSources: (db: Db, domainId: number, from: string) =>
    db
      .selectFrom('dmarc_row')
      .select(['source_ip', 'dkim', 'spf', 'dkim_results', 'spf_results', (eb) => eb.fn.sum<number>('messages').as('messages')])
      .where('domain_id', '=', domainId)
      .where('day', '>=', from)
      .groupBy(['source_ip', 'dkim', 'spf', 'dkim_results', 'spf_results'])
      .orderBy(sql`sum(messages)`, 'desc')
      .limit(2000),
  tlsDays: (db: Db, domainId: number, from: string) =>
    db
      .selectFrom('tls_row')
      .select(['day', (eb) => eb.fn.sum<number>('successful').as('successful'), (eb) => eb.fn.sum<number>('failed').as('failed')])
      .where('domain_id', '=', domainId)
      .where('day', '>=', from)
      .groupBy('day'),
  tlsFailures: (db: Db, domainId: number, from: string) =>
    db
      .selectFrom('tls_failure')
      .select(['receiving_mx', 'result_type', (eb) => eb.fn.sum<number>('sessions').as('sessions')])
      .where('domain_id', '=', domainId)
      .where('day', '>=', from)
      .groupBy(['receiving_mx', 'result_type'])
      .orderBy(sql`sum(sessions)`, 'desc')
      .limit(100),
  summaryDmarc: (db: Db, from: string) =>
    db
      .selectFrom('dmarc_row')
      .select(['day', (eb) => eb.fn.sum<number>('messages').as('messages'), (eb) => eb.fn.sum<number>(sql`CASE WHEN dkim = 'fail' AND spf = 'fail' THEN messages ELSE 0 END`).as('fail')])
      .where('day', '>=', from)
      .groupBy('day'),
  summaryTls: (db: Db, from: string) =>
    db
      .selectFrom('tls_row')
      .select(['day', (eb) => eb.fn.sum<number>('successful').as('successful'), (eb) => eb.fn.sum<number>('failed').as('failed')])
      .where('day', '>=', from)
      .groupBy('day'),
  summaryDomains: (db: Db, kind: ReportKind, since: string) =>
    db
      .selectFrom('mail_report as r')
      .innerJoin('domain as d', 'd.id', 'r.domain_id')
      .select(['d.id as domain_id', 'd.name', 'd.name_unicode', 'r.kind', (eb) => eb.fn.sum<number>('r.messages').as('messages'), (eb) => eb.fn.sum<number>('r.failed').as('failed'), (eb) => eb.fn.countAll<number>().as('reports')])
      .where('r.kind', '=', kind)
      .where('r.received_at', '>=', since)
      .groupBy(['d.id', 'd.name', 'd.name_unicode', 'r.kind'])
      .orderBy(sql`sum(r.failed)`, 'desc')
      .limit(50),
  refusals: (db: Db, since: string) => db.selectFrom('report_refusal').select(['id', 'received_at', 'reason', 'detail', 'detail_params']).where('received_at', '>=', since).orderBy('received_at', 'desc').limit(20),
};

async function latestReports(db: Db, kind: ReportKind, domainId: number | undefined, since: string) {
  return (await reportQueries.latest(db, kind, domainId, since).execute()).map((r) => ({ ...r, id: Number(r.id), messages: Number(r.messages), failed: Number(r.failed) }));
}

export async function dmarcView(db: Db, config: Pick<Config, 'dnsServers' | 'reportsAddress'>, domain: { id: number; name: string; dmarc_policy: Policy | null }, days: number) {
  const from = firstDay(days);
  const perDay = await reportQueries.dmarcDays(db, domain.id, from).execute();
  const byDay = new Map(dayList(days).map((day) => [day, { day, messages: 0, dkim_aligned: 0, spf_aligned: 0, pass: 0, fail: 0 }]));
  for (const row of perDay) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    const n = Number(row.messages);
    entry.messages += n;
    if (row.dkim === 'pass') entry.dkim_aligned += n;
    if (row.spf === 'pass') entry.spf_aligned += n;
    if (row.dkim === 'pass' || row.spf === 'pass') entry.pass += n;
    else entry.fail += n;
  }
  const grouped = await reportQueries.dmarcSources(db, domain.id, from).execute();
  const names = await reverseNames(db, config, grouped.map((g) => g.source_ip));
  const results: SourceResults[] = grouped.map((g) => {
    const ptr = names.get(g.source_ip) ?? '';
    return { ip: g.source_ip, organisation: ptr ? organisationOf(ptr) : g.source_ip, messages: Number(g.messages), dkim: g.dkim, spf: g.spf, dkimResults: g.dkim_results, spfResults: g.spf_results };
  });
  // Sources: per organisation, its addresses with their reverse names, and how much of it fails.
  const organisations = new Map<string, { organisation: string; messages: number; pass: number; fail: number; dkim_aligned: number; spf_aligned: number; sources: Map<string, { ip: string; ptr: string; messages: number; fail: number }> }>();
  for (const r of results) {
    const org = organisations.get(r.organisation) ?? { organisation: r.organisation, messages: 0, pass: 0, fail: 0, dkim_aligned: 0, spf_aligned: 0, sources: new Map() };
    const failed = r.dkim === 'fail' && r.spf === 'fail';
    org.messages += r.messages;
    if (failed) org.fail += r.messages;
    else org.pass += r.messages;
    if (r.dkim === 'pass') org.dkim_aligned += r.messages;
    if (r.spf === 'pass') org.spf_aligned += r.messages;
    const source = org.sources.get(r.ip) ?? { ip: r.ip, ptr: names.get(r.ip) ?? '', messages: 0, fail: 0 };
    source.messages += r.messages;
    if (failed) source.fail += r.messages;
    org.sources.set(r.ip, source);
    organisations.set(r.organisation, org);
  }
  const sources = [...organisations.values()]
    .sort((a, b) => b.messages - a.messages)
    .slice(0, 50)
    .map((o) => ({ ...o, sources: [...o.sources.values()].sort((a, b) => b.messages - a.messages).slice(0, 10) }));
  const total = results.reduce((sum, r) => sum + r.messages, 0);
  const failing = results.filter((r) => r.dkim === 'fail' && r.spf === 'fail').reduce((sum, r) => sum + r.messages, 0);
  // Of the failing mail, what came through forwarders (usually wanted mail) rather than unknown senders.
  const forwarded = results.filter((r) => kindOf(r, domain.name) === 'forwarded').reduce((sum, r) => sum + r.messages, 0);
  const options = (['none', 'quarantine', 'reject'] as const).map((policy) => {
    const affected = policy === 'none' ? 0 : failing;
    return { policy, affected, share: share(affected, total), forwarded: policy === 'none' ? 0 : forwarded };
  });
  // Nothing chosen: none, as the DNS page proposes (start with reports only).
  const current = domain.dmarc_policy ?? 'none';
  return {
    domain_id: domain.id,
    days: [...byDay.values()],
    totals: { messages: total, pass: total - failing, fail: failing, share_failing: share(failing, total) },
    sources,
    advice: adviceFor(results, domain.name),
    policy: { chosen: domain.dmarc_policy, current, record: dmarcValue(domain.dmarc_policy, config.reportsAddress), options },
    reports: await latestReports(db, 'dmarc', domain.id, daysAgo(days)),
  };
}

export async function tlsView(db: Db, domainId: number, days: number) {
  const from = firstDay(days);
  const perDay = await reportQueries.tlsDays(db, domainId, from).execute();
  const byDay = new Map(perDay.map((r) => [r.day, r]));
  const failures = await reportQueries.tlsFailures(db, domainId, from).execute();
  const series = dayList(days).map((day) => ({ day, successful: Number(byDay.get(day)?.successful ?? 0), failed: Number(byDay.get(day)?.failed ?? 0) }));
  const successful = series.reduce((sum, d) => sum + d.successful, 0);
  const failed = series.reduce((sum, d) => sum + d.failed, 0);
  return {
    domain_id: domainId,
    days: series,
    totals: { successful, failed, share_failed: share(failed, successful + failed) },
    failures: failures.map((f) => ({ receiving_mx: f.receiving_mx, result_type: f.result_type, sessions: Number(f.sessions) })),
    reports: await latestReports(db, 'tls', domainId, daysAgo(days)),
  };
}

/** Across the installation: DMARC and TLS per day, the domains failing most, refused reports. */
export async function installationSummary(db: Db, days: number) {
  const from = firstDay(days);
  const dmarc = await reportQueries.summaryDmarc(db, from).execute();
  const tls = await reportQueries.summaryTls(db, from).execute();
  const dmarcBy = new Map(dmarc.map((r) => [r.day, r]));
  const tlsBy = new Map(tls.map((r) => [r.day, r]));
  const series = dayList(days).map((day) => {
    const d = dmarcBy.get(day);
    const t = tlsBy.get(day);
    return { day, messages: Number(d?.messages ?? 0), fail: Number(d?.fail ?? 0), tls_successful: Number(t?.successful ?? 0), tls_failed: Number(t?.failed ?? 0) };
  });
  // Per kind: the (kind, received_at) index finds the window's reports.
  const domains = (await Promise.all((['dmarc', 'tls'] as const).map((kind) => reportQueries.summaryDomains(db, kind, daysAgo(days)).execute())))
    .flat()
    .sort((a, b) => Number(b.failed) - Number(a.failed))
    .slice(0, 50);
  const refusals = await reportQueries.refusals(db, daysAgo(days)).execute();
  const refusedCount = await db.selectFrom('report_refusal').select((eb) => eb.fn.countAll<number>().as('n')).where('received_at', '>=', daysAgo(days)).executeTakeFirst();
  return {
    days: series,
    domains: domains.map((d) => ({ domain_id: Number(d.domain_id), name: d.name, name_unicode: d.name_unicode, kind: d.kind, messages: Number(d.messages), failed: Number(d.failed), reports: Number(d.reports) })),
    refused: { total: Number(refusedCount?.n ?? 0), latest: refusals.map(({ detail_params, ...r }) => ({ ...r, id: Number(r.id), params: paramsOf(detail_params) })) },
  };
}
