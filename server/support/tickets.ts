/**
 * Support tickets, as the story goes: a customer (or team member) opens one with a first
 * message; operators answer, add internal notes and move it along; the customer answers or
 * closes it; a ticket left waiting for the customer closes itself. Internal notes and their
 * files never reach the customer area: not in a get, a list, a count or a download.
 */
import type { z } from 'zod';
import type { Area, Field } from '../../resources/define.js';
import { appendInput, ticket as ticketResource, type TicketLinkType, type TicketStatus } from '../../resources/ticket.js';
import { anonymous } from '../core/actor.js';
import { audit, changedFields } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError, fieldError, notFound } from '../core/errors.js';
import { inScope, listConditions, listOrder, type ListParams, type ListResult } from '../core/list-query.js';
import { visibleScope } from '../core/scope.js';
import { freshNumber } from '../core/readable-number.js';
import { DAY_MS, now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { TicketRow } from '../db/schema.js';
import type { Services } from '../core/services.js';
import { checkAttachments, removeFiles, removeFilesJob, storeFile, type CheckedFile, type UploadedFile } from './attachments.js';
import { customerNotice, operatorNotices, sendNotices } from './notify.js';
import { subjectSearch, wordsOf } from './words.js';

type Ctx = CallContext;
type Ticket = Omit<TicketRow, 'id'> & { id: number };
type TicketChanges = Partial<Omit<TicketRow, 'id'>>;

/** What customers never see of a ticket: who works on it and when operators last touched it. */
const hiddenFromCustomers = new Set(['assignee_id', 'updated_at']);
const ticketColumns = ['id', ...Object.entries(ticketResource.fields).filter(([, f]) => !(f as Field).virtual).map(([name]) => name)] as (keyof TicketRow)[];
const columnsFor = (area: Area) => (area === 'admin' ? ticketColumns.filter((c) => !hiddenFromCustomers.has(c)) : ticketColumns);

const isoAfter = (from: string, days: number) => new Date(Date.parse(from) + days * DAY_MS).toISOString();
const secondsBetween = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

/** The tickets the caller may see (the declaration's scope: a customer's own; a team member's own among them), as conditions on ticket's columns. */
const visibleTickets = (ctx: Ctx) => Object.fromEntries(Object.entries(visibleScope(ticketResource, areaOf(ctx), ctx.actor)).map(([column, value]) => [`ticket.${column}`, value]));

async function findTicket(db: Db, ctx: Ctx, id: number, forUpdate = false): Promise<Ticket> {
  let query = inScope(db.selectFrom('ticket').selectAll().where('ticket.id', '=', id), visibleTickets(ctx));
  // Two replies at once change the status one after the other (SQLite writes one at a time anyway).
  if (forUpdate && ctx.services.dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row as Ticket;
}

const areaOf = (ctx: Ctx): Area => (ctx.actor.kind === 'customer' ? 'admin' : 'manage');

function present(row: object, area: Area) {
  return Object.fromEntries(Object.entries(row).filter(([key]) => area === 'manage' || !hiddenFromCustomers.has(key)));
}

/** Who wrote a message, as the conversation shows it. */
function authorOf(ctx: Ctx) {
  const actor = ctx.actor;
  if (actor.kind === 'customer') return { author_type: actor.isOwner ? ('customer' as const) : ('team_member' as const), author_id: actor.accountId, author_name: actor.email };
  if (actor.kind === 'operator') return { author_type: 'operator' as const, author_id: actor.id, author_name: actor.username };
  throw new AppError('forbidden', 'error.forbidden');
}

// ---------------------------------------------------------------- list and read

export async function listTickets(ctx: Ctx, params: ListParams): Promise<ListResult<Record<string, unknown>>> {
  const { db, dialect } = ctx.services;
  const area = areaOf(ctx);
  const filter = { ...params.filter };
  let query = inScope(db.selectFrom('ticket'), visibleTickets(ctx));
  // The queue's "mine" and "unassigned".
  if (area === 'manage' && ctx.actor.kind === 'operator' && (filter.assignee_id === 'mine' || filter.assignee_id === 'none')) {
    query = filter.assignee_id === 'mine' ? query.where('ticket.assignee_id', '=', ctx.actor.id) : query.where('ticket.assignee_id', 'is', null);
    delete filter.assignee_id;
  }
  if (area === 'admin' && 'assignee_id' in filter) throw fieldError('filter.assignee_id', 'validation.unknown_filter', { field: 'assignee_id' });
  const order = listOrder(ticketResource, params);
  const conditions = listConditions(ticketResource, dialect, { filter, q: undefined });
  const q = params.q?.trim();
  query = query.where((eb) => eb.and([...conditions(eb), ...(q ? [subjectSearch(q)(eb)] : [])]));
  const [rows, count] = await Promise.all([
    (area === 'manage'
      ? // Who works on it, by name (any operator may read the queue; not every one may list operators).
        query.select((eb) => eb.selectFrom('admin').select('admin.username').whereRef('admin.id', '=', 'ticket.assignee_id').as('assignee_name'))
      : query
    )
      .select(columnsFor(area).map((c) => `ticket.${c}` as const))
      .orderBy(`ticket.${order.field}` as any, order.order)
      .orderBy('ticket.id', order.order)
      .limit(params.page_size)
      .offset((params.page - 1) * params.page_size)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst(),
  ]);
  return { list: rows as Record<string, unknown>[], total: Number(count?.total ?? 0), total_is_estimate: false, page: params.page, page_size: params.page_size };
}

/** The ticket with its conversation (internal notes only for operators) and what it points at. */
export async function getTicket(ctx: Ctx, id: number, db: Db = ctx.services.db) {
  const area = areaOf(ctx);
  const ticket = await findTicket(db, ctx, id);
  let messages = db.selectFrom('ticket_message').select(['id', 'author_type', 'author_id', 'author_name', 'body', 'internal', 'created_at']).where('ticket_id', '=', id);
  let files = db.selectFrom('ticket_attachment').select(['id', 'message_id', 'file_name', 'content_type', 'size']).where('ticket_id', '=', id);
  if (area === 'admin') {
    messages = messages.where('internal', '=', 0);
    files = files.where('internal', '=', 0);
  }
  const [messageRows, fileRows] = await Promise.all([messages.orderBy('id', 'asc').execute(), files.orderBy('id', 'asc').execute()]);
  const link = await linkNameOf(db, ticket);
  const assignee =
    area === 'manage' && ticket.assignee_id ? await db.selectFrom('admin').select('username').where('id', '=', ticket.assignee_id).executeTakeFirst() : undefined;
  return {
    ...present(ticket, area),
    link_name: link,
    ...(area === 'manage' ? { assignee_name: assignee?.username ?? null } : {}),
    messages: messageRows.map((m) => ({
      ...(area === 'admin' ? { ...m, internal: undefined, author_id: undefined } : m),
      attachments: fileRows.filter((f) => f.message_id === m.id).map(({ message_id: _, ...f }) => f),
    })),
  };
}

/** What the linked record is called where people see it: a domain's or mailbox's name, an order's number. */
async function linkNameOf(db: Db, ticket: Ticket): Promise<string | null> {
  if (!ticket.link_type || !ticket.link_id) return null;
  const type = ticket.link_type as TicketLinkType;
  if (type === 'domain') return (await db.selectFrom('domain').select('name_unicode').where('id', '=', ticket.link_id).executeTakeFirst())?.name_unicode ?? null;
  if (type === 'order') return (await db.selectFrom('shop_order').select('number').where('id', '=', ticket.link_id).executeTakeFirst())?.number ?? null;
  return (await db.selectFrom('mailbox').select('address_unicode').where('id', '=', ticket.link_id).executeTakeFirst())?.address_unicode ?? null;
}

// ---------------------------------------------------------------- open

export interface OpenInput {
  subject: string;
  category: string;
  priority?: string;
  message: string;
  owner_id?: number;
  assignee_id?: number | null;
  link_type?: string;
  link_id?: number;
  attachments: UploadedFile[];
}

export async function openTicket(ctx: Ctx, input: OpenInput) {
  const { services } = ctx;
  const area = areaOf(ctx);
  const files = checkAttachments(input.attachments, services.config);
  const ownerId = ctx.actor.kind === 'customer' ? ctx.actor.customerId : Number(input.owner_id);
  const author = authorOf(ctx);
  const stored: string[] = [];
  try {
    // Kept before the transaction (the file store may be this same database, or a bucket); removed again if it rolls back.
    for (const file of files) stored.push(await storeFile(services.files, file.data));
    const id = await services.db.transaction().execute(async (trx) => {
      if (area === 'manage') {
        const owner = await trx.selectFrom('user').select('id').where('id', '=', ownerId).where('owner_id', 'is', null).executeTakeFirst();
        if (!owner) throw fieldError('owner_id', 'validation.not_a_customer');
        if (input.assignee_id) await checkAssignee(trx, input.assignee_id);
      }
      await checkLink(trx, ctx, ownerId, input.link_type, input.link_id);
      const number = await freshNumber(trx, 'ticket');
      const at = now();
      const byOperator = area === 'manage';
      const { id } = await trx
        .insertInto('ticket')
        .values({
          number,
          owner_id: ownerId,
          author_id: ctx.actor.kind === 'customer' ? ctx.actor.accountId : null,
          subject: input.subject,
          category: input.category,
          priority: input.priority ?? 'normal',
          // A ticket an operator opens already holds the provider's word: it is the customer's turn.
          status: byOperator ? 'answered' : 'open',
          assignee_id: byOperator ? (input.assignee_id ?? null) : null,
          link_type: input.link_type ?? null,
          link_id: input.link_id ?? null,
          last_activity_at: at,
          last_reply_by: byOperator ? 'operator' : 'customer',
          waiting_since: byOperator ? null : at,
          first_response_at: byOperator ? at : null,
          first_response_seconds: null,
          closed_at: null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await indexWords(trx, id, input.subject);
      const messageId = await addMessage(trx, { ticketId: id, ownerId, author, body: input.message, internal: false, files, stored });
      const created = await findTicket(trx, ctx, id);
      await audit(trx, ctx, { action: 'create', targetType: 'ticket', targetId: id, userId: ownerId, after: { ...present(created, 'admin'), message_id: messageId } });
      await sendNotices(trx, services, byOperator ? customerNotice(trx, services, created, 'ticket_reply', input.message) : operatorNotices(trx, services, created, 'ticket_new', input.message));
      return id;
    });
    return getTicket(ctx, id);
  } catch (error) {
    await removeFiles(services.files, stored);
    throw error;
  }
}

async function checkAssignee(db: Db, id: number) {
  const operator = await db.selectFrom('admin').select('id').where('id', '=', id).where('status', '=', 'active').executeTakeFirst();
  if (!operator) throw fieldError('assignee_id', 'validation.unknown_operator');
}

/**
 * A link points at one of the customer's own records; a team member's at a domain or mailbox
 * in their domains (orders are the account owner's, as the order pages are).
 */
async function checkLink(db: Db, ctx: Ctx, ownerId: number, type: string | undefined, id: number | undefined) {
  if (type === undefined && id === undefined) return;
  if (type === undefined || id === undefined) throw fieldError(type === undefined ? 'link_type' : 'link_id', 'validation.required');
  const domainIds = ctx.actor.kind === 'customer' && !ctx.actor.isOwner ? (ctx.actor.domainIds ?? []) : undefined;
  const linkType = type as TicketLinkType;
  if (linkType === 'order') {
    const order = domainIds ? undefined : await db.selectFrom('shop_order').select('id').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    if (!order) throw fieldError('link_id', 'validation.unknown_record');
    return;
  }
  const row =
    linkType === 'domain'
      ? await db.selectFrom('domain').select(['id', 'id as domain_id']).where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst()
      : await db.selectFrom('mailbox').select(['id', 'domain_id']).where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  if (!row || (domainIds && !domainIds.includes(Number(row.domain_id)))) throw fieldError('link_id', 'validation.unknown_record');
}

async function indexWords(db: Db, ticketId: number, subject: string) {
  await db.deleteFrom('ticket_word').where('ticket_id', '=', ticketId).execute();
  const words = wordsOf(subject);
  if (words.length) await db.insertInto('ticket_word').values(words.map((word) => ({ word, ticket_id: ticketId }))).execute();
}

async function addMessage(
  db: Db,
  m: { ticketId: number; ownerId: number; author: ReturnType<typeof authorOf>; body: string; internal: boolean; files: CheckedFile[]; stored: string[] },
): Promise<number> {
  const at = now();
  const { id } = await db
    .insertInto('ticket_message')
    .values({ ticket_id: m.ticketId, owner_id: m.ownerId, ...m.author, body: m.body, internal: m.internal ? 1 : 0, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [i, file] of m.files.entries()) {
    const storedName = m.stored[i];
    await db
      .insertInto('ticket_attachment')
      .values({
        ticket_id: m.ticketId,
        message_id: id,
        owner_id: m.ownerId,
        internal: m.internal ? 1 : 0,
        file_name: file.fileName,
        stored_name: storedName,
        content_type: file.contentType,
        size: file.data.length,
        created_at: at,
      })
      .execute();
  }
  return id;
}

// ---------------------------------------------------------------- conversation

type AppendInput = (z.output<(typeof appendInput)['manage']> | z.output<(typeof appendInput)['admin']>) & { attachments: UploadedFile[] };

export async function appendMessage(ctx: Ctx, input: AppendInput) {
  const { services } = ctx;
  const files = checkAttachments(input.attachments, services.config);
  const author = authorOf(ctx);
  const internal = ctx.actor.kind === 'operator' && 'internal' in input && input.internal;
  const stored: string[] = [];
  try {
    // Kept before the transaction (the file store may be this same database, or a bucket); removed again if it rolls back.
    for (const file of files) stored.push(await storeFile(services.files, file.data));
    await services.db.transaction().execute(async (trx) => {
      const ticket = await findTicket(trx, ctx, input.id, true);
      const at = now();
      let changes: TicketChanges = {};
      if (ctx.actor.kind === 'customer') {
        if (ticket.status === 'closed' && ticket.closed_at && isoAfter(ticket.closed_at, services.config.ticketReopenDays) < at) {
          throw new AppError('conflict', 'error.ticket_closed', { days: services.config.ticketReopenDays, smart_count: services.config.ticketReopenDays });
        }
        // The customer's turn is over (or a closed ticket reopens): the operators' clock runs from the first unanswered message.
        const waiting = ticket.status === 'open' && ticket.waiting_since ? ticket.waiting_since : at;
        changes = { status: 'open', closed_at: null, waiting_since: waiting, last_activity_at: at, last_reply_by: 'customer', updated_at: at };
      } else if (!internal) {
        const status: TicketStatus = ('status' in input && input.status) || 'answered';
        changes = {
          status,
          closed_at: status === 'closed' ? at : null,
          waiting_since: null,
          last_activity_at: at,
          last_reply_by: 'operator',
          first_response_at: ticket.first_response_at ?? at,
          first_response_seconds: ticket.first_response_at ? ticket.first_response_seconds : secondsBetween(ticket.created_at, at),
          updated_at: at,
        };
      }
      const messageId = await addMessage(trx, { ticketId: ticket.id, ownerId: ticket.owner_id, author, body: input.body, internal, files, stored });
      if (Object.keys(changes).length) await trx.updateTable('ticket').set(changes).where('id', '=', ticket.id).execute();
      await audit(trx, ctx, {
        action: internal ? 'note' : 'reply',
        targetType: 'ticket',
        targetId: ticket.id,
        // A note is the operators' business: it stays out of the customer's own log.
        userId: internal ? null : ticket.owner_id,
        after: { message_id: messageId, ...(changes.status ? { status: changes.status } : {}), attachments: files.map((f) => f.fileName) },
      });
      const after = { ...ticket, ...changes } as Ticket;
      if (ctx.actor.kind === 'customer') await sendNotices(trx, services, operatorNotices(trx, services, after, 'ticket_customer_reply', input.body));
      else if (!internal) await sendNotices(trx, services, customerNotice(trx, services, after, changes.status === 'closed' ? 'ticket_closed' : 'ticket_reply', input.body));
    });
  } catch (error) {
    await removeFiles(services.files, stored);
    throw error;
  }
  return getTicket(ctx, input.id);
}

// ---------------------------------------------------------------- change

export interface UpdateInput {
  id: number;
  subject?: string;
  category?: string;
  priority?: string;
  status?: string;
  assignee_id?: number | null;
}

export async function updateTicket(ctx: Ctx, input: UpdateInput) {
  const { services } = ctx;
  await services.db.transaction().execute(async (trx) => {
    const before = await findTicket(trx, ctx, input.id, true);
    const { id, ...requested } = input;
    if (ctx.actor.kind === 'customer' && requested.status !== undefined && requested.status !== 'closed' && requested.status !== before.status) {
      // Customers close; they reopen by writing a message.
      throw fieldError('status', 'validation.customer_close_only');
    }
    if (requested.assignee_id) await checkAssignee(trx, requested.assignee_id);
    const at = now();
    const changes: TicketChanges = Object.fromEntries(Object.entries(requested).filter(([key, value]) => value !== undefined && (before as any)[key] !== value));
    if (changes.status) {
      const status = changes.status as TicketStatus;
      changes.closed_at = status === 'closed' ? at : null;
      changes.waiting_since = status === 'open' ? (before.waiting_since ?? at) : null;
    }
    if (Object.keys(changes).length === 0) return;
    await trx.updateTable('ticket').set({ ...changes, updated_at: at }).where('id', '=', id).execute();
    if (changes.subject) await indexWords(trx, id, changes.subject);
    const after = { ...before, ...changes } as Ticket;
    // What the customer sees goes to their log; who works on the ticket stays with the operators.
    const { assignee_id: assigneeBefore, ...visibleBefore } = before;
    const { assignee_id: assigneeAfter, ...visibleAfter } = after;
    const visible = changedFields(visibleBefore as Record<string, unknown>, visibleAfter as Record<string, unknown>);
    if (Object.keys(visible.after).length) await audit(trx, ctx, { action: 'update', targetType: 'ticket', targetId: id, userId: before.owner_id, ...visible });
    if (assigneeBefore !== assigneeAfter) {
      await audit(trx, ctx, { action: 'assign', targetType: 'ticket', targetId: id, userId: null, before: { assignee_id: assigneeBefore }, after: { assignee_id: assigneeAfter } });
    }
    if (ctx.actor.kind === 'operator' && changes.status === 'closed') await sendNotices(trx, services, customerNotice(trx, services, after, 'ticket_closed', ''));
  });
  return getTicket(ctx, input.id);
}

// ---------------------------------------------------------------- remove

/** Operators (superadmin) delete; a customer withdraws a ticket no operator has answered. Files go once the deletion is committed. */
export async function deleteTicket(ctx: Ctx, id: number) {
  const { services } = ctx;
  await services.db.transaction().execute(async (trx) => {
    const before = await findTicket(trx, ctx, id, true);
    if (ctx.actor.kind === 'customer' && before.first_response_at) throw new AppError('conflict', 'error.ticket_answered');
    const files = await trx.selectFrom('ticket_attachment').select('stored_name').where('ticket_id', '=', id).execute();
    await trx.deleteFrom('ticket').where('id', '=', id).execute();
    await audit(trx, ctx, { action: 'delete', targetType: 'ticket', targetId: id, userId: before.owner_id, before: present(before, 'admin') });
    // The files go once the rows are gone for good: a rolled-back deletion keeps them.
    if (files.length) await services.jobs.enqueue(trx, removeFilesJob, { storedNames: files.map((f) => f.stored_name) });
  });
  return { id };
}

// ---------------------------------------------------------------- files

/** One attachment, if the caller may read its ticket (customers: never an internal note's file). */
export async function findAttachment(ctx: Ctx, id: number) {
  let query = inScope(
    ctx.services.db
      .selectFrom('ticket_attachment')
      .innerJoin('ticket', 'ticket.id', 'ticket_attachment.ticket_id')
      .select(['ticket_attachment.file_name', 'ticket_attachment.stored_name', 'ticket_attachment.content_type', 'ticket_attachment.size'])
      .where('ticket_attachment.id', '=', id),
    visibleTickets(ctx),
  );
  if (ctx.actor.kind === 'customer') query = query.where('ticket_attachment.internal', '=', 0);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

// ---------------------------------------------------------------- time

/** Tickets waiting for the customer with no answer for TICKET_AUTOCLOSE_DAYS close themselves (run by a schedule). */
export async function closeWaitingTickets(services: Services): Promise<number> {
  const { db, config } = services;
  const at = now();
  const cutoff = isoAfter(at, -config.ticketAutocloseDays);
  const due = await db.selectFrom('ticket').select('id').where('status', '=', 'waiting_customer').where('last_activity_at', '<', cutoff).orderBy('last_activity_at').limit(1000).execute();
  let closed = 0;
  for (const { id } of due) {
    await db.transaction().execute(async (trx) => {
      // Guarded: a customer's answer that arrived meanwhile keeps the ticket open.
      const result = await trx
        .updateTable('ticket')
        .set({ status: 'closed', closed_at: at, waiting_since: null, updated_at: at })
        .where('id', '=', id)
        .where('status', '=', 'waiting_customer')
        .where('last_activity_at', '<', cutoff)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return;
      closed++;
      const ticket = (await trx.selectFrom('ticket').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Ticket;
      await audit(trx, { actor: anonymous, ip: '', userAgent: 'ticket auto-close' }, { action: 'auto_close', targetType: 'ticket', targetId: id, userId: ticket.owner_id, before: { status: 'waiting_customer' }, after: { status: 'closed' } });
      await sendNotices(trx, services, customerNotice(trx, services, ticket, 'ticket_closed', ''));
    });
  }
  return closed;
}
