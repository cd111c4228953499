/**
 * Kysely on better-sqlite3 with two connections to the same WAL file and reused statements.
 *
 * Kysely's own SQLite driver has one connection, held by a transaction from BEGIN to COMMIT
 * across every await in between: a request that only reads (a session check) waits for
 * every write transaction queued before it. Here a read outside a transaction runs at once
 * on a second, query-only connection, which in WAL mode sees every committed write and is
 * never blocked by the writer. Transactions and writes keep the one writer connection, one
 * at a time, as before.
 *
 * Kysely also prepares every query it runs, and preparing costs more than running a short
 * indexed query: each connection keeps a bounded cache of prepared statements keyed by SQL
 * text (a connection runs one statement at a time, so a statement is never in use twice).
 */
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

export function statementCache(sqlite: SQLite.Database, size = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return (text: string) => {
    let statement = cache.get(text);
    if (statement) {
      // Most recently used last: the oldest is the one dropped when the cache is full.
      cache.delete(text);
    } else {
      statement = sqlite.prepare(text);
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
    }
    cache.set(text, statement);
    return statement;
  };
}

/** First come, first served. */
class Mutex {
  #locked = false;
  #waiting: (() => void)[] = [];
  async lock() {
    if (!this.#locked) {
      this.#locked = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
  unlock() {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }
}

type Prepare = ReturnType<typeof statementCache>;

function run<R>(statement: SQLite.Statement, query: CompiledQuery): QueryResult<R> {
  const parameters = query.parameters as unknown[];
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

class Connection implements DatabaseConnection {
  inTransaction = false;
  constructor(private readonly driver: ReadWriteDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { writer, reader, writerLock } = this.driver;
    if (this.inTransaction) return run(writer(query.sql), query);
    const statement = reader(query.sql);
    if (statement.readonly) return run(statement, query);
    // A write outside a transaction waits for the writer's current transaction to end.
    await writerLock.lock();
    try {
      return run(writer(query.sql), query);
    } finally {
      writerLock.unlock();
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const result = await this.executeQuery<R>(query);
    for (const row of result.rows) yield { rows: [row] };
  }
}

class ReadWriteDriver implements Driver {
  readonly writerLock = new Mutex();
  readonly writer: Prepare;
  readonly reader: Prepare;
  constructor(
    private readonly writerDb: SQLite.Database,
    private readonly readerDb: SQLite.Database,
  ) {
    this.writer = statementCache(writerDb);
    this.reader = statementCache(readerDb);
  }
  async init() {}
  async acquireConnection() {
    return new Connection(this);
  }
  async beginTransaction(connection: Connection) {
    await this.writerLock.lock();
    try {
      // IMMEDIATE: the write lock from the start. A deferred BEGIN reads a snapshot first, and its
      // first write then fails at once (SQLITE_BUSY, no busy wait) if Dovecot wrote quota usage
      // into the file meanwhile; this way Dovecot waits for the transaction instead.
      run(this.writer('begin immediate'), CompiledQuery.raw('begin immediate'));
    } catch (error) {
      this.writerLock.unlock();
      throw error;
    }
    connection.inTransaction = true;
  }
  async commitTransaction(connection: Connection) {
    // A failed COMMIT (busy) leaves the transaction open: Kysely then rolls it back, which frees the writer.
    run(this.writer('commit'), CompiledQuery.raw('commit'));
    connection.inTransaction = false;
    this.writerLock.unlock();
  }
  async rollbackTransaction(connection: Connection) {
    try {
      if (this.writerDb.inTransaction) run(this.writer('rollback'), CompiledQuery.raw('rollback'));
    } finally {
      connection.inTransaction = false;
      this.writerLock.unlock();
    }
  }
  async releaseConnection() {}
  async destroy() {
    this.readerDb.close();
    this.writerDb.close();
  }
}

export class SqliteReadWriteDialect implements Dialect {
  readonly #driver: ReadWriteDriver;
  constructor(writer: SQLite.Database, reader: SQLite.Database) {
    this.#driver = new ReadWriteDriver(writer, reader);
  }
  createDriver() {
    return this.#driver;
  }
  /** A read on the reader connection, without Kysely (DatabaseHandle.read); it refuses a statement that writes. */
  readonly read = async <R>(text: string, parameters: readonly unknown[]): Promise<R[]> => {
    const statement = this.#driver.reader(text);
    if (!statement.readonly) throw new Error('read() runs only statements that read');
    return statement.all(parameters as unknown[]) as R[];
  };
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
