/**
 * Reading a PostfixAdmin 3.x database (MySQL/MariaDB through mysql2, PostgreSQL through pg), in
 * one read-only transaction: its domain, mailbox, alias, alias_domain and vacation tables (with
 * the installation's table prefix, found among the database's tables), only the columns this
 * import carries. The connection string's password is used for this read and
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

/** PostfixAdmin's tables (a prefix, `$CONF['database_prefix']`, goes before each name). */
const tables = ['domain', 'mailbox', 'alias', 'alias_domain', 'vacation'] as const;

/** What is read of them, in order, from the tables with this prefix (quoted as the database quotes names). */
const queriesFor = (prefix: string, quote: '`' | '"') => {
  // The prefix holds only letters, digits and _ (tablePrefix): quoting keeps its case.
  const t = (name: (typeof tables)[number]) => `${quote}${prefix}${name}${quote}`;
  return {
    domains: `SELECT domain, description, aliases, mailboxes, maxquota, backupmx, transport, active FROM ${t('domain')} ORDER BY domain`,
    mailboxes: `SELECT username, password, name, quota, local_part, domain, active FROM ${t('mailbox')} ORDER BY username`,
    aliases: `SELECT address, goto, domain, active FROM ${t('alias')} ORDER BY address`,
    aliasDomains: `SELECT alias_domain, target_domain, active FROM ${t('alias_domain')} ORDER BY alias_domain`,
    vacations: `SELECT email, subject, body, activefrom, activeuntil, interval_time, active FROM ${t('vacation')} ORDER BY email`,
  };
};
type Queries = ReturnType<typeof queriesFor>;

/**
 * The prefix of the PostfixAdmin tables among the database's tables: the one asked for
 * (`?table_prefix=` on the connection string), else the only one there is. Several
 * installations in one database, or none, are the operator's to resolve, in words.
 */
export function tablePrefix(names: string[], asked: string | undefined): string {
  const present = new Set(names);
  const prefixes = [...present]
    .filter((n) => n.endsWith('alias_domain'))
    .map((n) => n.slice(0, -'alias_domain'.length))
    .filter((prefix) => /^\w*$/.test(prefix) && tables.every((table) => present.has(`${prefix}${table}`)))
    .sort();
  if (asked !== undefined) {
    if (prefixes.includes(asked)) return asked;
    throw sourceError('error.import_source_prefix_missing', { prefix: asked });
  }
  if (prefixes.length === 1) return prefixes[0];
  if (prefixes.length === 0) throw sourceError('error.import_source_no_tables', {});
  throw sourceError('error.import_source_prefixes', { prefixes: prefixes.map((p) => p || '""').join(', ') });
}

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

const sourceError = (message: string, params: Record<string, unknown>) => new AppError('validation', message, params, { source: { message, params } });
const unreadable = (reason: string) => sourceError('error.import_source_unreadable', { reason });

/** The connection string without `table_prefix`, which is ours, not the driver's. */
function splitSource(url: string): { connect: string; prefix?: string } {
  try {
    const parsed = new URL(url);
    const prefix = parsed.searchParams.get('table_prefix') ?? undefined;
    if (prefix !== undefined && !/^\w{0,64}$/.test(prefix)) throw sourceError('error.import_source_prefix_missing', { prefix });
    parsed.searchParams.delete('table_prefix');
    return { connect: parsed.toString(), prefix };
  } catch (error) {
    if (error instanceof AppError) throw error;
    return { connect: url };
  }
}

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

function shape(raw: Record<keyof Queries, Record<string, unknown>[]>): PostfixAdminData {
  return {
    domains: raw.domains.map((r) => ({ domain: str(r.domain).toLowerCase(), description: str(r.description), aliases: num(r.aliases), mailboxes: num(r.mailboxes), maxquota: num(r.maxquota), backupmx: bool(r.backupmx), transport: str(r.transport), active: bool(r.active) })),
    mailboxes: raw.mailboxes.map((r) => ({ username: str(r.username).toLowerCase(), password: str(r.password), name: str(r.name), quota: num(r.quota), local_part: str(r.local_part).toLowerCase(), domain: str(r.domain).toLowerCase(), active: bool(r.active) })),
    aliases: raw.aliases.map((r) => ({ address: str(r.address).toLowerCase(), goto: str(r.goto), domain: str(r.domain).toLowerCase(), active: bool(r.active) })),
    aliasDomains: raw.aliasDomains.map((r) => ({ alias_domain: str(r.alias_domain).toLowerCase(), target_domain: str(r.target_domain).toLowerCase(), active: bool(r.active) })),
    vacations: raw.vacations.map((r) => ({ email: str(r.email).toLowerCase(), subject: str(r.subject), body: str(r.body), activefrom: instant(r.activefrom), activeuntil: instant(r.activeuntil), interval_time: num(r.interval_time), active: bool(r.active) })),
  };
}

/** Reads the whole PostfixAdmin database the URL names (mysql://, mariadb:// or postgres://; `?table_prefix=` to choose among several). */
export async function readPostfixAdmin(url: string): Promise<PostfixAdminData> {
  const kind = sourceKind(url);
  if (!kind) throw unreadable('mysql://, mariadb:// or postgres://');
  const { connect, prefix } = splitSource(url);
  const raw = {} as Record<keyof Queries, Record<string, unknown>[]>;
  try {
    if (kind === 'mysql') {
      const connection = await mysql.createConnection({ uri: connect.replace(/^mariadb:/i, 'mysql:'), connectTimeout: 10_000, dateStrings: true, supportBigNumbers: true, bigNumberStrings: false });
      try {
        await connection.query('START TRANSACTION READ ONLY');
        const [names] = await connection.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()');
        const queries = queriesFor(tablePrefix((names as { name: string }[]).map((r) => r.name), prefix), '`');
        for (const [key, text] of Object.entries(queries)) raw[key as keyof Queries] = (await connection.query(text))[0] as Record<string, unknown>[];
        await connection.query('COMMIT');
      } finally {
        await connection.end().catch(() => undefined);
      }
    } else {
      const client = new pg.Client({ connectionString: connect, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        await client.query('BEGIN READ ONLY');
        const names = await client.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()');
        const queries = queriesFor(tablePrefix(names.rows.map((r) => r.name), prefix), '"');
        for (const [key, text] of Object.entries(queries)) raw[key as keyof Queries] = (await client.query(text)).rows;
        await client.query('COMMIT');
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable(reasonOf(error, url));
  }
  return shape(raw);
}
