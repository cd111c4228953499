/**
 * The import calls: operators move a PostfixAdmin installation in (look at the source, dry run,
 * start); customers (their domains) and operators (any customer's) import and export CSV files;
 * both follow their runs' progress; operators see the weak hashes that remain.
 */
import { z } from 'zod';
import { idSchema, staff, supportStaff } from '../../resources/define.js';
import { defineCall, type CallSpec } from '../core/calls.js';
import { csvExport, csvTemplate } from './csv-export.js';
import { dryRunCsv, startCsvImport } from './csv-import.js';
import { dryRunPostfixAdmin, inspectSource, mappingInput, sourceInput, startPostfixAdminImport } from './postfixadmin-import.js';
import { findRun, listRuns } from './runs.js';
import { weakHashes } from './weak-hashes.js';

// A CSV file of 10,000 mailboxes with their hashes is about 1.5 MB.
const CSV_BODY_LIMIT = 32 * 1024 * 1024;
// Strict: a body that is more than the file (a client's mistake) is refused, not ignored.
const csvInput = z.strictObject({ csv: z.string().min(1).max(CSV_BODY_LIMIT) });
const idInput = z.object({ id: idSchema });
/**
 * A file saved as "CSV UTF-8" (Excel, LibreOffice) begins with a byte-order mark: a mark of the
 * file, not text in it, taken off before the text is checked (elsewhere the character is refused).
 */
const withoutByteOrderMark = (body: unknown) => {
  const csv = (body as { csv?: unknown } | null)?.csv;
  return typeof csv === 'string' && csv.startsWith('\uFEFF') ? { ...(body as object), csv: csv.slice(1) } : body;
};

const summaries = {
  inspect: 'Reads a PostfixAdmin 3.x database (source: mysql://, mariadb:// or postgres:// connection string of a read-only user) and answers its domains with how many mailboxes and aliases each holds, to choose a customer for each. The source and its password are kept nowhere.',
  dryRun:
    'What importing the PostfixAdmin database with `mapping` (each domain → customer_id, or null to leave it) would do, changing nothing: report.create (domains, alias_domain, mailbox, alias, rules), report.conflicts (already_here, other_customer, alias_here, mailbox_here, held, domain_of_other_customer, domain_skipped), report.not_carried, report.capacity (customers whose quotas would exceed their storage), report.schemes (weak hashes brought, by scheme), report.domains.',
  start: 'Starts the PostfixAdmin import as a background job (imports.run) and answers the run: state, total, done, report. Hashes are kept with their Dovecot {SCHEME}; what is already here is skipped, so a second run creates nothing.',
  csvTemplate: 'The CSV template (a file, not an envelope): columns type (mailbox, alias; domain rows of an export are read as headings), address, name, password or password_hash (any Dovecot scheme), quota (bytes, or 500M, 2G), active (1/0), destinations (aliases; space or comma separated).',
  csvDryRun: 'Checks a CSV file (csv: its text) row by row, changing nothing: errors [{line, column, message, params}] and, when there are none, the report (what would be created, what is already here).',
  csvStart: 'Imports a CSV file as a background job, or refuses it whole: 40000 error.csv_invalid with errors keyed "line:column". Answers the run.',
  csvExport: (area: string) => `The domains, mailboxes and aliases ${area === 'admin' ? 'of the caller\'s domains (never password hashes)' : 'of every customer, or of customer_id (with password hashes)'} as a CSV file in the template's columns, which imports again.`,
  list: 'The last 50 import runs, newest first (state queued, running, done, failed; total, done, created per kind).',
  get: 'One import run by ?id=: its progress (done of total), report and what it created.',
  weak: 'Mailbox passwords still kept in a weaker scheme than argon2id, by scheme (each becomes argon2id at its owner\'s next sign-in to /mail or password change).',
};

function csvCalls(area: 'admin' | 'manage'): CallSpec<any, any>[] {
  const auth = area === 'admin' ? ('customer' as const) : ('operator' as const);
  const tag = `${area}/imports`;
  const read = area === 'manage' ? { roles: staff } : {};
  const write = area === 'manage' ? { roles: supportStaff } : {};
  const ownerOf = (actor: { kind: string; customerId?: number }) => (actor.kind === 'customer' ? actor.customerId! : null);
  return [
    defineCall({ method: 'GET', path: `/api/${area}/imports/csv_template`, auth, tag, ...read, summary: summaries.csvTemplate, input: z.object({}), handler: async () => csvTemplate() }),
    defineCall({ method: 'POST', path: `/api/${area}/imports/csv_dry_run`, auth, tag, ...write, reads: true, bodyLimit: CSV_BODY_LIMIT, asSent: withoutByteOrderMark, summary: summaries.csvDryRun, input: csvInput, handler: ({ csv }, ctx) => dryRunCsv(ctx, area, csv) }),
    defineCall({ method: 'POST', path: `/api/${area}/imports/csv_start`, auth, tag, ...write, bodyLimit: CSV_BODY_LIMIT, asSent: withoutByteOrderMark, summary: summaries.csvStart, input: csvInput, handler: ({ csv }, ctx) => startCsvImport(ctx, area, csv) }),
    defineCall({
      method: 'GET',
      path: `/api/${area}/imports/csv_export`,
      auth,
      tag,
      ...(area === 'manage' ? { roles: supportStaff } : {}),
      summary: summaries.csvExport(area),
      input: area === 'manage' ? z.object({ customer_id: idSchema.optional() }) : z.object({}),
      handler: (input: { customer_id?: number }, ctx) => csvExport(ctx, input.customer_id),
    }),
    defineCall({ method: 'GET', path: `/api/${area}/imports/list`, auth, tag, ...read, summary: summaries.list, input: z.object({}), handler: (_input, ctx) => listRuns(ctx, ownerOf(ctx.actor as never)) }),
    defineCall({ method: 'GET', path: `/api/${area}/imports/get`, auth, tag, ...read, summary: summaries.get, input: idInput, handler: ({ id }, ctx) => findRun(ctx, id, ownerOf(ctx.actor as never)) }),
  ];
}

// Reading another installation's database is for the superadmin (no role but superadmin listed).
const superadminOnly = { roles: [] as const };

export const importCalls: CallSpec<any, any>[] = [
  defineCall({ method: 'POST', path: '/api/manage/imports/postfixadmin/inspect', auth: 'operator', tag: 'manage/imports', ...superadminOnly, reads: true, summary: summaries.inspect, input: sourceInput, handler: ({ source }) => inspectSource(source) }),
  defineCall({ method: 'POST', path: '/api/manage/imports/postfixadmin/dry_run', auth: 'operator', tag: 'manage/imports', ...superadminOnly, reads: true, summary: summaries.dryRun, input: mappingInput, handler: ({ source, mapping }, ctx) => dryRunPostfixAdmin(ctx.services.db, source, mapping) }),
  defineCall({ method: 'POST', path: '/api/manage/imports/postfixadmin/start', auth: 'operator', tag: 'manage/imports', ...superadminOnly, summary: summaries.start, input: mappingInput, handler: ({ source, mapping }, ctx) => startPostfixAdminImport(ctx, source, mapping) }),
  defineCall({ method: 'GET', path: '/api/manage/imports/weak_hashes', auth: 'operator', tag: 'manage/imports', roles: staff, summary: summaries.weak, input: z.object({}), handler: (_input, ctx) => weakHashes(ctx.services.db, ctx.services.dialect) }),
  ...csvCalls('admin'),
  ...csvCalls('manage'),
];
