/** Opens the database: embedded SQLite in DATA_DIR, or PostgreSQL when DATABASE_URL says so. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import { SqliteReadWriteDialect } from './sqlite-driver.js';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Where the SQLite file is (for deploy/ and the mail-server suite). */
  sqlitePath?: string;
  /**
   * Rows of one read outside any transaction, straight to the driver: for the statements
   * every request makes (its session, a list's page and count), where Kysely's executor
   * (connection provider, plugins, several awaits) costs more than running the statement.
   */
  read<R = Record<string, unknown>>(text: string, parameters: readonly unknown[]): Promise<R[]>;
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections, in use and idle, and the requests waiting for one (metrics). */
  poolUse?(): { max: number; inUse: number; idle: number; waiting: number };
}

// PostgreSQL's bigint (ids, byte counts) and numeric come back as strings by default; all ours fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

// Per connection, at most this many statements are kept prepared; later new texts run unprepared.
const PREPARED_PER_CONNECTION = 1000;

/**
 * PostgreSQL parses and plans every unnamed query anew, which costs more than running the
 * short indexed queries most calls make. Kysely sends unnamed ones, so each connection names
 * the statements that have parameters by their text's hash: PostgreSQL keeps them prepared,
 * and re-plans them itself when a table they read changes. The count is bounded because
 * texts vary (a filter's list of values). Statements given a list of values are not named.
 */
function reusePlans(client: pg.PoolClient) {
  // Text → its statement's name (a map lookup costs less than hashing the text on every call).
  const prepared = new Map<string, string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || rest.length) return query(text, values, ...rest);
    // A list of values (db/one-of.ts, = any(…)) stays unnamed: planned for the list it has. A named
    // statement gets a generic plan after five runs, which guesses ten values — for 500 addresses
    // it chose the trigram index per address, 3.5 s instead of 2 ms.
    if (values.some(Array.isArray)) return query(text, values);
    let name = prepared.get(text);
    if (name === undefined) {
      if (prepared.size >= PREPARED_PER_CONNECTION) return query(text, values);
      name = `k${crypto.createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
      prepared.set(text, name);
    }
    return query({ name, text, values });
  }) as typeof client.query;
}

export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DatabaseHandle {
  if (config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection the server closes (restart, failover, a dropped test database) is
    // replaced by the pool on next use; without a listener its error would end the process.
    pool.on('error', (error) => console.error(`PostgreSQL closed an idle connection: ${error.message}`));
    pool.on('connect', reusePlans);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // A client of the pool's own (pool.query passes a callback, which reusePlans leaves unnamed).
    const read = async <R>(text: string, parameters: readonly unknown[]) => {
      const client = await pool.connect();
      try {
        return (await client.query(text, parameters as unknown[])).rows as R[];
      } finally {
        client.release();
      }
    };
    const poolUse = () => ({ max: pool.options.max ?? 10, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, dialect: 'postgres', read, close: () => db.destroy(), poolUse };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const sqlitePath = path.join(config.dataDir, 'maildesk.sqlite');
  const sqlite = new SQLite(sqlitePath);
  // WAL: Postfix's and Dovecot's readers are never blocked by a panel write (notes/mail-server.md).
  sqlite.pragma('journal_mode = WAL');
  // Dovecot writes quota usage into the same file; wait for it instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  // Fresh planner statistics (which also give unfiltered lists their estimated totals),
  // bounded so that opening a large database stays quick (SQLite's advice for long-lived connections).
  // It rewrites rows of sqlite_stat1/4, which a migration made (0016): the schema, on which
  // Postfix's and Dovecot's prepared lookups depend, changes only when a migration runs.
  sqlite.pragma('analysis_limit = 1000');
  sqlite.pragma('optimize = 0x10002');
  // Reads outside transactions on a second connection (server/db/sqlite-driver.ts).
  const reader = new SQLite(sqlitePath);
  reader.pragma('busy_timeout = 5000');
  reader.pragma('query_only = ON');
  const dialect = new SqliteReadWriteDialect(sqlite, reader);
  const db = new Kysely<Database>({ dialect });
  return { db, dialect: 'sqlite', sqlitePath, read: dialect.read, close: () => db.destroy() };
}

