/**
 * The one list vocabulary of every list call: page, page_size, sort, order, filter and a
 * free-text q; the answer is { list, total, page, page_size }. Everything happens in the
 * database, on declared (and indexed) columns only.
 */
import { CompiledQuery, sql, type Compilable, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import { lineText } from '../../resources/text.js';
import { fieldSchema, idSchema, MAX_ID, wholeNumber, type Field, type ResourceDeclaration } from '../../resources/define.js';
import type { Db, Dialect } from '../db/index.js';
import { searchTableOf } from '../db/migrations/helpers.js';
import { fieldError } from './errors.js';

const jsonObject = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return {};
  try {
    return JSON.parse(value);
  } catch {
    return Symbol('invalid json');
  }
}, z.record(z.string(), z.unknown()));

export const listParams = z.object({
  page: wholeNumber(1, 1_000_000).default(1),
  page_size: wholeNumber(1, 100).default(20),
  sort: z.string().max(64).optional(),
  order: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['asc', 'desc']))
    .optional(),
  /** Exact values (a list means any of them), and <field>_gte / <field>_lte for ranges. */
  filter: jsonObject.default({}),
  q: lineText(0, 200).optional(),
});
export type ListParams = z.infer<typeof listParams>;

export interface ListResult<T> {
  list: T[];
  /** Exact, unless total_is_estimate says otherwise. */
  total: number;
  page: number;
  page_size: number;
  /**
   * Counting a million matches costs more than the page itself, so lists count at most
   * COUNT_LIMIT of them. Beyond that the total is an estimate from the database's statistics
   * (unfiltered lists: "about 1,000,000"), or, when there is none, the limit itself with
   * total_is_lower_bound ("more than 10,000").
   */
  total_is_estimate: boolean;
  total_is_lower_bound?: boolean;
}

export const COUNT_LIMIT = 10_000;

const numericKinds = new Set<Field['kind']>(['integer', 'bytes', 'boolean', 'reference']);
const idField: Field = { kind: 'integer', min: 1, sortable: true, filter: 'eq' };

function filterValue(column: string, field: Field, value: unknown): unknown {
  // Ids and references are ids here too (a list of them: any of them); other numbers keep their declared bounds.
  const one =
    field.kind === 'boolean'
      ? fieldSchema(field)
      : field.kind === 'reference'
        ? idSchema
        : numericKinds.has(field.kind)
          ? wholeNumber(field.min ?? -MAX_ID, field.max ?? MAX_ID)
          : z.union([z.string().max(255), z.number()]);
  const parsed = z.union([one, z.array(one).max(500)]).safeParse(value);
  if (!parsed.success) throw fieldError(`filter.${column}`, 'validation.invalid');
  return parsed.data;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One condition of a list with its values apart, as slots: what a list's SQL depends on is
 * its conditions' shape (columns, operators, how many values), never the values themselves.
 */
export type ListCondition =
  | { kind: 'compare'; column: string; op: '=' | '>=' | '<=' | 'in'; slots: number[] }
  | { kind: 'is null'; column: string }
  | { kind: 'never' }
  | { kind: 'match'; table: string; slot: number }
  | { kind: 'like'; op: 'like' | 'ilike'; columns: string[]; slot: number };

export interface ListShape {
  conditions: ListCondition[];
  /** The values, in slots. */
  values: unknown[];
}

/** The conditions of a list: fixed scope (a customer's own rows), the filters and the search. */
export function listShape(
  resource: ResourceDeclaration,
  dialect: Dialect,
  scope: Record<string, unknown>,
  params: Pick<ListParams, 'filter' | 'q'>,
  /** SQLite: the columns of the table's full-text (trigram) index, when it has one. */
  indexed?: ReadonlySet<string>,
): ListShape {
  const { conditions, values } = scopeShape(scope);
  const slot = (value: unknown) => values.push(value) - 1;
  for (const [key, raw] of Object.entries(params.filter)) {
    if (raw === undefined || raw === '' || raw === null) continue;
    const range = /^(.*)_(gte|lte)$/.exec(key);
    const column = range && resource.fields[range[1]]?.filter === 'range' ? range[1] : key;
    const field = column === 'id' ? idField : resource.fields[column];
    if (!field?.filter) throw fieldError(`filter.${key}`, 'validation.unknown_filter', { field: key });
    const value = filterValue(key, field, raw);
    conditions.push(compare(column, range && column !== key ? (range[2] === 'gte' ? '>=' : '<=') : '=', value, slot));
  }
  const searchable = Object.entries(resource.fields).filter(([, f]) => f.search).map(([name]) => name);
  if (params.q && searchable.length) {
    // SQLite: the trigram index finds the candidates (3 characters at least make a trigram),
    // LIKE keeps the answer exactly what it is without the index. PostgreSQL's pg_trgm indexes serve ILIKE itself.
    if (dialect === 'sqlite' && indexed && [...params.q].length >= 3 && searchable.every((name) => indexed.has(name))) {
      conditions.push({ kind: 'match', table: searchTableOf(resource.table), slot: slot(`"${params.q.replace(/"/g, '""')}"`) });
    }
    conditions.push({ kind: 'like', op: dialect === 'postgres' ? 'ilike' : 'like', columns: searchable, slot: slot(`%${escapeLike(params.q)}%`) });
  }
  return { conditions, values };
}

/** One column against a value: a list of values means any of them, and an empty list nothing. */
function compare(column: string, op: '=' | '>=' | '<=', value: unknown, slot: (value: unknown) => number): ListCondition {
  if (!Array.isArray(value)) return { kind: 'compare', column, op, slots: [slot(value)] };
  return value.length ? { kind: 'compare', column, op: 'in', slots: value.map(slot) } : { kind: 'never' };
}

/** The fixed scope of a caller's rows (its customer's, its team's domains) as conditions. */
function scopeShape(scope: Record<string, unknown>): ListShape {
  const values: unknown[] = [];
  const slot = (value: unknown) => values.push(value) - 1;
  const conditions = Object.entries(scope).map(([column, value]): ListCondition => (value === null ? { kind: 'is null', column } : compare(column, '=', value, slot)));
  return { conditions, values };
}

/** A query narrowed to a scope's rows (one record read by id). */
export function inScope<Q extends { where: (...args: any[]) => Q }>(query: Q, scope: Record<string, unknown>): Q {
  const { conditions, values } = scopeShape(scope);
  const where = listWhere(conditions, (slot) => values[slot]);
  return conditions.length ? query.where((eb: ExpressionBuilder<any, any>) => eb.and(where(eb))) : query;
}

/** A list's conditions as Kysely expressions, each slot's value given by valueAt. */
export function listWhere(conditions: ListCondition[], valueAt: (slot: number) => unknown) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool>[] =>
    conditions.map((c) => {
      switch (c.kind) {
        case 'compare':
          return c.op === 'in' ? eb(c.column, 'in', c.slots.map(valueAt)) : eb(c.column, c.op, valueAt(c.slots[0]));
        case 'is null':
          return eb(c.column, 'is', null);
        case 'never':
          return sql<SqlBool>`1 = 0`;
        case 'match':
          return sql<SqlBool>`${sql.ref('id')} in (select rowid from ${sql.table(c.table)} where ${sql.table(c.table)} match ${valueAt(c.slot)})`;
        case 'like':
          return eb.or(c.columns.map((name) => sql<SqlBool>`${sql.ref(name)} ${sql.raw(c.op)} ${valueAt(c.slot)} escape '\\'`));
      }
    });
}

/** The WHERE conditions of the filters and the search alone (lists that build their own query: the ticket queue). */
export function listConditions(resource: ResourceDeclaration, dialect: Dialect, params: Pick<ListParams, 'filter' | 'q'>, indexed?: ReadonlySet<string>) {
  const { conditions, values } = listShape(resource, dialect, {}, params, indexed);
  return listWhere(conditions, (slot) => values[slot]);
}

export interface CompiledList {
  compile(): { sql: string; parameters: readonly unknown[] };
}

/**
 * A list's queries made once per shape: built with a unique stand-in for each slot and
 * compiled, each records which parameter takes which slot's value (the others are constants).
 * Building and compiling with Kysely costs a busy server several times the statement itself.
 */
export function listTemplate(values: number, build: (valueAt: (slot: number) => unknown) => Compilable[]) {
  const standIns = Array.from({ length: values }, (_, i) => `\u0000slot ${i}\u0000`);
  const slotOf = new Map(standIns.map((standIn, i) => [standIn, i]));
  const made = build((slot) => standIns[slot]).map((query) => {
    const { sql: text, parameters } = query.compile();
    // Each parameter: the number of the slot whose value it takes, or -1 for a constant of the query's own.
    return { text, parameters, slots: parameters.map((p) => (typeof p === 'string' ? (slotOf.get(p) ?? -1) : -1)) };
  });
  return (valuesNow: readonly unknown[]): CompiledList[] =>
    made.map(({ text, parameters, slots }) => ({
      compile: () => ({ sql: text, parameters: slots.map((slot, i) => (slot < 0 ? parameters[i] : valuesNow[slot])) }),
    }));
}

/**
 * PostgreSQL reads a list's page by walking the table in the list's order when it expects
 * matches to come soon, as if they were spread evenly. A search's matches come in runs
 * ("User 42…" are the ids 420000–429999 of a million mailboxes, made in series), and the
 * walk may read most of the table. So a search expected to match at most this many rows has
 * its page sorted from its matches, found through the trigram indexes; beyond it, matches are
 * dense enough for the walk to meet a page of them early.
 */
export const SORT_LIMIT = 100_000;

/** PostgreSQL: the number of rows the planner expects a query to return. */
export async function plannedRows(db: Db, query: Compilable): Promise<number> {
  const { sql: text, parameters } = query.compile();
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(CompiledQuery.raw(`explain (format json) ${text}`, [...parameters]));
  return rows[0]['QUERY PLAN'][0].Plan['Plan Rows'];
}

/** The ORDER BY of a list, refusing undeclared sort fields. Ties are broken by id. */
export function listOrder(resource: ResourceDeclaration, params: Pick<ListParams, 'sort' | 'order'>) {
  const field = params.sort ?? resource.defaultSort?.field ?? 'id';
  const declared = field === 'id' ? idField : resource.fields[field];
  if (!declared?.sortable) throw fieldError('sort', 'validation.unknown_sort', { field });
  const order = params.order ?? (params.sort ? 'asc' : resource.defaultSort?.order ?? 'desc');
  return { field, order } as const;
}

// Per database: each table's full-text index columns (SQLite), and row estimates.
const searchColumns = new WeakMap<Db, Promise<Map<string, Set<string>>>>();

/** SQLite: the columns each table's trigram index holds (tables without one are absent). */
export function searchIndexes(db: Db): Promise<Map<string, Set<string>>> {
  let found = searchColumns.get(db);
  if (!found) {
    found = (async () => {
      const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and sql like 'CREATE VIRTUAL TABLE%fts5%'`.execute(db);
      const result = new Map<string, Set<string>>();
      for (const { name } of tables.rows) {
        const columns = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db);
        result.set(name, new Set(columns.rows.map((c) => c.name)));
      }
      return result;
    })();
    searchColumns.set(db, found);
  }
  return found;
}

const columnsOfTables = new WeakMap<Db, Map<string, Promise<Set<string>>>>();

/** The columns of a table, read once per database (a view's own columns are not among them). */
export function tableColumns(db: Db, dialect: Dialect, table: string): Promise<Set<string>> {
  let tables = columnsOfTables.get(db);
  if (!tables) columnsOfTables.set(db, (tables = new Map()));
  let found = tables.get(table);
  if (!found) {
    const query =
      dialect === 'postgres'
        ? sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`
        : sql<{ name: string }>`select name from pragma_table_info(${table})`;
    found = query.execute(db).then(({ rows }) => new Set(rows.map((r) => r.name)));
    tables.set(table, found);
  }
  return found;
}

/** The columns a list's conditions read: the scope's, the filters' and, with q, the searched ones. */
export function conditionColumns(resource: ResourceDeclaration, scope: Record<string, unknown>, params: Pick<ListParams, 'filter' | 'q'>): string[] {
  const filtered = Object.keys(params.filter).map((key) => {
    const range = /^(.*)_(gte|lte)$/.exec(key);
    return range && resource.fields[range[1]]?.filter === 'range' ? range[1] : key;
  });
  const searched = params.q ? Object.entries(resource.fields).filter(([, f]) => f.search).map(([name]) => name) : [];
  return [...Object.keys(scope), ...filtered, ...searched];
}

/** The planner's row count of a table (kept by ANALYZE / autovacuum), or undefined when it has none. */
export async function rowEstimate(db: Db, dialect: Dialect, table: string): Promise<number | undefined> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ n: number }>`select reltuples::bigint as n from pg_class where oid = to_regclass(${`"${table}"`})`.execute(db);
    const n = Number(rows[0]?.n);
    return n > 0 ? n : undefined;
  }
  const stat = await sql<{ stat: string }>`select stat from sqlite_stat1 where tbl = ${table}`.execute(db).catch(() => ({ rows: [] }));
  const n = Math.max(0, ...stat.rows.map((r) => Number.parseInt(r.stat, 10) || 0));
  return n > 0 ? n : undefined;
}
