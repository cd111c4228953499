/**
 * The CSV file of mailboxes and aliases (and, in exports, domains): one row per record, a `type`
 * column saying which. Read with csv-parse, then checked row by row; every problem is named by
 * its line and column, and a file with any problem imports nothing.
 */
import { parse } from 'csv-parse/sync';
import { MAX_QUOTA_BYTES, MiB } from '../../resources/define.js';
import { localPartPattern } from '../../resources/mailbox.js';
import { AppError } from '../core/errors.js';
import { asciiDomain } from '../mail/names.js';
import { clearText, normaliseHash } from './hashes.js';
import type { ImportItem } from './items.js';

export const csvColumns = ['type', 'address', 'name', 'password', 'password_hash', 'quota', 'active', 'destinations'] as const;
export type CsvColumn = (typeof csvColumns)[number];
export type CsvRecord = Partial<Record<CsvColumn, string>>;

export interface CsvError {
  line: number;
  column: CsvColumn | '';
  message: string;
  params?: Record<string, unknown>;
}

/** A mailbox or alias read from a row, before it is held against the caller's domains. */
export type CsvRow =
  | { line: number; type: 'domain'; name: string }
  | { line: number; type: 'mailbox'; address: string; domain: string; name: string; password?: string; password_hash?: string; quota?: number; active: boolean }
  | { line: number; type: 'alias'; address: string; domain: string; goto: string; active: boolean };

export const MAX_CSV_ROWS = 50_000;

/**
 * An address as names.ts's mailAddress reads it, with each domain's punycode worked out once per
 * file: a file names few domains in many rows, and the conversion is most of a row's cost.
 */
function addressReader() {
  const domains = new Map<string, string | undefined>();
  return (input: string): string | undefined => {
    const text = input.trim().toLowerCase();
    const at = text.lastIndexOf('@');
    if (at < 1 || text.length > 254) return undefined;
    const local = text.slice(0, at);
    const part = text.slice(at + 1);
    if (!domains.has(part)) domains.set(part, asciiDomain(part));
    const domain = domains.get(part);
    if (!domain || local.length > 64 || !localPartPattern.test(local)) return undefined;
    return `${local}@${domain}`;
  };
}

const flags: Record<string, boolean> = { '': true, '1': true, true: true, yes: true, y: true, '0': false, false: false, no: false, n: false };
const units: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: MiB, mb: MiB, mib: MiB, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3, t: 1024 ** 4, tb: 1024 ** 4, tib: 1024 ** 4 };

/** Bytes from "1073741824", "500M" or "2 GiB"; undefined when it is none of these. */
export function parseQuota(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match ? units[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  return Math.round(Number(match[1]) * unit);
}

/** Reads the file's rows, or answers the errors that stop it from being read at all. */
export function readCsv(text: string): { rows: CsvRow[]; errors: CsvError[] } {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, { columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), info: true, skip_empty_lines: true, bom: true, trim: true });
  } catch (error) {
    const e = error as { lines?: number; code?: string };
    return { rows: [], errors: [{ line: e.lines ?? 1, column: '', message: 'validation.csv_malformed', params: { reason: e.code ?? 'CSV' } }] };
  }
  const errors: CsvError[] = [];
  if (records.length === 0) return { rows: [], errors: [{ line: 1, column: '', message: 'validation.csv_empty' }] };
  if (records.length > MAX_CSV_ROWS) return { rows: [], errors: [{ line: 1, column: '', message: 'validation.csv_too_many_rows', params: { max: MAX_CSV_ROWS, smart_count: MAX_CSV_ROWS } }] };
  const header = Object.keys(records[0].record);
  for (const name of header) if (!(csvColumns as readonly string[]).includes(name)) errors.push({ line: 1, column: '', message: 'validation.csv_unknown_column', params: { column: name } });
  for (const needed of ['type', 'address'] as const) if (!header.includes(needed)) errors.push({ line: 1, column: needed, message: 'validation.csv_missing_column', params: { column: needed } });
  if (errors.length) return { rows: [], errors };

  const rows: CsvRow[] = [];
  const seen = new Map<string, number>();
  const mailAddress = addressReader();
  for (const { record, info } of records) {
    const line = info.lines;
    // A row with an error is reported, never held against limits or what is here.
    const errorsBefore = errors.length;
    const push = (row: CsvRow) => errors.length === errorsBefore && rows.push(row);
    const r = record as CsvRecord;
    const fail = (column: CsvColumn, message: string, params?: Record<string, unknown>) => errors.push({ line, column, message, ...(params ? { params } : {}) });
    const type = (r.type ?? '').toLowerCase();
    const active = flags[(r.active ?? '').toLowerCase()];
    if (active === undefined) fail('active', 'validation.csv_flag');
    const address = (r.address ?? '').toLowerCase();
    const duplicate = (key: string) => {
      const first = seen.get(key);
      if (first) fail('address', 'validation.csv_duplicate', { line: first });
      else seen.set(key, line);
      return first !== undefined;
    };
    if (type === 'domain') {
      const name = asciiDomain(address);
      if (!name) fail('address', 'validation.invalid_domain');
      else if (!duplicate(`domain:${name}`)) push({ line, type, name });
    } else if (type === 'mailbox') {
      const parsed = mailAddress(address);
      if (!parsed) {
        fail('address', 'validation.csv_address');
        continue;
      }
      if (duplicate(parsed)) continue;
      // As the export wrote a name a spreadsheet would run as a formula (csv-export.ts).
      const name = (r.name ?? '').replace(/^'(?=[=+\-@\t\r])/, '');
      if (name.length > 128) fail('name', 'validation.too_long', { max: 128, smart_count: 128 });
      const password = r.password ?? '';
      const given = r.password_hash ?? '';
      let password_hash: string | undefined;
      if (password && given) fail('password', 'validation.csv_password_or_hash');
      else if (!password && !given) fail('password', 'validation.csv_password_or_hash');
      else if (password && (password.length < 8 || password.length > 128)) fail('password', 'validation.csv_password_length', { min: 8, max: 128, smart_count: 128 });
      else if (given) {
        password_hash = normaliseHash(given);
        if (clearText.test(given.trim())) fail('password_hash', 'validation.csv_hash_clear_text');
        else if (!password_hash) fail('password_hash', 'validation.csv_hash_scheme');
      }
      let quota: number | undefined;
      if (r.quota) {
        quota = parseQuota(r.quota);
        if (quota === undefined || quota < MiB || quota > MAX_QUOTA_BYTES) fail('quota', 'validation.csv_quota', { min: '1 MiB', max: '1 TiB' });
      }
      push({ line, type, address: parsed, domain: parsed.slice(parsed.lastIndexOf('@') + 1), name, ...(password ? { password } : { password_hash }), quota, active: active ?? true });
    } else if (type === 'alias') {
      const catchAll = address.startsWith('@');
      const domain = catchAll ? asciiDomain(address.slice(1)) : mailAddress(address)?.split('@')[1];
      const local = catchAll ? '' : address.slice(0, address.lastIndexOf('@'));
      if (!domain || (!catchAll && !localPartPattern.test(local))) {
        fail('address', 'validation.csv_address');
        continue;
      }
      const ascii = `${local}@${domain}`;
      if (duplicate(ascii)) continue;
      const targets = [...new Set((r.destinations ?? '').split(/[\s,;]+/).filter(Boolean).map((t) => t.toLowerCase()))];
      if (targets.length === 0) fail('destinations', 'validation.required');
      else if (targets.length > 100) fail('destinations', 'validation.too_many', { max: 100, smart_count: 100 });
      const bad = targets.find((t) => !mailAddress(t));
      if (bad) fail('destinations', 'validation.invalid_destination', { address: bad });
      push({ line, type, address: ascii, domain, goto: targets.map((t) => mailAddress(t) ?? t).join(','), active: active ?? true });
    } else {
      fail('type', 'validation.csv_type');
    }
  }
  return { rows, errors };
}

/** The errors as the API refuses a file with them: 40000, each keyed "line:column". */
export function csvRefusal(errors: CsvError[]): AppError {
  const fields = Object.fromEntries(errors.slice(0, 200).map((e) => [`${e.line}:${e.column}`, { message: e.message, ...(e.params ? { params: e.params } : {}) }]));
  return new AppError('validation', 'error.csv_invalid', { count: errors.length, smart_count: errors.length }, fields);
}

export type { ImportItem };
