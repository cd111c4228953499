/**
 * Lists sort, filter, search and count in the database, on indexes: every column a declaration
 * lets lists sort or filter by leads an index (alone, or after the owner column for
 * customer-scoped lists), every searched column has a substring index, and the plans of the
 * queries lists run (page and count) read those indexes on both databases.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ResourceDeclaration } from '../../resources/define.js';
import { capabilities } from '../../server/capabilities.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { listParams, searchIndexes } from '../../server/core/list-query.js';
import { resourceStore } from '../../server/core/resource-store.js';
import { searchTableOf } from '../../server/db/migrations/helpers.js';
import { oneOf } from '../../server/db/one-of.js';

/** Every declared resource, as the capabilities list them. */
const resources: ResourceDeclaration[] = capabilities.flatMap((c) => (c.resources ?? []).map((r) => r.declaration));

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
  for (const resource of resources) {
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

// ---------------------------------------------------------------------------------------------
// The plans of the queries lists run: every list a declaration allows (its default order, each
// sortable field, each filter, a search), the page and its count, in each area's scope, read an
// index for every table they touch. New declarations are covered as they are added.

interface ListCase {
  label: string;
  scope: Record<string, unknown>;
  params: Record<string, unknown>;
  /** Unfiltered, in the order of an index: the page must come from the index, not a sort of everything. */
  ordered: boolean;
  /**
   * SQLite may walk the primary key (rowid) instead of an index: the page in id order with no
   * condition, or with a range on a time column (ids grow with time, so the walk stops after a
   * page); and the count of a list with no condition, which stops after COUNT_LIMIT + 1 rows.
   */
  walkPageByKey: boolean;
  walkCountByKey: boolean;
}

// Searches that scan, and why that is bounded.
const searchScans: Record<string, string> = {
  alias_domain: 'searches the names of the two joined domains (a view); a customer has at most one alias domain per domain',
};

function listCases(resource: ResourceDeclaration): ListCase[] {
  const cases: ListCase[] = [];
  for (const area of ['admin', 'manage'] as const) {
    if (!resource[area]?.list) continue;
    // The scope the derived calls use: fixed values, and the customer in the customer area.
    const scope: Record<string, unknown> = { ...resource.where };
    if (area === 'admin' && resource.owner) scope[resource.owner] = 1;
    const unscoped = Object.keys(scope).length === 0;
    const byId = (resource.defaultSort?.field ?? 'id') === 'id';
    cases.push({ label: `${area}: default order`, scope, params: {}, ordered: unscoped, walkPageByKey: unscoped && byId, walkCountByKey: unscoped });
    for (const [name, field] of Object.entries(resource.fields)) {
      if (field.sortable) cases.push({ label: `${area}: sort ${name}`, scope, params: { sort: name, order: 'desc' }, ordered: unscoped, walkPageByKey: false, walkCountByKey: unscoped });
      if (field.filter === 'eq') {
        const value = field.kind === 'text' || field.kind === 'email' || field.kind === 'enum' ? 'x' : 1;
        cases.push({ label: `${area}: filter ${name}`, scope, params: { filter: { [name]: value } }, ordered: false, walkPageByKey: false, walkCountByKey: false });
      }
      if (field.filter === 'range' && field.kind === 'datetime') {
        cases.push({ label: `${area}: range ${name}`, scope, params: { filter: { [`${name}_gte`]: '2026-01-01T00:00:00.000Z' } }, ordered: false, walkPageByKey: byId, walkCountByKey: false });
      }
    }
    if (Object.values(resource.fields).some((f) => f.search) && !searchScans[resource.name]) {
      cases.push({ label: `${area}: search`, scope, params: { q: 'abcd' }, ordered: false, walkPageByKey: false, walkCountByKey: false });
    }
  }
  return cases;
}

/**
 * A query's plan, one line per step: SQLite's EXPLAIN QUERY PLAN details; on PostgreSQL each
 * node as "<type> on <table> using <index>", planned as when sequential scans are the last
 * resort (tables here are tiny).
 */
async function planOf(compiled: { sql: string; parameters: readonly unknown[] }): Promise<string[]> {
  const { db, dialect } = t.services;
  if (dialect === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    return rows.map((r) => r.detail);
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
    const steps: string[] = [];
    const walk = (node: any) => {
      steps.push([node['Node Type'], node['Relation Name'] && `on ${node['Relation Name']}`, node['Index Name'] && `using ${node['Index Name']}`].filter(Boolean).join(' '));
      for (const child of node.Plans ?? []) walk(child);
    };
    walk((rows[0]['QUERY PLAN'] as any[])[0].Plan);
    return steps;
  });
}

/** What reads a whole table (or sorts all of it) in a query's plan; empty when every access uses an index. */
async function planProblems(compiled: { sql: string; parameters: readonly unknown[] }, ordered: boolean, walkByKey: boolean): Promise<string[]> {
  const steps = await planOf(compiled);
  if (t.services.dialect === 'sqlite') {
    return steps.filter((d) => (!walkByKey && /^SCAN (?!\(|matches\b|.*(USING|VIRTUAL TABLE))/.test(d)) || (ordered && /TEMP B-TREE FOR ORDER BY/.test(d)));
  }
  return steps.filter((step) => step.startsWith('Seq Scan'));
}

// Tables of a few rows by nature, which the planners rightly read whole once statistics say so
// (SQLite's PRAGMA optimize at start analyses a table that has rows).
const fewRows: Record<string, string> = {
  mail_store: 'the mail stores: one per mail host, tens at most',
};

it('When a list is read in any order, filter or search its declaration allows, then its page and its count read indexes (EXPLAIN)', async () => {
  const problems: string[] = [];
  const { db, dialect } = t.services;
  for (const resource of resources) {
    if (fewRows[resource.name]) continue;
    const store = resourceStore(resource);
    for (const c of listCases(resource)) {
      const params = listParams.parse(c.params);
      const { rows, count } = await store.listQueries(db, dialect, c.scope, params);
      for (const [which, query] of [['page', rows], ['count', count]] as const) {
        const walkByKey = which === 'page' ? c.walkPageByKey : c.walkCountByKey;
        for (const problem of await planProblems(query.compile(), which === 'page' && c.ordered, walkByKey))
          problems.push(`${resource.name} ${c.label} (${which}): ${problem}`);
      }
    }
  }
  expect(problems).toEqual([]);
});

// Tables that stay small (tens of rows), where PostgreSQL rightly reads a whole btree index on
// the searched column for the count rather than its trigram index.
const smallTables: Record<string, string> = {
  operator: 'the operators',
  canned_reply: "the support team's canned replies",
  // Empty here, the count reads the (scope, sender) unique index whole, which holds the searched column.
  spam_list: 'the sender lists (tens of entries per domain or mailbox)',
  ...fewRows,
};

it('When a list is searched (a name: "User 42"), then its page and its count find the matches through the substring index of every searched column, not by walking the table in order (EXPLAIN)', async () => {
  const { db, dialect } = t.services;
  const problems: string[] = [];
  for (const resource of resources) {
    const searched = Object.entries(resource.fields).filter(([, f]) => f.search).map(([name]) => name);
    if (!searched.length || searchScans[resource.name]) continue;
    // SQLite: the full-text table; PostgreSQL: one pg_trgm index per column.
    if (dialect === 'postgres' && smallTables[resource.name]) continue;
    const indexes = dialect === 'sqlite' ? [searchTableOf(resource.table)] : searched.map((column) => `${resource.table}_${column}_trgm_idx`);
    // Over the whole table (a customer's own rows are read through the owner's index).
    for (const c of listCases(resource).filter((c) => c.params.q && Object.keys(c.scope).length === 0)) {
      const { rows, count } = await resourceStore(resource).listQueries(db, dialect, c.scope, listParams.parse({ ...c.params, q: 'User 42' }));
      for (const [which, query] of [['page', rows], ['count', count]] as const) {
        const steps = await planOf(query.compile());
        const reads = (index: string) => steps.some((step) => (dialect === 'sqlite' ? step.includes(`${index} VIRTUAL TABLE INDEX`) : step.endsWith(`using ${index}`)));
        for (const index of indexes) if (!reads(index)) problems.push(`${resource.name} ${c.label} (${which}) does not read ${index}: ${steps.join('; ')}`);
      }
    }
  }
  expect(problems).toEqual([]);
});

it('When a declaration searches a field, then that column has a substring index (FTS5 trigram / pg_trgm)', async () => {
  const { db, dialect } = t.services;
  const missing: string[] = [];
  for (const resource of resources) {
    if (searchScans[resource.name]) continue;
    const searched = Object.entries(resource.fields).filter(([, f]) => f.search).map(([name]) => name);
    if (!searched.length) continue;
    let indexed: Set<string>;
    if (dialect === 'sqlite') {
      indexed = (await searchIndexes(db)).get(searchTableOf(resource.table)) ?? new Set();
    } else {
      const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = ${resource.table} and indexdef like '%gin_trgm_ops%'`.execute(db);
      indexed = new Set(rows.map((r) => /\((\S+) gin_trgm_ops\)/.exec(r.indexdef)![1].replace(/"/g, '')));
    }
    for (const name of searched) if (!indexed.has(name)) missing.push(`${resource.table}.${name}`);
  }
  expect(missing).toEqual([]);
});

// The switch to a kept generic plan after five runs is PostgreSQL's (its test run covers it).
if (process.env.DATABASE_URL) it('When a lookup by a list of addresses runs again and again (an import, batch after batch), then PostgreSQL plans it for each list instead of keeping a generic plan', async () => {
  // A named statement gets a generic plan after five runs; for a list that plan guesses ten
  // values and read the trigram index once per address (500 addresses: 3.5 s instead of 2 ms).
  const { db } = t.services;
  const addresses = Array.from({ length: 500 }, (_, i) => `nobody${i}@lookup.example`);
  const named = await db.connection().execute(async (connection) => {
    for (let run = 0; run < 7; run++) await connection.selectFrom('mailbox').select(['id', 'address']).where('address', 'in', oneOf(connection, addresses)).execute();
    await connection.selectFrom('mailbox').select('id').where('address', '=', addresses[0]).execute();
    return (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection)).rows.map((r) => r.statement);
  });
  // The plain lookup is kept prepared (the rule for every other statement); the list lookup is not.
  expect(named.some((text) => /"address" = \$1/.test(text))).toBe(true);
  expect(named.filter((text) => text.includes('unnest'))).toEqual([]);
});
