/**
 * A real PostfixAdmin 3.3 database to import from: its tables as PostfixAdmin's upgrade.php leaves
 * them (MariaDB, or PostgreSQL with its booleans), in a scratch database of its own per test run,
 * filled with mailboxes whose passwords are hashed the ways PostfixAdmin stores them (made once by
 * Dovecot's own `doveadm pw`, kept in tests/fixtures/dovecot-hashes.tsv: md5crypt bare as
 * PostfixAdmin's default writes it, dovecot:* schemes with their prefix, bcrypt bare, sha512.b64,
 * plain md5).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import mysql from 'mysql2/promise';
import pg from 'pg';

export type SourceKind = 'mariadb' | 'postgres';
const MARIADB = 'mysql://root@127.0.0.1:3306';
const POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

const mysqlSchema = (text: string) => text.replace(/\{BOOL\}/g, 'tinyint(1) NOT NULL DEFAULT 1').replace(/\{DATE\}/g, "datetime NOT NULL DEFAULT '2000-01-01 00:00:00'").replace(/\{TEXT\}/g, 'text');
const pgSchema = (text: string) =>
  text
    .replace(/\{BOOL\}/g, 'boolean NOT NULL DEFAULT true')
    .replace(/\{DATE\}/g, "timestamp with time zone DEFAULT '2000-01-01 00:00:00+00'")
    .replace(/\{TEXT\}/g, 'text')
    .replace(/ENGINE=InnoDB[^;]*/g, '')
    .replace(/`/g, '')
    .replace(/bigint\(20\)|int\(11\)/g, (m) => (m.startsWith('big') ? 'bigint' : 'integer'));

/** The tables an import reads, as PostfixAdmin 3.3.x creates and upgrades them. */
const schema = `
CREATE TABLE domain (domain varchar(255) NOT NULL, description varchar(255) NOT NULL DEFAULT '', aliases int(11) NOT NULL DEFAULT 0, mailboxes int(11) NOT NULL DEFAULT 0,
  maxquota bigint(20) NOT NULL DEFAULT 0, quota bigint(20) NOT NULL DEFAULT 0, transport varchar(255) NOT NULL DEFAULT '', backupmx {BOOL}, created {DATE}, modified {DATE},
  active {BOOL}, password_expiry int(11) DEFAULT 0, PRIMARY KEY (domain)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE mailbox (username varchar(255) NOT NULL, password varchar(255) NOT NULL, name varchar(255) NOT NULL DEFAULT '', maildir varchar(255) NOT NULL DEFAULT '',
  quota bigint(20) NOT NULL DEFAULT 0, local_part varchar(255) NOT NULL, domain varchar(255) NOT NULL, created {DATE}, modified {DATE}, active {BOOL},
  phone varchar(30) NOT NULL DEFAULT '', email_other varchar(255) NOT NULL DEFAULT '', token varchar(255) NOT NULL DEFAULT '', token_validity {DATE},
  password_expiry {DATE}, totp_secret varchar(255) DEFAULT NULL, smtp_active {BOOL}, PRIMARY KEY (username)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE INDEX mailbox_domain ON mailbox (domain);
CREATE TABLE alias (address varchar(255) NOT NULL, goto {TEXT} NOT NULL, domain varchar(255) NOT NULL, description varchar(255) NOT NULL DEFAULT '', created {DATE}, modified {DATE}, active {BOOL},
  PRIMARY KEY (address)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE alias_domain (alias_domain varchar(255) NOT NULL, target_domain varchar(255) NOT NULL, created {DATE}, modified {DATE}, active {BOOL},
  PRIMARY KEY (alias_domain)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE vacation (email varchar(255) NOT NULL, subject varchar(255) NOT NULL, body {TEXT} NOT NULL, activefrom {DATE}, activeuntil {DATE},
  cache {TEXT} NOT NULL, domain varchar(255) NOT NULL, interval_time int(11) NOT NULL DEFAULT 0, created {DATE}, modified {DATE}, active {BOOL},
  PRIMARY KEY (email)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE vacation_notification (on_vacation varchar(255) NOT NULL, notified varchar(255) NOT NULL, notified_at {DATE}, PRIMARY KEY (on_vacation, notified)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE admin (username varchar(255) NOT NULL, password varchar(255) NOT NULL, superadmin {BOOL}, created {DATE}, modified {DATE}, active {BOOL}, PRIMARY KEY (username)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
`;

/**
 * A password as Dovecot hashed it: the line of tests/fixtures/dovecot-hashes.tsv made by `doveadm pw`
 * for that scheme and password (so the API suite needs no Dovecot; password-schemes.test.ts checks
 * every line, and the mail-server suite has Dovecot itself verify them).
 */
export function doveadmHash(scheme: string, password: string): string {
  const line = fs
    .readFileSync(new URL('../fixtures/dovecot-hashes.tsv', import.meta.url), 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .find(([s, p, h]) => s === scheme && p === password && !h.includes('$rounds='));
  if (!line) throw new Error(`no ${scheme} hash of "${password}" in tests/fixtures/dovecot-hashes.tsv: add one made by \`doveadm pw -s ${scheme} -p '${password}'\``);
  return line[2];
}

/** Every way PostfixAdmin stores a mailbox password that this import carries, each with its own password. */
export function postfixAdminHashes() {
  const strip = (hash: string) => hash.replace(/^\{[^}]+\}/, '');
  const sha512 = strip(doveadmHash('SHA512-CRYPT', 'old-b64-pass'));
  return [
    { local: 'md5crypt', password: 'old-md5crypt-pass', stored: strip(doveadmHash('MD5-CRYPT', 'old-md5crypt-pass')), scheme: 'MD5-CRYPT' },
    { local: 'sha512', password: 'old-sha512-pass', stored: doveadmHash('SHA512-CRYPT', 'old-sha512-pass'), scheme: 'SHA512-CRYPT' },
    { local: 'sha256', password: 'old-sha256-pass', stored: strip(doveadmHash('SHA256-CRYPT', 'old-sha256-pass')), scheme: 'SHA256-CRYPT' },
    { local: 'bcrypt', password: 'old-bcrypt-pass', stored: strip(doveadmHash('BLF-CRYPT', 'old-bcrypt-pass')), scheme: 'BLF-CRYPT' },
    { local: 'ssha512', password: 'old-ssha512-pass', stored: doveadmHash('SSHA512', 'old-ssha512-pass'), scheme: 'SSHA512' },
    { local: 'argon2', password: 'old-argon2-pass', stored: doveadmHash('ARGON2ID', 'old-argon2-pass'), scheme: 'ARGON2ID' },
    { local: 'b64', password: 'old-b64-pass', stored: `{SHA512-CRYPT.B64}${Buffer.from(sha512).toString('base64')}`, scheme: 'SHA512-CRYPT' },
    { local: 'plainmd5', password: 'old-plainmd5-pass', stored: crypto.createHash('md5').update('old-plainmd5-pass').digest('hex'), scheme: 'PLAIN-MD5' },
  ];
}

export interface PfaRows {
  domains: { domain: string; backupmx?: number; active?: number; mailboxes?: number; aliases?: number; maxquota?: number }[];
  mailboxes: { username: string; password: string; name?: string; quota?: number; active?: number }[];
  aliases: { address: string; goto: string; active?: number }[];
  aliasDomains?: { alias_domain: string; target_domain: string }[];
  vacations?: { email: string; subject: string; body: string; active?: number; activeuntil?: string }[];
}

/** PostfixAdmin's tables with its `database_prefix` before each name (and index). */
const prefixed = (text: string, prefix: string) => text.replace(/(CREATE TABLE |CREATE INDEX |ON )(\w+)/g, `$1${prefix}$2`);

/**
 * A scratch PostfixAdmin database on MariaDB or PostgreSQL; `url` is what the import reads.
 * `prefix`: PostfixAdmin's `$CONF['database_prefix']`, written before every table name.
 */
export async function freshPostfixAdmin(kind: SourceKind, prefix = '') {
  const name = `pfa_${crypto.randomBytes(5).toString('hex')}`;
  const statementsWith = (tablePrefix: string) => prefixed(kind === 'mariadb' ? mysqlSchema(schema) : pgSchema(schema), tablePrefix).split(';').map((s) => s.trim()).filter(Boolean);
  const statements = statementsWith(prefix);
  let run: (text: string, values?: unknown[]) => Promise<void>;
  let close: () => Promise<void>;
  let url: string;
  if (kind === 'mariadb') {
    const admin = await mysql.createConnection({ uri: MARIADB });
    await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
    await admin.end();
    // A read-only user, as the operator would give the import.
    const connection = await mysql.createConnection({ uri: `${MARIADB}/${name}`, multipleStatements: false });
    run = async (text, values) => void (await connection.query(text, values));
    close = async () => {
      await connection.query(`DROP DATABASE IF EXISTS ${name}`);
      await connection.query(`DROP USER IF EXISTS '${name}'@'%'`);
      await connection.end();
    };
    for (const s of statements) await run(s);
    await run(`CREATE USER '${name}'@'%' IDENTIFIED BY 'pfa-read-only'`);
    await run(`GRANT SELECT ON ${name}.* TO '${name}'@'%'`);
    url = `mysql://${name}:pfa-read-only@127.0.0.1:3306/${name}`;
  } else {
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const client = new pg.Client({ connectionString: POSTGRES.replace(/\/postgres$/, `/${name}`) });
    await client.connect();
    run = async (text, values) => {
      let i = 0;
      await client.query(text.replace(/\?/g, () => `$${++i}`), values);
    };
    close = async () => {
      await client.end();
      const again = new pg.Client({ connectionString: POSTGRES });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.query(`DROP ROLE IF EXISTS ${name}`);
      await again.end();
    };
    for (const s of statements) await run(s);
    await run(`CREATE ROLE ${name} LOGIN PASSWORD 'pfa-read-only'`);
    await run(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${name}`);
    url = `postgres://${name}:pfa-read-only@127.0.0.1:5432/${name}`;
  }
  const flag = (v: number | undefined, fallback = 1) => (kind === 'postgres' ? (v ?? fallback) === 1 : (v ?? fallback));
  async function insertMany(table: string, columns: string[], rows: unknown[][]) {
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const placeholders = chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
      await run(`INSERT INTO ${prefix}${table} (${columns.join(', ')}) VALUES ${placeholders}`, chunk.flat());
    }
  }
  return {
    url,
    kind,
    /** Fills the tables as PostfixAdmin would: every mailbox also gets its own alias row. */
    async fill(rows: PfaRows) {
      await insertMany('domain', ['domain', 'description', 'aliases', 'mailboxes', 'maxquota', 'backupmx', 'active', 'transport'], rows.domains.map((d) => [d.domain, `${d.domain} domain`, d.aliases ?? 0, d.mailboxes ?? 0, d.maxquota ?? 0, flag(d.backupmx, 0), flag(d.active), 'virtual']));
      await insertMany('mailbox', ['username', 'password', 'name', 'maildir', 'quota', 'local_part', 'domain', 'active'], rows.mailboxes.map((m) => {
        const [local, domain] = m.username.split('@');
        return [m.username, m.password, m.name ?? local, `${domain}/${local}/`, m.quota ?? 0, local, domain, flag(m.active)];
      }));
      const own = rows.mailboxes.filter((m) => !rows.aliases.some((a) => a.address === m.username)).map((m) => ({ address: m.username, goto: m.username }));
      await insertMany('alias', ['address', 'goto', 'domain', 'active'], [...own, ...rows.aliases].map((a) => [a.address, a.goto, a.address.split('@')[1], flag((a as { active?: number }).active)]));
      await insertMany('alias_domain', ['alias_domain', 'target_domain', 'active'], (rows.aliasDomains ?? []).map((a) => [a.alias_domain, a.target_domain, flag(1)]));
      await insertMany('vacation', ['email', 'subject', 'body', 'cache', 'domain', 'interval_time', 'active', 'activefrom', 'activeuntil'], (rows.vacations ?? []).map((v) => [v.email, v.subject, v.body, '', v.email.split('@')[1], 86400, flag(v.active), '2000-01-01 00:00:00', v.activeuntil ?? '2038-01-18 00:00:00']));
    },
    /** A second installation's empty tables beside the first, with another prefix. */
    async addTables(otherPrefix: string) {
      for (const s of statementsWith(otherPrefix)) await run(s);
      if (kind === 'postgres') await run(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${name}`);
    },
    drop: close,
  };
}

/** One empty PostfixAdmin database on MariaDB, kept between runs (the authorization matrix reads it). */
export async function emptyPostfixAdmin(): Promise<string> {
  const name = 'pfa_matrix_empty';
  const connection = await mysql.createConnection({ uri: MARIADB });
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS ${name} CHARACTER SET utf8mb4`);
    await connection.query(`USE ${name}`);
    for (const s of mysqlSchema(schema).split(';').map((x) => x.trim()).filter(Boolean)) {
      await connection.query(s.replace(/^CREATE TABLE /, 'CREATE TABLE IF NOT EXISTS ').replace(/^CREATE INDEX mailbox_domain ON/, 'CREATE INDEX IF NOT EXISTS mailbox_domain ON'));
    }
  } finally {
    await connection.end();
  }
  return `${MARIADB}/${name}`;
}
