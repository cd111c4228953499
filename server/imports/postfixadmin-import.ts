/**
 * Moving a PostfixAdmin installation in, as the operator does it: look at the source (its domains,
 * to choose a customer for each), a dry run (what would be created, what conflicts, what is not
 * carried), then the run as a background job. The CLI and the operators' calls share these.
 */
import { z } from 'zod';
import { idSchema } from '../../resources/define.js';
import type { RequestOrigin } from '../core/audit.js';
import type { Services } from '../core/services.js';
import type { Db } from '../db/index.js';
import { checkAgainstHere, reportOf } from './against-here.js';
import { domainLines, planPostfixAdmin, type DomainChoice } from './postfixadmin-plan.js';
import { describeSource, readPostfixAdmin } from './postfixadmin-source.js';
import { startRun } from './runs.js';

export const sourceInput = z.object({ source: z.string().trim().min(1).max(2000) });
export const mappingInput = sourceInput.extend({
  mapping: z.array(z.object({ domain: z.string().trim().toLowerCase().min(1).max(253), customer_id: idSchema.nullable() })).max(10_000),
});

/** The source's domains with what each holds, for the operator to choose their customers. */
export async function inspectSource(url: string) {
  const data = await readPostfixAdmin(url);
  const count = (rows: { domain: string }[]) => rows.reduce((m, r) => m.set(r.domain, (m.get(r.domain) ?? 0) + 1), new Map<string, number>());
  const mailboxes = count(data.mailboxes);
  const aliases = count(data.aliases);
  return {
    source: describeSource(url),
    domains: data.domains
      .filter((d) => d.domain !== 'all')
      .map((d) => ({ name: d.domain, description: d.description, active: d.active, backup_mx: d.backupmx, mailboxes: mailboxes.get(d.domain) ?? 0, aliases: aliases.get(d.domain) ?? 0 })),
    totals: { domains: data.domains.length, mailboxes: data.mailboxes.length, aliases: data.aliases.length, alias_domains: data.aliasDomains.length, vacations: data.vacations.length },
  };
}

/** What importing the source with these choices would do, and the items it would make. */
export async function planImport(db: Db, url: string, mapping: DomainChoice[]) {
  const data = await readPostfixAdmin(url);
  const plan = await planPostfixAdmin(db, data, mapping);
  const checked = await checkAgainstHere(db, plan.items);
  const report = await reportOf(db, checked, plan.notCarried);
  report.domains = domainLines(plan.summary, checked.create, report);
  return { source: describeSource(url), report, items: plan.items };
}

export async function dryRunPostfixAdmin(db: Db, url: string, mapping: DomainChoice[]) {
  const { source, report } = await planImport(db, url, mapping);
  return { source, report };
}

/**
 * Starts the import: every item of the source is kept in the run (what is already here is
 * skipped again when the job makes them, so that what changed since the dry run is respected).
 */
export async function startPostfixAdminImport(ctx: RequestOrigin & { services: Services }, url: string, mapping: DomainChoice[]) {
  const { source, report, items } = await planImport(ctx.services.db, url, mapping);
  return startRun(ctx, { kind: 'postfixadmin', area: 'manage', owner_id: null, source, items, report });
}
