/**
 * Derives a resource's list / get / create / update / delete calls in each area from its
 * declaration: validation, scoping (core/scope.ts), uniqueness, audit log. What is special about
 * a resource comes in as its behaviour, from the capability that owns it.
 */
import { z } from 'zod';
import {
  areas,
  fieldSchema,
  idSchema,
  inArea,
  operations,
  pathOf,
  type Area,
  type CustomerAccess,
  type MailboxAccess,
  type Operation,
  type OperatorRole,
  type ResourceDeclaration,
} from '../../resources/define.js';
import type { Db } from '../db/index.js';
import type { Actor } from './actor.js';
import { audit, changedFields } from './audit.js';
import { defineCall, type CallContext, type CallSpec, type SignedInAuth } from './calls.js';
import { forbidden, notFound } from './errors.js';
import { listParams } from './list-query.js';
import { resourceStore, type Row } from './resource-store.js';
import { scopeOf, teamScopeOf, visibleScope } from './scope.js';

export type { Row };

export interface Change {
  op: 'create' | 'update' | 'delete';
  before?: Row;
  /** The record as it will be (create, update), with the columns toRow produced. */
  after?: Record<string, unknown>;
  /** In `after`: the values the call asked to write, virtual fields included (what update changes). */
  requested?: Record<string, unknown>;
  /**
   * Create: the values of the view's own columns for the new record (a mailbox's usage), when
   * check() read them with its other reads; the insert then answers the record whole instead of
   * reading it again through the view.
   */
  viewValues?: Record<string, unknown>;
}

export interface WriteContext extends CallContext {
  trx: Db;
  area: Area;
}

/**
 * A call of the resource whose work is its own (a ticket's conversation, an invitation instead
 * of a new team member), at the path, with the access and under the tag the declaration gives.
 */
export interface OwnCall {
  summary: string | ((area: Area) => string);
  /** POST, or GET for get. */
  method?: 'GET' | 'POST';
  /** For a call beyond the five: the operation whose access it has (append_message: update's). */
  access?: Operation;
  input: z.ZodType | ((area: Area) => z.ZodType);
  handler(input: any, ctx: CallContext, area: Area): Promise<unknown>;
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
  /** Unique fields that check() checks itself, in a statement it makes anyway (a round trip less). */
  checksUnique?: readonly string[];
  /** Consequences inside the same transaction (revoke sessions, …). */
  after?(change: Change & { after?: Row }, ctx: WriteContext): Promise<void> | void;
  /** Just before a record is deleted (after check), in the same transaction: what must outlive it (a mailbox's mail). */
  beforeRemove?(before: Row, ctx: WriteContext): Promise<void> | void;
  /** Calls written for the resource: one of the five replaces the derived one; any other name is added. */
  calls?: Record<string, OwnCall>;
}

/** A declared resource with what is special about it on the server, as a capability lists it. */
export interface ServerResource {
  declaration: ResourceDeclaration;
  behaviour?: ResourceBehaviour;
}

export const idInput = z.object({ id: idSchema });

export function resourceCalls(declared: ResourceDeclaration, behaviour: ResourceBehaviour = {}): CallSpec<any, any>[] {
  const calls: CallSpec<any, any>[] = [];
  for (const area of areas) {
    const config = declared[area];
    if (!config) continue;
    const resource = inArea(declared, area);
    const accessOf = (op: Operation) => config[op] as CustomerAccess | readonly OperatorRole[] | MailboxAccess | undefined;
    const baseOf = (op: string, access: CustomerAccess | readonly OperatorRole[] | MailboxAccess) => ({
      path: `/api/${area}/${pathOf(resource, area)}/${op}`,
      auth: authOf[area],
      tag: `${area}/${pathOf(resource, area)}`,
      allow: area === 'admin' ? allowCustomer(access as CustomerAccess) : undefined,
      roles: area === 'manage' ? (access as readonly OperatorRole[]) : undefined,
      keys: resource.apiKeys,
    });
    // The customer a change concerns: the record's owner, or the customer of the mailbox whose record it is.
    const concerns = (row: Record<string, unknown>, ctx: CallContext) => store.ownerOf(row) ?? (ctx.actor.kind === 'mailbox' ? ctx.actor.customerId : null);
    for (const [name, own] of Object.entries(behaviour.calls ?? {})) {
      const access = accessOf(own.access ?? (name as Operation));
      if (!access) continue;
      const summary = typeof own.summary === 'function' ? own.summary(area) : own.summary;
      calls.push(
        defineCall({
          ...baseOf(name, access),
          method: own.method ?? (name === 'get' ? 'GET' : name === 'list' && config.listVia === 'query' ? 'GET' : 'POST'),
          // A list of its own (the ticket queue) changes nothing, as the derived one: read-only keys make it.
          reads: name === 'list' || undefined,
          summary: withNotes(summary, config.notes?.[name as Operation]),
          input: typeof own.input === 'function' ? own.input(area) : own.input,
          handler: (input, ctx) => own.handler(input, ctx, area),
        }),
      );
    }
    const store = resourceStore(resource, area);
    for (const op of operations) {
      const access = accessOf(op);
      if (!access || behaviour.calls?.[op]) continue;
      const base = baseOf(op, access);
      const scope = (ctx: CallContext) => scopeOf(resource, area, ctx.actor);
      const visible = (ctx: CallContext) => visibleScope(resource, area, ctx.actor);
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
              reads: true,
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
                  await store.checkUnique(w.trx, row, undefined, behaviour.checksUnique);
                  await behaviour.check?.(change, w);
                  let created = await store.insert(w.trx, row, change.viewValues);
                  if (behaviour.after) {
                    await behaviour.after({ ...change, requested: row, after: created }, w);
                    created = (await store.find(w.trx, {}, created.id))!;
                  }
                  await audit(w.trx, w, { action: 'create', targetType: resource.name, targetId: created.id, userId: concerns(created, w), after: created });
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
                  await store.checkUnique(w.trx, changes, id, behaviour.checksUnique);
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
                      userId: concerns(updated, w),
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
                  await audit(w.trx, w, { action: 'delete', targetType: resource.name, targetId: id, userId: concerns(before, w), before });
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

/** Whose token each area takes. */
const authOf = { admin: 'customer', manage: 'operator', mail: 'mailbox' } as const satisfies Record<Area, SignedInAuth>;

const withNotes = (summary: string, notes?: string) => (notes ? `${summary}. ${notes}` : summary);

/** 'owner': the customer account itself; 'team': its team members too. */
function allowCustomer(access: CustomerAccess) {
  return (actor: Actor) => actor.kind === 'customer' && (access === 'team' || actor.isOwner);
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

