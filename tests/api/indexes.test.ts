/**
 * Lists sort and filter in the database: every column a declaration lets lists sort or
 * filter by leads an index (alone, or after the owner column for customer-scoped lists).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resources, type ResourceDeclaration } from '../../resources/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Index name → its columns in order, for one table. */
async function indexesOf(table: string): Promise<string[][]> {
  const { db, dialect } = t.services;
  if (dialect === 'sqlite') {
    const list = await sql<{ name: string }>`select name from pragma_index_list(${table})`.execute(db);
    const result: string[][] = [];
    for (const { name } of list.rows) {
      const columns = await sql<{ name: string }>`select name from pragma_index_info(${name}) order by seqno`.execute(db);
      result.push(columns.rows.map((c) => c.name));
    }
    return result;
  }
  const rows = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = ${table}`.execute(db);
  return rows.rows.map((r) => /\((.*)\)/.exec(r.indexdef)![1].split(',').map((c) => c.trim().replace(/"/g, '')));
}

it('When a list may be sorted or filtered by a field, then an index starts with that field (or the owner and that field)', async () => {
  const missing: string[] = [];
  for (const resource of resources as readonly ResourceDeclaration[]) {
    const indexes = await indexesOf(resource.table);
    const scopeColumns = [resource.owner, ...Object.keys(resource.where ?? {})].filter(Boolean) as string[];
    const leads = (column: string) =>
      indexes.some((columns) => columns[0] === column || (scopeColumns.includes(columns[0]) && columns[1] === column));
    for (const [name, field] of Object.entries(resource.fields)) {
      if ((field.sortable || field.filter || field.unique) && !leads(name)) missing.push(`${resource.table}.${name}`);
    }
  }
  expect(missing).toEqual([]);
});
