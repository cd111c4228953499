/**
 * Reading a PostfixAdmin 3.x database (MySQL/MariaDB through mysql2, PostgreSQL through pg), in
 * one read-only transaction: its domain, mailbox, alias, alias_domain and vacation tables, only
 * the columns this import carries. The connection string's password is used for this read and
 * kept nowhere; a source that cannot be read is the caller's error (4xxxx), never a 500.
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import { AppError } from '../core/errors.js';

export interface PfaDomain { domain: string; description: string; aliases: number; mailboxes: number; maxquota: number; backupmx: boolean; transport: string; active: boolean }
export interface PfaMailbox { username: string; password: string; name: string; quota: number; local_part: string; domain: string; active: boolean }
export interface PfaAlias { address: string; goto: string; domain: string; active: boolean }
export interface PfaAliasDomain { alias_domain: string; target_domain: string; active: boolean }
export interface PfaVacation { email: string; subject: string; body: string; activefrom: string | null; activeuntil: string | null; interval_time: number; active: boolean }

export interface PostfixAdminData {
  domains: PfaDomain[];
  mailboxes: PfaMailbox[];
  aliases: PfaAlias[];
  aliasDomains: PfaAliasDomain[];
  vacations: PfaVacation[];
}

const queries = {
  domains: 'SELECT domain, description, aliases, mailboxes, maxquota, backupmx, transport, active FROM domain ORDER BY domain',
  mailboxes: 'SELECT username, password, name, quota, local_part, domain, active FROM mailbox ORDER BY username',
  aliases: 'SELECT address, goto, domain, active FROM alias ORDER BY address',
  aliasDomains: 'SELECT alias_domain, target_domain, active FROM alias_domain ORDER BY alias_domain',
  vacations: 'SELECT email, subject, body, activefrom, activeuntil, interval_time, active FROM vacation ORDER BY email',
};

/** What the operator may see of a connection string: everything but the password. */
export function describeSource(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '';
  }
}

const unreadable = (reason: string) => new AppError('validation', 'error.import_source_unreadable', { reason }, { source: { message: 'error.import_source_unreadable', params: { reason } } });

/** The driver's words, without anything of the connection string in them. */
const reasonOf = (error: unknown, url: string) => {
  const text = error instanceof Error ? error.message : String(error);
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {}
  return (password ? text.split(password).join('***') : text).slice(0, 300);
};

export function sourceKind(url: string): 'mysql' | 'postgres' | undefined {
  if (/^(mysql|mariadb):\/\//i.test(url)) return 'mysql';
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres';
  return undefined;
}

const bool = (v: unknown) => v === true || v === 1 || v === '1' || v === 't';
const num = (v: unknown) => Number(v ?? 0) || 0;
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const instant = (v: unknown): string | null => {
  if (v === null || v === undefined || v === '') return null;
  const date = v instanceof Date ? v : new Date(String(v).replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(String(v)) ? '' : 'Z'));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

function shape(raw: Record<keyof typeof queries, Record<string, unknown>[]>): PostfixAdminData {
  return {
    domains: raw.domains.map((r) => ({ domain: str(r.domain).toLowerCase(), description: str(r.description), aliases: num(r.aliases), mailboxes: num(r.mailboxes), maxquota: num(r.maxquota), backupmx: bool(r.backupmx), transport: str(r.transport), active: bool(r.active) })),
    mailboxes: raw.mailboxes.map((r) => ({ username: str(r.username).toLowerCase(), password: str(r.password), name: str(r.name), quota: num(r.quota), local_part: str(r.local_part).toLowerCase(), domain: str(r.domain).toLowerCase(), active: bool(r.active) })),
    aliases: raw.aliases.map((r) => ({ address: str(r.address).toLowerCase(), goto: str(r.goto), domain: str(r.domain).toLowerCase(), active: bool(r.active) })),
    aliasDomains: raw.aliasDomains.map((r) => ({ alias_domain: str(r.alias_domain).toLowerCase(), target_domain: str(r.target_domain).toLowerCase(), active: bool(r.active) })),
    vacations: raw.vacations.map((r) => ({ email: str(r.email).toLowerCase(), subject: str(r.subject), body: str(r.body), activefrom: instant(r.activefrom), activeuntil: instant(r.activeuntil), interval_time: num(r.interval_time), active: bool(r.active) })),
  };
}

/** Reads the whole PostfixAdmin database the URL names (mysql://, mariadb:// or postgres://). */
export async function readPostfixAdmin(url: string): Promise<PostfixAdminData> {
  const kind = sourceKind(url);
  if (!kind) throw unreadable('mysql://, mariadb:// or postgres://');
  const raw = {} as Record<keyof typeof queries, Record<string, unknown>[]>;
  try {
    if (kind === 'mysql') {
      const connection = await mysql.createConnection({ uri: url.replace(/^mariadb:/i, 'mysql:'), connectTimeout: 10_000, dateStrings: true, supportBigNumbers: true, bigNumberStrings: false });
      try {
        await connection.query('START TRANSACTION READ ONLY');
        for (const [key, text] of Object.entries(queries)) raw[key as keyof typeof queries] = (await connection.query(text))[0] as Record<string, unknown>[];
        await connection.query('COMMIT');
      } finally {
        await connection.end().catch(() => undefined);
      }
    } else {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        await client.query('BEGIN READ ONLY');
        for (const [key, text] of Object.entries(queries)) raw[key as keyof typeof queries] = (await client.query(text)).rows;
        await client.query('COMMIT');
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  } catch (error) {
    throw unreadable(reasonOf(error, url));
  }
  return shape(raw);
}
