/**
 * The CSV files the import reads: the template (the header and an example of each kind of row),
 * and the export of the caller's domains, mailboxes and aliases in the same columns, so that an
 * export imports again. Operators' exports carry the password hashes; customers' never do. No byte
 * order mark: the API refuses invisible characters in any text, but for the mark a spreadsheet
 * puts at the start of a file it saves, which the import calls take off (import-calls.ts).
 */
import { stringify } from 'csv-stringify/sync';
import { FileAnswer, type CallContext } from '../core/calls.js';
import { csvColumns, type CsvRecord } from './csv-rows.js';

/**
 * A mailbox name (the one free text of a row) that a spreadsheet would run as a formula (=, +, -,
 * @, tab or carriage return first: `=HYPERLINK(…)`) goes out behind an apostrophe, which
 * spreadsheets show as text; the import takes the apostrophe off again (csv-rows.ts), so an export
 * still imports as it was. Addresses are checked mail syntax (a catch-all's `@example.org` stays).
 */
const asSpreadsheetText = (value: string, context: { column?: string | number }) => (context.column === 'name' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const file = (name: string, rows: CsvRecord[]) =>
  new FileAnswer(Buffer.from(stringify(rows, { header: true, columns: [...csvColumns], cast: { string: asSpreadsheetText } })), {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${name}"`,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });

export function csvTemplate() {
  return file('maildesk-import-template.csv', [
    { type: 'mailbox', address: 'anna@example.org', name: 'Anna', password: 'a-new-password-1', quota: '1G', active: '1' },
    { type: 'mailbox', address: 'ben@example.org', name: 'Ben', password_hash: '{SHA512-CRYPT}$6$salt$…', quota: '500M', active: '1' },
    { type: 'alias', address: 'sales@example.org', active: '1', destinations: 'anna@example.org ben@example.org' },
    { type: 'alias', address: '@example.org', active: '1', destinations: 'anna@example.org' },
  ]);
}

/** The caller's domains (a team member's: theirs; an operator's: all, or one customer's) and what they hold. */
export async function csvExport(ctx: CallContext, customerId?: number) {
  const { db } = ctx.services;
  const actor = ctx.actor;
  let domains = db.selectFrom('domain').select(['id', 'name']).orderBy('name');
  if (actor.kind === 'customer') {
    domains = domains.where('owner_id', '=', actor.customerId);
    if (!actor.isOwner) domains = domains.where('id', 'in', actor.domainIds?.length ? actor.domainIds : [0]);
  } else if (customerId) domains = domains.where('owner_id', '=', customerId);
  const list = await domains.execute();
  const ids = list.map((d) => Number(d.id));
  const withHashes = actor.kind === 'operator';
  const rows: CsvRecord[] = list.map((d) => ({ type: 'domain', address: d.name }));
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const [mailboxes, aliases] = await Promise.all([
      db.selectFrom('mailbox').select(['address', 'name', 'password_hash', 'quota', 'active']).where('domain_id', 'in', chunk).orderBy('address').execute(),
      db.selectFrom('alias').select(['address', 'goto', 'active']).where('domain_id', 'in', chunk).orderBy('address').execute(),
    ]);
    for (const m of mailboxes) rows.push({ type: 'mailbox', address: m.address, name: m.name, password_hash: withHashes ? m.password_hash : '', quota: String(m.quota), active: String(m.active) });
    for (const a of aliases) rows.push({ type: 'alias', address: a.address, active: String(a.active), destinations: a.goto.split(',').join(' ') });
  }
  return file(`maildesk-export-${new Date().toISOString().slice(0, 10)}.csv`, rows);
}
