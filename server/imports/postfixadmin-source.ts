/**
 * Reading a PostfixAdmin 3.x database (MySQL/MariaDB through mysql2, PostgreSQL through pg), in
 * one read-only transaction: its domain, mailbox, alias, alias_domain and vacation tables (with
 * the installation's table prefix, found among the database's tables), only the columns this
 * import carries. The connection string's password is used for this read and
 * kept nowhere; a source that cannot be read is the caller's error (4xxxx), never a 500.
 *
 * Only what an import needs is taken from the connection string: scheme, user, password, host,
 * port, database, and `sslmode` and our `table_prefix`. Anything else the drivers would honour
 * (`?socketPath=` and `?host=` reach unix sockets, `?sslrootcert=` reads a file of the panel's
 * machine, …) is refused, and the drivers get settings, never the string. What goes wrong is told
 * in a few words of ours (wrong password, cannot connect, no such database), not the driver's.
 */
import net from 'node:net';
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

/** TLS to the old database: none (the drivers' default), encrypted, or encrypted to a certificate the system trusts for the host. */
const sslModes = ['disable', 'require', 'verify-full'] as const;

/** What an import connects with: nothing else of the connection string reaches a driver. */
export interface SourceSettings {
  kind: 'mysql' | 'postgres';
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  sslmode: (typeof sslModes)[number];
  prefix?: string;
}

/** A host name or an IP address: not a socket's path, not empty. */
const hostPattern = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*)$/i;

/** The connection string's parts an import needs, or a translated refusal naming what is wrong. */
export function parseSource(url: string): SourceSettings {
  const kind = sourceKind(url);
  if (!kind) throw unreadable('mysql://, mariadb:// or postgres://');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw sourceError('error.import_source_invalid', {});
  }
  const host = parsed.hostname;
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!host || !hostPattern.test(host)) throw sourceError('error.import_source_invalid', {});
  if (!database || database.includes('/')) throw sourceError('error.import_source_invalid', {});
  if (parsed.hash) throw sourceError('error.import_source_option', { option: '#' });
  for (const name of new Set(parsed.searchParams.keys())) {
    if (name !== 'table_prefix' && name !== 'sslmode') throw sourceError('error.import_source_option', { option: name.slice(0, 40) });
    if (parsed.searchParams.getAll(name).length > 1) throw sourceError('error.import_source_option', { option: name });
  }
  const prefix = parsed.searchParams.get('table_prefix') ?? undefined;
  if (prefix !== undefined && !/^\w{0,64}$/.test(prefix)) throw sourceError('error.import_source_prefix_missing', { prefix });
  const sslmode = parsed.searchParams.get('sslmode') ?? 'disable';
  if (!(sslModes as readonly string[]).includes(sslmode)) throw sourceError('error.import_source_option', { option: `sslmode=${sslmode.slice(0, 20)}` });
  return {
    kind,
    host: host.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : kind === 'mysql' ? 3306 : 5432,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
    sslmode: sslmode as SourceSettings['sslmode'],
    prefix,
  };
}

const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'PROTOCOL_CONNECTION_LOST', 'HANDSHAKE_SSL_ERROR', 'HANDSHAKE_NO_SSL_SUPPORT']);

/**
 * A driver's failure in our words: a refused login (PostgreSQL 28P01/28000, MySQL 1045/1044), a
 * database that is not there (3D000, 1049), a server not reached; anything else by its code
 * alone (SQLSTATE or MySQL's name), never the driver's text, which may quote the server or the
 * panel's files.
 */
function failureOf(error: unknown): AppError {
  const e = error as { code?: string | number; errno?: number; message?: string };
  const code = String(e?.code ?? '');
  if (code === '28P01' || code === '28000' || code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR') return sourceError('error.import_source_login_refused', {});
  if (code === '3D000' || code === 'ER_BAD_DB_ERROR') return sourceError('error.import_source_no_database', {});
  if (unreachableCodes.has(code) || /timeout|timed out|terminated unexpectedly|ssl|tls|certificate/i.test(e?.message ?? '') || /^ERR_(SSL|TLS)/.test(code) || /CERT|SELF_SIGNED/.test(code)) {
    return sourceError('error.import_source_unreachable', {});
  }
  return unreadable(/^[\w.-]{1,40}$/.test(code) ? code : 'error');
}

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

/** Reads the whole PostfixAdmin database the URL names (mysql://, mariadb:// or postgres://; `?table_prefix=` to choose among several, `?sslmode=` disable, require or verify-full). */
export async function readPostfixAdmin(url: string): Promise<PostfixAdminData> {
  const source = parseSource(url);
  const { prefix } = source;
  const tls = source.sslmode === 'disable' ? undefined : { rejectUnauthorized: source.sslmode === 'verify-full', ...(net.isIP(source.host) ? {} : { servername: source.host }) };
  const raw = {} as Record<keyof Queries, Record<string, unknown>[]>;
  try {
    if (source.kind === 'mysql') {
      const connection = await mysql.createConnection({
        host: source.host,
        port: source.port,
        user: source.user,
        password: source.password,
        database: source.database,
        ssl: tls,
        // A server that asks for a file of ours (LOAD DATA LOCAL) is not answered.
        flags: ['-LOCAL_FILES'],
        connectTimeout: 10_000,
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: false,
      });
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
      const client = new pg.Client({ host: source.host, port: source.port, user: source.user, password: source.password, database: source.database, ssl: tls ?? false, connectionTimeoutMillis: 10_000 });
      // A connection the server drops later reports here; without a listener it would end the process.
      client.on('error', () => undefined);
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
    throw failureOf(error);
  }
  return shape(raw);
}
