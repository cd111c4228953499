import type { CreateTableBuilder, Kysely } from 'kysely';
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
