/**
 * A report message as the mail server hands it over: each attachment unpacked (archive.ts) and
 * read as a DMARC aggregate report (XML) or a TLS report (JSON) by its content, whatever its name
 * says; stored once per (kind, organisation, report id, hosted domain). What cannot be used is
 * refused, logged and kept in report_refusal; nothing here throws past the caller.
 */
import type { Services } from '../core/services.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { ReportKind } from '../db/schema.js';
import { documentsOf } from './archive.js';
import { isDmarcDocument, parseDmarc, type DmarcReport } from './dmarc.js';
import { mimeParts } from './mime.js';
import { refusal, ReportRefused, type Refusal } from './refusal.js';
import { reverseNames } from './sources.js';
import { isTlsDocument, parseTls, type TlsReport } from './tls.js';

export interface Intake {
  stored: { kind: ReportKind; domain: string; report_id: string; id: number }[];
  duplicates: { kind: ReportKind; domain: string; report_id: string }[];
  refused: Refusal[];
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
/** Parts that are the human-readable text around a report, not the report (text/xml and named attachments are read). */
const prose = (part: { contentType: string; filename: string }) => ((part.contentType === 'text/plain' || part.contentType === 'text/html') && !part.filename) || part.contentType.startsWith('message/');

export async function refuse(services: Services, intake: Intake, refused: Refusal) {
  const { reason, detail, params } = refused;
  intake.refused.push({ reason, detail, params });
  services.logger.warn({ reason, detail, params }, 'report refused');
  await services.db.insertInto('report_refusal').values({ received_at: now(), reason, detail, detail_params: JSON.stringify(params) }).execute();
}

async function hostedDomain(db: Db, name: string) {
  return db.selectFrom('domain').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

/** The report row, or undefined when this report about this domain is already stored. */
async function insertReport(db: Db, row: { kind: ReportKind; domain_id: number; org_name: string; report_id: string; contact: string; begin: Date; end: Date; messages: number; failed: number }) {
  const inserted = await db
    .insertInto('mail_report')
    .values({ kind: row.kind, domain_id: row.domain_id, org_name: row.org_name, report_id: row.report_id, contact: row.contact, begin_at: row.begin.toISOString(), end_at: row.end.toISOString(), messages: row.messages, failed: row.failed, received_at: now() })
    .onConflict((oc) => oc.columns(['kind', 'org_name', 'report_id', 'domain_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? Number(inserted.id) : undefined;
}

async function storeDmarc(services: Services, intake: Intake, report: DmarcReport) {
  const domain = await hostedDomain(services.db, report.domain);
  if (!domain) return refuse(services, intake, refusal('unknown_domain', 'dmarc_unknown_domain', { report_id: report.reportId, organisation: report.orgName, domain: report.domain }));
  const messages = report.records.reduce((sum, r) => sum + r.messages, 0);
  const failed = report.records.filter((r) => r.dkim === 'fail' && r.spf === 'fail').reduce((sum, r) => sum + r.messages, 0);
  const day = dayOf(report.begin);
  const id = await services.db.transaction().execute(async (trx) => {
    const reportId = await insertReport(trx, { kind: 'dmarc', domain_id: Number(domain.id), org_name: report.orgName, report_id: report.reportId, contact: report.contact, begin: report.begin, end: report.end, messages, failed });
    if (reportId === undefined) return undefined;
    const rows = report.records.map((r) => ({ mail_report_id: reportId, domain_id: Number(domain.id), day, source_ip: r.sourceIp, messages: r.messages, disposition: r.disposition, dkim: r.dkim, spf: r.spf, header_from: r.headerFrom, dkim_results: r.dkimResults, spf_results: r.spfResults }));
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('dmarc_row').values(rows.slice(i, i + 500)).execute();
    return reportId;
  });
  if (id === undefined) {
    intake.duplicates.push({ kind: 'dmarc', domain: domain.name, report_id: report.reportId });
    return;
  }
  intake.stored.push({ kind: 'dmarc', domain: domain.name, report_id: report.reportId, id });
  // The senders' reverse names, while the report is fresh (bounded; the rest when first shown).
  await reverseNames(services.db, services.config, report.records.map((r) => r.sourceIp)).catch(() => undefined);
}

async function storeTls(services: Services, intake: Intake, report: TlsReport) {
  const byDomain = new Map<string, TlsReport['policies']>();
  for (const policy of report.policies) byDomain.set(policy.domain, [...(byDomain.get(policy.domain) ?? []), policy]);
  if (!byDomain.size) return refuse(services, intake, refusal('malformed', 'tls_no_policies', { report_id: report.reportId, organisation: report.orgName }));
  const day = dayOf(report.begin);
  for (const [name, policies] of byDomain) {
    const domain = await hostedDomain(services.db, name);
    if (!domain) {
      await refuse(services, intake, refusal('unknown_domain', 'tls_unknown_domain', { report_id: report.reportId, organisation: report.orgName, domain: name }));
      continue;
    }
    const domainId = Number(domain.id);
    const successful = policies.reduce((sum, p) => sum + p.successful, 0);
    const failed = policies.reduce((sum, p) => sum + p.failed, 0);
    const id = await services.db.transaction().execute(async (trx) => {
      const reportId = await insertReport(trx, { kind: 'tls', domain_id: domainId, org_name: report.orgName, report_id: report.reportId, contact: report.contact, begin: report.begin, end: report.end, messages: successful + failed, failed });
      if (reportId === undefined) return undefined;
      await trx.insertInto('tls_row').values(policies.map((p) => ({ mail_report_id: reportId, domain_id: domainId, day, policy_type: p.policyType, successful: p.successful, failed: p.failed }))).execute();
      const failures = policies.flatMap((p) => p.failures.map((f) => ({ mail_report_id: reportId, domain_id: domainId, day, receiving_mx: f.receivingMx, result_type: f.resultType, sessions: f.sessions })));
      for (let i = 0; i < failures.length; i += 500) await trx.insertInto('tls_failure').values(failures.slice(i, i + 500)).execute();
      return reportId;
    });
    if (id === undefined) intake.duplicates.push({ kind: 'tls', domain: domain.name, report_id: report.reportId });
    else intake.stored.push({ kind: 'tls', domain: domain.name, report_id: report.reportId, id });
  }
}

async function takeDocument(services: Services, intake: Intake, name: string, data: Buffer) {
  if (isDmarcDocument(data)) return storeDmarc(services, intake, parseDmarc(data));
  if (isTlsDocument(data)) return storeTls(services, intake, parseTls(data));
  throw new ReportRefused('not_a_report', 'neither_dmarc_nor_tls', { name: name || '-' });
}

/** Reads one message; each attachment stands alone (one refused does not lose the others). */
export async function takeReportMessage(services: Services, raw: Buffer): Promise<Intake> {
  const intake: Intake = { stored: [], duplicates: [], refused: [] };
  let parts;
  try {
    parts = mimeParts(raw).filter((p) => !prose(p) && p.body.length > 0);
  } catch (error) {
    await refuse(services, intake, error instanceof ReportRefused ? error : refusal('malformed', 'unreadable_message'));
    return intake;
  }
  if (!parts.length) {
    await refuse(services, intake, refusal('no_report', 'no_attachment'));
    return intake;
  }
  for (const part of parts) {
    try {
      for (const doc of await documentsOf(part.filename, part.body)) await takeDocument(services, intake, doc.name, doc.data);
    } catch (error) {
      if (error instanceof ReportRefused) await refuse(services, intake, error);
      else throw error;
    }
  }
  return intake;
}
