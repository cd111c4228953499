import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';

/** The auto-increment primary key, spelled the way each database wants it. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** One index per entry: a column, or several columns in order. Named <table>_<columns>_idx. */
export async function indexes(db: Kysely<any>, table: string, entries: (string | string[])[]) {
  for (const entry of entries) {
    const columns = Array.isArray(entry) ? entry : [entry];
    await db.schema.createIndex(`${table}_${columns.join('_')}_idx`).on(table).columns(columns).execute();
  }
}

/** The SQLite full-text table (FTS5, trigram) that indexes a table's searchable columns. */
export const searchTableOf = (table: string) => `${table}_search`;

/**
 * Substring search on an index: on SQLite an external-content FTS5 table with the trigram
 * tokenizer (kept up to date by triggers), on PostgreSQL a pg_trgm GIN index per column (which
 * ILIKE '%…%' uses). Lists search a declaration's `search: true` fields through it.
 */
export async function searchIndex(db: Kysely<any>, dialect: Dialect, table: string, columns: string[]) {
  if (dialect === 'postgres') {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    for (const column of columns) {
      await sql`CREATE INDEX ${sql.id(`${table}_${column}_trgm_idx`)} ON ${sql.table(table)} USING gin (${sql.ref(column)} gin_trgm_ops)`.execute(db);
    }
    return;
  }
  const fts = searchTableOf(table);
  const list = columns.map((c) => `"${c}"`).join(', ');
  const values = (row: 'new' | 'old') => columns.map((c) => `${row}."${c}"`).join(', ');
  await sql.raw(`CREATE VIRTUAL TABLE "${fts}" USING fts5(${list}, content='${table}', content_rowid='id', tokenize='trigram')`).execute(db);
  await sql.raw(`INSERT INTO "${fts}"("${fts}") VALUES ('rebuild')`).execute(db);
  const remove = `INSERT INTO "${fts}"("${fts}", rowid, ${list}) VALUES ('delete', old.id, ${values('old')});`;
  const add = `INSERT INTO "${fts}"(rowid, ${list}) VALUES (new.id, ${values('new')});`;
  await sql.raw(`CREATE TRIGGER "${fts}_insert" AFTER INSERT ON "${table}" BEGIN ${add} END`).execute(db);
  await sql.raw(`CREATE TRIGGER "${fts}_delete" AFTER DELETE ON "${table}" BEGIN ${remove} END`).execute(db);
  await sql.raw(`CREATE TRIGGER "${fts}_update" AFTER UPDATE OF ${list} ON "${table}" BEGIN ${remove} ${add} END`).execute(db);
}
