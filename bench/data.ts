/**
 * The bench's data: customers, domains, mailboxes (half with Dovecot usage), aliases, storage
 * blocks and audit-log rows, at a size named by its number of mailboxes (1,000,000 →
 * 10,000 customers, 55,000 domains, 1,000,000 mailboxes, 1,005,000 aliases, 1,000,000 log
 * rows; smaller sizes scale every table alike). Generated once with bulk INSERT … SELECT
 * into a cache keyed by size and schema (bench/.cache for SQLite, a template database for
 * PostgreSQL); every run works on a fresh copy of it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../server/config.js';
import { hashPassword } from '../server/core/passwords.js';
import { openDatabase, type Dialect } from '../server/db/index.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { ensureDefaultTemplates } from '../server/outbox/mailer.js';
import { ensureFirstOperator } from '../server/accounts/first-operator.js';

export const BENCH_PASSWORD = 'bench-password';
export const OPERATOR = { username: 'bench', password: BENCH_PASSWORD };

export interface Size {
  mailboxes: number;
  customers: number;
  domains: number;
  aliases: number;
  logRows: number;
}

export function sizeOf(mailboxes: number): Size {
  return {
    mailboxes,
    customers: Math.max(10, Math.round(mailboxes / 100)),
    domains: Math.max(20, Math.round(mailboxes * 0.055)),
    aliases: Math.round(mailboxes * 1.005),
    logRows: mailboxes,
  };
}

/** The customer the bench signs in as (an ordinary one: 1/customers of every table). */
export const benchCustomer = (size: Size) => Math.min(4243, size.customers - 1);
export const customerEmail = (n: number) => `customer${n}@bench.example`;

// The schema the cache was made with: the migrations' source (a new migration makes a new cache).
function schemaKey(): string {
  const dir = path.resolve('server/db/migrations');
  const hash = crypto.createHash('sha256');
  for (const file of [path.resolve('server/db/migrate.ts'), ...fs.readdirSync(dir).sort().map((f) => path.join(dir, f))]) hash.update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 10);
}

const cacheDir = path.resolve('bench/.cache');

export interface BenchDatabase {
  /** DATA_DIR holding maildesk.sqlite (SQLite), or the copy's URL (PostgreSQL). */
  dataDir: string;
  databaseUrl?: string;
  sqlitePath?: string;
  drop(): Promise<void>;
}

/** A fresh copy of the cached data set (generated first when missing). */
export async function benchDatabase(dialect: Dialect, size: Size, serverUrl?: string): Promise<BenchDatabase> {
  const key = `${size.mailboxes}-${schemaKey()}`;
  fs.mkdirSync(cacheDir, { recursive: true }); // a fresh clone has no cache yet
  const runDir = fs.mkdtempSync(path.join(cacheDir, 'run-'));
  if (dialect === 'sqlite') {
    const cached = path.join(cacheDir, `sqlite-${key}.sqlite`);
    if (!fs.existsSync(cached)) await generate('sqlite', size, { file: cached });
    fs.copyFileSync(cached, path.join(runDir, 'maildesk.sqlite'));
    return { dataDir: runDir, sqlitePath: path.join(runDir, 'maildesk.sqlite'), drop: async () => fs.rmSync(runDir, { recursive: true, force: true }) };
  }
  const template = `maildesk_bench_${key.replace(/-/g, '_')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [template])).rowCount;
  if (!exists) {
    await admin.query(`CREATE DATABASE ${template}_partial`);
    await generate('postgres', size, { url: urlOf(serverUrl!, `${template}_partial`) });
    await admin.query(`ALTER DATABASE ${template}_partial RENAME TO ${template}`);
  }
  const copy = `maildesk_bench_run_${crypto.randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${copy} TEMPLATE ${template}`);
  await admin.end();
  return {
    dataDir: runDir,
    databaseUrl: urlOf(serverUrl!, copy),
    async drop() {
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
      await again.end();
      fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
}

const urlOf = (serverUrl: string, database: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

async function generate(dialect: Dialect, size: Size, where: { file?: string; url?: string }) {
  const started = Date.now();
  console.log(`Generating the ${size.mailboxes.toLocaleString('en')}-mailbox data set on ${dialect} (cached afterwards)…`);
  const partial = where.file ? `${where.file}.partial` : undefined;
  const dataDir = partial ? fs.mkdtempSync(path.join(cacheDir, 'gen-')) : cacheDir;
  const database = openDatabase({ dataDir, databaseUrl: where.url });
  const { db } = database;
  await migrateToLatest(database);
  await ensureDefaultTemplates(db);
  await ensureFirstOperator(db, { adminUsername: OPERATOR.username, adminPassword: OPERATOR.password });
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const at = '2026-01-01T00:00:00.000Z';
  const series = (count: number) =>
    dialect === 'postgres'
      ? sql`select g as i from generate_series(1, ${sql.lit(count)}) g`
      : sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${sql.lit(count)}) select i from s`;
  const { customers, domains, mailboxes, aliases, logRows } = size;
  // Domain j belongs to customer (j mod customers) + 1; mailbox and alias k live on domain (k mod domains) + 1.
  const ownerOfDomain = (expr: string) => sql.raw(`((${expr}) % ${customers}) + 1`);
  const steps: [string, ReturnType<typeof sql>][] = [
    [
      'customers',
      sql`insert into "user" (email, username, password_hash, is_verified, status, points, storage_max, locale, created_at, updated_at)
        select 'customer' || i || '@bench.example', 'Customer ' || i, ${passwordHash}, 1, 'active', i, 1073741824, 'en', ${at}, ${at} from (${series(customers)}) n`,
    ],
    [
      'storage blocks',
      sql`insert into storage (owner_id, size, source, label, expires_at, created_at, updated_at)
        select i, 1099511627776, 'grant', 'bench', null, ${at}, ${at} from (${series(customers)}) n`,
    ],
    [
      'domains',
      sql`insert into domain (owner_id, name, name_unicode, status, verified_at, verified_by, verify_token, max_mailboxes, max_aliases, max_quota, dkim_selector, dkim_private_key, dkim_public_key, note, created_at, updated_at)
        select ${ownerOfDomain('i - 1')}, 'd' || i || '.example', 'd' || i || '.example', 'active', ${at}, 'operator', 'token' || i, 0, 0, 0, 'md1', 'private', 'public', '', ${at}, ${at}
        from (${series(domains)}) n`,
    ],
    [
      'mailboxes',
      sql`insert into mailbox (owner_id, domain_id, local_part, address, address_unicode, password_hash, name, quota, active, created_at, updated_at)
        select ${ownerOfDomain(`(i - 1) % ${domains}`)}, ((i - 1) % ${sql.lit(domains)}) + 1, 'user' || i,
          'user' || i || '@d' || (((i - 1) % ${sql.lit(domains)}) + 1) || '.example', 'user' || i || '@d' || (((i - 1) % ${sql.lit(domains)}) + 1) || '.example',
          ${`{ARGON2ID}${passwordHash}`}, 'User ' || i, 1048576, 1, ${at}, ${at}
        from (${series(mailboxes)}) n`,
    ],
    [
      'mailbox usage (every other mailbox)',
      sql`insert into mailbox_usage (address, bytes, messages) select address, id * 10, id % 100 from mailbox where id % 2 = 0`,
    ],
    [
      'aliases',
      sql`insert into alias (owner_id, domain_id, local_part, address, address_unicode, goto, active, created_at, updated_at)
        select ${ownerOfDomain(`(i - 1) % ${domains}`)}, ((i - 1) % ${sql.lit(domains)}) + 1, 'alias' || i,
          'alias' || i || '@d' || (((i - 1) % ${sql.lit(domains)}) + 1) || '.example', 'alias' || i || '@d' || (((i - 1) % ${sql.lit(domains)}) + 1) || '.example',
          'user' || i || '@d' || (((i - 1) % ${sql.lit(domains)}) + 1) || '.example', 1, ${at}, ${at}
        from (${series(aliases)}) n`,
    ],
    [
      'log rows',
      sql`insert into log (user_id, actor_type, actor_id, actor_name, action, target_type, target_id, before, after, ip, user_agent, created_at)
        select (i % ${sql.lit(customers)}) + 1, 'customer', (i % ${sql.lit(customers)}) + 1, 'customer' || ((i % ${sql.lit(customers)}) + 1) || '@bench.example',
          case i % 5 when 0 then 'login' when 1 then 'update' when 2 then 'create' when 3 then 'delete' else 'login_failed' end,
          'user', (i % ${sql.lit(customers)}) + 1, null, '{"username":"x"}', '10.0.' || (i % 250) || '.1', 'bench',
          '2025-' || substr('0' || (1 + (i / 2600000) % 12), -2) || '-' || substr('0' || (1 + (i / 86400) % 28), -2) || 'T' || substr('0' || ((i / 3600) % 24), -2) || ':' || substr('0' || ((i / 60) % 60), -2) || ':' || substr('0' || (i % 60), -2) || '.000Z'
        from (${series(logRows)}) n`,
    ],
  ];
  // SQLite: the search indexes' triggers would index row by row; they are set aside during
  // the bulk load and every full-text table rebuilt once afterwards.
  const triggers =
    dialect === 'sqlite'
      ? (await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'trigger'`.execute(db)).rows.filter((t) => /_search_(insert|update|delete)$/.test(t.name))
      : [];
  for (const trigger of triggers) await sql.raw(`drop trigger "${trigger.name}"`).execute(db);
  for (const [name, statement] of steps) {
    const t = Date.now();
    await statement.execute(db);
    console.log(`  ${name}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  if (triggers.length) {
    const t = Date.now();
    const fts = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and sql like 'CREATE VIRTUAL TABLE%fts5%'`.execute(db)).rows;
    for (const { name } of fts) await sql.raw(`insert into "${name}"("${name}") values ('rebuild')`).execute(db);
    for (const trigger of triggers) await sql.raw(trigger.sql).execute(db);
    console.log(`  search indexes: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  // The steady state autovacuum / a periodic analyze keeps a live database in.
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
  if (dialect === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(db);
  await database.close();
  if (partial) {
    fs.renameSync(path.join(dataDir, 'maildesk.sqlite'), where.file!);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`Generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Config for the app on a bench database. */
export const benchConfig = (database: BenchDatabase) =>
  loadConfig({
    DATA_DIR: database.dataDir,
    ADMIN_USERNAME: OPERATOR.username,
    ADMIN_PASSWORD: OPERATOR.password,
    WEB_ROOT: path.join(database.dataDir, 'no-web'),
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
  });
