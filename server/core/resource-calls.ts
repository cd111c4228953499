/**
 * Derives a resource's list / get / create / update / delete calls in each area from its
 * declaration: validation, scoping to the caller's customer, uniqueness, audit log. What is
 * special about a resource comes in as its behaviour (server/resources/).
 */
import { sql } from 'kysely';
import { z } from 'zod';
import {
  areas,
  fieldSchema,
  idSchema,
  operations,
  pathOf,
  type Area,
  type CustomerAccess,
  type Operation,
  type OperatorRole,
  type ResourceDeclaration,
} from '../../resources/define.js';
import type { DatabaseHandle, Db, Dialect } from '../db/index.js';
import type { Actor } from './actor.js';
import { audit, changedFields } from './audit.js';
import { defineCall, type CallContext, type CallSpec } from './calls.js';
import { fieldError, forbidden, notFound } from './errors.js';
import { searchTableOf } from '../db/migrations/helpers.js';
import { conditionColumns, COUNT_LIMIT, inScope, listOrder, listParams, listShape, listTemplate, listWhere, plannedRows, rowEstimate, searchIndexes, SORT_LIMIT, tableColumns, type CompiledList, type ListResult } from './list-query.js';
import { now } from './time.js';

export type Row = Record<string, unknown> & { id: number };

// List shapes kept per resource and area (their SQL: listTemplate).
const TEMPLATES = 200;

export interface Change {
  op: 'create' | 'update' | 'delete';
  before?: Row;
  /** The record as it will be (create, update), with the columns toRow produced. */
  after?: Record<string, unknown>;
  /** In `after`: the values the call asked to write, virtual fields included (what update changes). */
  requested?: Record<string, unknown>;
}

export interface WriteContext extends CallContext {
  trx: Db;
  area: Area;
}

/** What is special about a resource; every hook is optional. */
export interface ResourceBehaviour {
  /**
   * Slow work done before the transaction opens (password hashing): on SQLite a transaction
   * holds the only connection, and every other request would wait for it. What it returns
   * is written with the record, like toRow's values.
   */
  prepare?(input: Record<string, unknown>, op: 'create' | 'update'): Promise<Record<string, unknown>>;
  /** Turns validated input into column values (hash a password, add derived columns). */
  toRow?(input: Record<string, unknown>, change: Change, ctx: WriteContext): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Business rules checked inside the transaction before writing; throw an AppError to refuse. */
  check?(change: Change, ctx: WriteContext): Promise<void> | void;
  /** Consequences inside the same transaction (revoke sessions, …). */
  after?(change: Change & { after?: Row }, ctx: WriteContext): Promise<void> | void;
  /**
   * A create call of its own instead of inserting the record (team members are invited, not
   * made): its input, summary and work. Path and access still come from the declaration.
   */
  create?: { summary: string; input: z.ZodType; handler(input: any, ctx: CallContext): Promise<unknown> };
  /** Just before a record is deleted (after check), in the same transaction: what must outlive it (a mailbox's mail). */
  beforeRemove?(before: Row, ctx: WriteContext): Promise<void> | void;
}

export const idInput = z.object({ id: idSchema });

export function resourceCalls(resource: ResourceDeclaration, behaviour: ResourceBehaviour = {}): CallSpec<any, any>[] {
  const calls: CallSpec<any, any>[] = [];
  if (resource.calls === 'own') return calls;
  for (const area of areas) {
    const config = resource[area];
    if (!config) continue;
    const store = resourceStore(resource, area);
    for (const op of operations) {
      const access = config[op] as CustomerAccess | readonly OperatorRole[] | undefined;
      if (!access) continue;
      const base = {
        path: `/api/${area}/${pathOf(resource, area)}/${op}`,
        auth: area === 'admin' ? ('customer' as const) : ('operator' as const),
        tag: `${area}/${pathOf(resource, area)}`,
        allow: area === 'admin' ? allowCustomer(access as CustomerAccess) : undefined,
        roles: area === 'manage' ? (access as readonly OperatorRole[]) : undefined,
      };
      const scope = (ctx: CallContext) => scopeOf(resource, area, ctx.actor);
      const visible = (ctx: CallContext) => ({ ...scope(ctx), ...teamScopeOf(resource, area, ctx.actor) });
      // A record a team member may not see can neither be made nor moved into their view.
      const mustBeVisible = (ctx: CallContext, row: Record<string, unknown>) => {
        const team = teamScopeOf(resource, area, ctx.actor);
        for (const [column, ids] of Object.entries(team)) if (!ids.includes(Number(row[column]))) throw forbidden();
      };
      const write = <T>(ctx: CallContext, work: (w: WriteContext) => Promise<T>) =>
        ctx.services.db.transaction().execute((trx) => work({ ...ctx, trx, area }));
      switch (op) {
        case 'list':
          calls.push(
            defineCall({
              ...base,
              method: config.listVia === 'query' ? 'GET' : 'POST',
              summary: withNotes(`List ${resource.name} records (page, page_size, sort, order, filter, q)`, config.notes?.list),
              input: listParams,
              handler: (params, ctx) => store.list(ctx.services.database, visible(ctx), params),
            }),
          );
          break;
        case 'get':
          calls.push(
            defineCall({
              ...base,
              method: 'GET',
              summary: withNotes(`One ${resource.name} record by ?id=`, config.notes?.get),
              input: idInput,
              handler: async ({ id }, ctx) => (await store.find(ctx.services.db, visible(ctx), id)) ?? Promise.reject(notFound()),
            }),
          );
          break;
        case 'create':
          if (behaviour.create) {
            const own = behaviour.create;
            calls.push(defineCall({ ...base, method: 'POST', summary: withNotes(own.summary, config.notes?.create), input: own.input, handler: own.handler }));
            break;
          }
          calls.push(
            defineCall({
              ...base,
              method: 'POST',
              summary: withNotes(`Create a ${resource.name} record`, config.notes?.create),
              input: inputSchema(resource, 'create', area),
              handler: async (input, ctx) => {
                const prepared = (await behaviour.prepare?.(input, 'create')) ?? {};
                return write(ctx, async (w) => {
                  const values: Record<string, unknown> = { ...defaultsOf(resource), ...input, ...scope(ctx), ...prepared };
                  const change: Change = { op: 'create', after: values };
                  const row = { ...values, ...(await behaviour.toRow?.(values, change, w)) };
                  change.after = row;
                  mustBeVisible(ctx, row);
                  await store.checkUnique(w.trx, row);
                  await behaviour.check?.(change, w);
                  let created = await store.insert(w.trx, row);
                  if (behaviour.after) {
                    await behaviour.after({ ...change, requested: row, after: created }, w);
                    created = (await store.find(w.trx, {}, created.id))!;
                  }
                  await audit(w.trx, w, { action: 'create', targetType: resource.name, targetId: created.id, userId: store.ownerOf(created), after: created });
                  return created;
                });
              },
            }),
          );
          break;
        case 'update':
          calls.push(
            defineCall({
              ...base,
              method: 'POST',
              summary: withNotes(`Update a ${resource.name} record (id and the fields to change)`, config.notes?.update),
              input: inputSchema(resource, 'update', area),
              handler: async ({ id: rawId, ...input }, ctx) => {
                const prepared = (await behaviour.prepare?.(input, 'update')) ?? {};
                return write(ctx, async (w) => {
                  const id = rawId as number;
                  const before = await store.find(w.trx, visible(ctx), id);
                  if (!before) throw notFound();
                  const change: Change = { op: 'update', before, after: { ...before, ...input } };
                  const changes = { ...input, ...prepared, ...(await behaviour.toRow?.(input, change, w)) };
                  change.after = { ...before, ...changes };
                  mustBeVisible(ctx, change.after);
                  await store.checkUnique(w.trx, changes, id);
                  await behaviour.check?.(change, w);
                  let updated = await store.update(w.trx, id, changes);
                  if (behaviour.after) {
                    await behaviour.after({ ...change, requested: changes, after: { ...change.after, ...updated } }, w);
                    updated = (await store.find(w.trx, {}, id))!;
                  }
                  const diff = changedFields(before, updated);
                  const passwordChanged = 'password' in input;
                  if (Object.keys(diff.after).length > 0 || passwordChanged) {
                    await audit(w.trx, w, {
                      action: passwordChanged ? 'update_with_password' : 'update',
                      targetType: resource.name,
                      targetId: id,
                      userId: store.ownerOf(updated),
                      ...diff,
                    });
                  }
                  return updated;
                });
              },
            }),
          );
          break;
        case 'delete':
          calls.push(
            defineCall({
              ...base,
              method: 'POST',
              summary: withNotes(`Delete a ${resource.name} record by id`, config.notes?.delete),
              input: idInput,
              handler: ({ id }, ctx) =>
                write(ctx, async (w) => {
                  const before = await store.find(w.trx, visible(ctx), id);
                  if (!before) throw notFound();
                  await behaviour.check?.({ op: 'delete', before }, w);
                  await behaviour.beforeRemove?.(before, w);
                  await store.remove(w.trx, id);
                  await behaviour.after?.({ op: 'delete', before }, w);
                  await audit(w.trx, w, { action: 'delete', targetType: resource.name, targetId: id, userId: store.ownerOf(before), before });
                  return { id };
                }),
            }),
          );
          break;
      }
    }
  }
  return calls;
}

const withNotes = (summary: string, notes?: string) => (notes ? `${summary}. ${notes}` : summary);

/** 'owner': the customer account itself; 'team': its team members too. */
function allowCustomer(access: CustomerAccess) {
  return (actor: Actor) => actor.kind === 'customer' && (access === 'team' || actor.isOwner);
}

/** The column values that bound what the caller may see and touch of a resource. */
export function scopeOf(resource: ResourceDeclaration, area: Area, actor: Actor): Record<string, string | number | null> {
  const scope = { ...resource.where };
  if (area === 'admin' && resource.owner && actor.kind === 'customer') scope[resource.owner] = actor.customerId;
  return scope;
}

/** The record with that id if the caller may see it (customer scope, team member's domains), else not found. */
export async function findVisible(resource: ResourceDeclaration, area: Area, ctx: CallContext, id: number, db: Db = ctx.services.db): Promise<Row> {
  const scope = { ...scopeOf(resource, area, ctx.actor), ...teamScopeOf(resource, area, ctx.actor) };
  const row = await resourceStore(resource, area).find(db, scope, id);
  if (!row) throw notFound();
  return row;
}

/** A team member's extra bound: only records of their domains (resources that declare `teamScope`). */
export function teamScopeOf(resource: ResourceDeclaration, area: Area, actor: Actor): Record<string, number[]> {
  if (area !== 'admin' || !resource.teamScope || actor.kind !== 'customer' || actor.isOwner) return {};
  return { [resource.teamScope]: actor.domainIds ?? [] };
}

function defaultsOf(resource: ResourceDeclaration) {
  return Object.fromEntries(
    Object.entries(resource.fields)
      .filter(([, f]) => f.default !== undefined)
      .map(([name, f]) => [name, f.default]),
  );
}

/** The accepted body of create (required fields required) or update (id + any writable field). */
export function inputSchema(resource: ResourceDeclaration, op: Extract<Operation, 'create' | 'update'>, area?: Area) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    const writable = field.writable ?? 'always';
    if (writable === 'never' || (op === 'update' && writable === 'create')) continue;
    if (field.writableIn && area && field.writableIn !== area) continue;
    const schema = fieldSchema(field);
    shape[name] = op === 'create' && field.required ? schema : schema.optional();
  }
  return op === 'update' ? idInput.extend(shape) : z.object(shape);
}

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

    async checkUnique(db: Db, values: Record<string, unknown>, exceptId?: number) {
      for (const [name, field] of Object.entries(resource.fields)) {
        if (!field.unique || values[name] === undefined) continue;
        let query = (db as any).selectFrom(table).select('id').where(name, '=', values[name]);
        if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
        if (await query.executeTakeFirst()) throw fieldError(name, 'validation.taken');
      }
    },

    async insert(db: Db, values: Record<string, unknown>): Promise<Row> {
      const at = now();
      const stamps = resource.timestamps ? { created_at: at, updated_at: at } : {};
      const { id } = await (db as any).insertInto(table).values({ ...writable(values), ...stamps }).returning('id').executeTakeFirstOrThrow();
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
