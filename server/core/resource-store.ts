/**
 * Reads and writes of one resource's table, always within a scope (core/scope.ts): lists with
 * the list vocabulary, one record, uniqueness, insert, update, remove.
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Area, ResourceDeclaration } from '../../resources/define.js';
import type { DatabaseHandle, Db, Dialect } from '../db/index.js';
import { searchTableOf } from '../db/migrations/helpers.js';
import { fieldError } from './errors.js';
import { conditionColumns, COUNT_LIMIT, inScope, listOrder, listParams, listShape, listTemplate, listWhere, plannedRows, rowEstimate, searchIndexes, SORT_LIMIT, tableColumns, type CompiledList, type ListResult } from './list-query.js';
import { now } from './time.js';

export type Row = Record<string, unknown> & { id: number };

// List shapes kept per resource and area (their SQL: listTemplate).
const TEMPLATES = 200;

/** Reads and writes of one resource's table, always within a scope; reads through the area's view when it has one. */
export function resourceStore(resource: ResourceDeclaration, area?: Area) {
  const { table } = resource;
  const source = (area && resource[area]?.view) ?? resource.view ?? table;
  // A virtual field is a column only of the resource's view; without a view it is input alone (a ticket's first message).
  const visible = Object.entries(resource.fields).filter(([, f]) => !f.writeOnly && (!f.virtual || source !== resource.table));
  const columns = [...new Set(['id', ...visible.map(([name]) => name), ...(resource.owner ? [resource.owner] : [])])];
  const columnSet = new Set(columns);
  const jsonFields = visible.filter(([, f]) => f.kind === 'json').map(([name]) => name);

  const present = (row: Record<string, unknown>): Row => {
    for (const name of jsonFields) {
      if (typeof row[name] === 'string') row[name] = JSON.parse(row[name] as string);
    }
    return row as Row;
  };
  // Only table columns are written: values of fields and of the scope and toRow.
  const writable = (values: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== undefined && !resource.fields[key]?.writeOnly && !resource.fields[key]?.virtual));

  // A list's SQL per shape (listTemplate), at most TEMPLATES of them.
  const templates = new Map<string, ReturnType<typeof listTemplate>>();
  const onlyTableColumns = async (db: Db, dialect: Dialect, names: string[]) => {
    const inTable = await tableColumns(db, dialect, table);
    return names.every((name) => inTable.has(name));
  };

  return {
    ownerOf(row: Record<string, unknown>): number | null {
      return resource.owner ? ((row[resource.owner] as number | null) ?? null) : null;
    },

    /** The two queries of a list call: the page, and its count (which stops after COUNT_LIMIT + 1 matches). */
    async listQueries(db: Db, dialect: Dialect, scope: Record<string, unknown>, params: z.output<typeof listParams>): Promise<{ rows: CompiledList; count: CompiledList }> {
      const order = listOrder(resource, params);
      const indexed = dialect === 'sqlite' && params.q ? (await searchIndexes(db)).get(searchTableOf(table)) : undefined;
      const { conditions, values } = listShape(resource, dialect, scope, params, indexed);
      // The resource's view is its table's rows and columns plus computed ones (usage, names):
      // unless a condition reads one of those, the count reads the table, an index read
      // (mailbox_view's join would probe mailbox_usage once per counted mailbox). An area's
      // view masks values, so its conditions are always read through it.
      const countFrom = source === resource.view && (await onlyTableColumns(db, dialect, conditionColumns(resource, scope, params))) ? table : source;
      // The page's limit and offset take the last two slots.
      const slots = [...values, params.page_size, (params.page - 1) * params.page_size];
      const [limitSlot, offsetSlot] = [values.length, values.length + 1];
      const queries = (valueAt: (slot: number) => unknown) => {
        const where = listWhere(conditions, valueAt);
        const matching = (from: string) => {
          const all = (db as Db as any).selectFrom(from);
          return conditions.length ? all.where((eb: any) => eb.and(where(eb))) : all;
        };
        const base = matching(source);
        const inOrder = (query: any) => query.orderBy(order.field, order.order).orderBy('id', order.order);
        const page = (query: any) => inOrder(query).limit(valueAt(limitSlot)).offset(valueAt(offsetSlot));
        const matches = (countFrom === source ? base : matching(countFrom)).select(sql`1`.as('one')).limit(COUNT_LIMIT + 1);
        return {
          base,
          rows: page(base.select(columns)),
          // The matches materialized (so never a walk in order) and sorted; then the page's rows.
          sortedRows: () => {
            const found = (db as any).with((cte: any) => cte('matches').materialized(), () => base.select([...new Set(['id', order.field])]));
            return inOrder((db as any).selectFrom(source).select(columns).where('id', 'in', page(found.selectFrom('matches').select('id'))));
          },
          count: (db as any).selectFrom(matches.as('matches')).select((eb: any) => eb.fn.countAll().as('total')),
        };
      };
      if (dialect === 'postgres' && params.q) {
        // Whether the page is sorted from the matches is the planner's estimate for these values: built for them.
        const built = queries((slot) => slots[slot]);
        const sortMatches = (await plannedRows(db, built.base.select(sql`1`.as('one')))) <= SORT_LIMIT;
        return { rows: sortMatches ? built.sortedRows() : built.rows, count: built.count };
      }
      const key = JSON.stringify([dialect, order, countFrom, conditions]);
      let made = templates.get(key);
      if (!made) {
        if (templates.size >= TEMPLATES) templates.delete(templates.keys().next().value!);
        made = listTemplate(slots.length, (valueAt) => {
          const { rows, count } = queries(valueAt);
          return [rows, count];
        });
        templates.set(key, made);
      }
      const [rows, count] = made(slots);
      return { rows, count };
    },

    async list(database: DatabaseHandle, scope: Record<string, unknown>, params: z.output<typeof listParams>): Promise<ListResult<Row>> {
      const { db, dialect, read } = database;
      const queries = await this.listQueries(db, dialect, scope, params);
      const run = <R>(query: CompiledList) => {
        const { sql: text, parameters } = query.compile();
        return read<R>(text, parameters);
      };
      const [rows, [count]] = await Promise.all([run<Row>(queries.rows), run<{ total: number }>(queries.count)]);
      const page = { list: rows.map(present), page: params.page, page_size: params.page_size };
      const total = Number(count?.total ?? 0);
      if (total <= COUNT_LIMIT) return { ...page, total, total_is_estimate: false };
      const everything = Object.keys(scope).length === 0 && Object.keys(params.filter).length === 0 && !params.q;
      const estimate = everything ? await rowEstimate(db, dialect, table) : undefined;
      if (estimate !== undefined && estimate > COUNT_LIMIT) return { ...page, total: estimate, total_is_estimate: true };
      return { ...page, total: COUNT_LIMIT, total_is_estimate: true, total_is_lower_bound: true };
    },

    async find(db: Db, scope: Record<string, unknown>, id: number): Promise<Row | undefined> {
      const row = await inScope((db as any).selectFrom(source).select(columns).where('id', '=', id), scope).executeTakeFirst();
      return row ? present(row) : undefined;
    },

    async checkUnique(db: Db, values: Record<string, unknown>, exceptId?: number, checkedElsewhere: readonly string[] = []) {
      for (const [name, field] of Object.entries(resource.fields)) {
        if (!field.unique || values[name] === undefined || checkedElsewhere.includes(name)) continue;
        let query = (db as any).selectFrom(table).select('id').where(name, '=', values[name]);
        if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
        if (await query.executeTakeFirst()) throw fieldError(name, 'validation.taken');
      }
    },

    /**
     * The new record as list and get show it: read again after the insert, or, when
     * `viewValues` holds the values of the view's own columns (check() read them), answered by
     * the insert itself (a round trip less).
     */
    async insert(db: Db, values: Record<string, unknown>, viewValues?: Record<string, unknown>): Promise<Row> {
      const at = now();
      const stamps = resource.timestamps ? { created_at: at, updated_at: at } : {};
      const insert = (db as any).insertInto(table).values({ ...writable(values), ...stamps });
      if (viewValues) {
        const inserted = await insert.returning(columns.filter((name) => !(name in viewValues))).executeTakeFirstOrThrow();
        return present(Object.fromEntries(columns.map((name) => [name, name in viewValues ? viewValues[name] : inserted[name]])));
      }
      const { id } = await insert.returning('id').executeTakeFirstOrThrow();
      return present(await (db as any).selectFrom(source).select(columns).where('id', '=', id).executeTakeFirstOrThrow());
    },

    async update(db: Db, id: number, values: Record<string, unknown>): Promise<Row> {
      const changes = { ...writable(values), ...(resource.timestamps ? { updated_at: now() } : {}) };
      if (Object.keys(changes).length > 0) await (db as any).updateTable(table).set(changes).where('id', '=', id).execute();
      return present(await (db as any).selectFrom(source).select(columns).where('id', '=', id).executeTakeFirstOrThrow());
    },

    async remove(db: Db, id: number) {
      await (db as any).deleteFrom(table).where('id', '=', id).execute();
    },

    columns: columnSet,
  };
}
