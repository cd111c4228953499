/**
 * A CSV file of mailboxes and aliases, imported by a customer (into their domains; a team member:
 * the domains they manage) or an operator (any customer's domains): the rows are checked against
 * the domains the caller may use, the customer's limits and capacity (operators see a shortfall
 * as a warning), then against what is here. A dry run answers the errors by line and column and
 * the report; the import refuses a file with any error and otherwise runs as a job.
 */
import { formatBytes } from '../../resources/bytes.js';
import type { CallContext } from '../core/calls.js';
import { allocationFrom, allocationReads } from '../storage/capacity.js';
import { checkAgainstHere, reportOf } from './against-here.js';
import { readCsv, csvRefusal, type CsvError } from './csv-rows.js';
import type { ImportItem } from './items.js';
import { startRun } from './runs.js';
import { oneOf } from '../db/one-of.js';

type Area = 'admin' | 'manage';

async function domainsOf(ctx: CallContext, names: string[]) {
  if (names.length === 0) return new Map();
  const rows = await ctx.services.db
    .selectFrom('domain')
    .select(['id', 'name', 'owner_id', 'status', 'max_mailboxes', 'max_aliases', 'max_quota'])
    .where('name', 'in', oneOf(ctx.services.db, [...new Set(names)]))
    .execute();
  const actor = ctx.actor;
  const visible = rows.filter((d) => actor.kind === 'operator' || (actor.kind === 'customer' && Number(d.owner_id) === actor.customerId && (actor.isOwner || (actor.domainIds ?? []).includes(Number(d.id)))));
  return new Map(visible.map((d) => [d.name, { ...d, id: Number(d.id), owner_id: Number(d.owner_id) }]));
}

/** The file checked: errors by line and column, and (when there are none) the items and the report. */
export async function checkCsv(ctx: CallContext, area: Area, text: string) {
  const { rows, errors } = readCsv(text);
  const fail = (line: number, column: CsvError['column'], message: string, params?: Record<string, unknown>) => errors.push({ line, column, message, ...(params ? { params } : {}) });
  const domains = await domainsOf(ctx, rows.map((r) => (r.type === 'domain' ? r.name : r.domain)));
  const db = ctx.services.db;
  const owners = [...new Set([...domains.values()].map((d) => d.owner_id))];
  const allocations = new Map<number, ReturnType<typeof allocationFrom>>();
  for (const owner of owners) allocations.set(owner, allocationFrom(await db.selectNoFrom(allocationReads(db, owner)).executeTakeFirst()));

  const items: ImportItem[] = [];
  const lines = new Map<ImportItem, number>();
  for (const row of rows) {
    const domain = domains.get(row.type === 'domain' ? row.name : row.domain);
    if (!domain) {
      fail(row.line, 'address', 'validation.csv_domain_unknown', { domain: row.type === 'domain' ? row.name : row.domain });
      continue;
    }
    if (area === 'admin' && domain.status === 'suspended') {
      fail(row.line, 'address', 'validation.csv_domain_suspended', { domain: domain.name });
      continue;
    }
    // A domain row (as an export writes it) says which domain follows: nothing to make.
    if (row.type === 'domain') continue;
    let item: ImportItem;
    const errorsBefore = errors.length;
    if (row.type === 'mailbox') {
      const allocation = allocations.get(domain.owner_id)!;
      const quota = row.quota ?? allocation.storage_max;
      if (area === 'admin' && quota > allocation.storage_max) fail(row.line, 'quota', 'validation.quota_above_storage_max', { max: allocation.storage_max, max_text: formatBytes(allocation.storage_max) });
      else if (area === 'admin' && domain.max_quota > 0 && quota > domain.max_quota) fail(row.line, 'quota', 'validation.quota_above_domain_max', { max: domain.max_quota, max_text: formatBytes(domain.max_quota) });
      item = { kind: 'mailbox', address: row.address, owner_id: domain.owner_id, name: row.name, password_hash: row.password_hash ?? '', ...(row.password ? { password: row.password } : {}), quota, active: row.active };
    } else {
      item = { kind: 'alias', address: row.address, owner_id: domain.owner_id, goto: row.goto, active: row.active };
    }
    if (errors.length > errorsBefore) continue;
    items.push(item);
    lines.set(item, row.line);
  }
  const checked = await checkAgainstHere(db, items, (item) => lines.get(item));
  const report = await reportOf(db, checked, []);
  if (area === 'admin') await customerLimits(ctx, checked.create, lines, domains, allocations, fail);
  errors.sort((a, b) => a.line - b.line);
  return { errors, report, items: checked.create };
}

/** A customer's import stays within the domains' limits and the storage left, as each new record would. */
async function customerLimits(
  ctx: CallContext,
  create: ImportItem[],
  lines: Map<ImportItem, number>,
  domains: Map<string, { id: number; name: string; max_mailboxes: number; max_aliases: number }>,
  allocations: Map<number, ReturnType<typeof allocationFrom>>,
  fail: (line: number, column: CsvError['column'], message: string, params?: Record<string, unknown>) => void,
) {
  const counted = new Map<string, number>();
  const used = new Map<number, number>();
  for (const item of create) {
    if (item.kind !== 'mailbox' && item.kind !== 'alias') continue;
    const line = lines.get(item) ?? 0;
    const domain = domains.get(item.address.split('@')[1])!;
    const limit = item.kind === 'mailbox' ? domain.max_mailboxes : domain.max_aliases;
    if (limit > 0) {
      const key = `${item.kind}:${domain.name}`;
      if (!counted.has(key)) {
        const { n } = await ctx.services.db.selectFrom(item.kind).select((eb) => eb.fn.countAll<number>().as('n')).where('domain_id', '=', domain.id).executeTakeFirstOrThrow();
        counted.set(key, Number(n));
      }
      const next = counted.get(key)! + 1;
      counted.set(key, next);
      if (next === limit + 1) fail(line, 'address', item.kind === 'mailbox' ? 'error.mailbox_limit' : 'error.alias_limit', { limit, smart_count: limit, domain: domain.name });
    }
    if (item.kind === 'mailbox') {
      const allocation = allocations.get(item.owner_id)!;
      const before = used.get(item.owner_id) ?? 0;
      const after = before + item.quota;
      used.set(item.owner_id, after);
      if (before <= allocation.available && after > allocation.available) {
        fail(line, 'quota', 'validation.csv_capacity', { available_text: formatBytes(allocation.available) });
      }
    }
  }
}

export async function dryRunCsv(ctx: CallContext, area: Area, text: string) {
  const { errors, report } = await checkCsv(ctx, area, text);
  return { errors, report: errors.length ? null : report };
}

/** Imports the file as a job, or refuses it whole (40000, errors keyed "line:column"). */
export async function startCsvImport(ctx: CallContext, area: Area, text: string) {
  const { errors, report, items } = await checkCsv(ctx, area, text);
  if (errors.length) throw csvRefusal(errors);
  return startRun(ctx, { kind: 'csv', area, owner_id: ctx.actor.kind === 'customer' ? ctx.actor.customerId : null, source: 'csv', items, report });
}
