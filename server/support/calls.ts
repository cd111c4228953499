/** The ticket calls of both areas (the specification's twelve) and the attachment download. */
import { z } from 'zod';
import { idSchema, pathOf, staff, type Area } from '../../resources/define.js';
import { appendInput, ticket } from '../../resources/ticket.js';
import { defineCall, FileAnswer, type CallContext, type CallSpec } from '../core/calls.js';
import { listParams } from '../core/list-query.js';
import { idInput, inputSchema } from '../core/resource-calls.js';
import { attachmentDisposition, attachmentsInput, readStoredFile } from './attachments.js';
import { appendMessage, deleteTicket, findAttachment, getTicket, listTickets, openTicket, updateTicket, type OpenInput, type UpdateInput } from './tickets.js';

/** Unassigning sends null (or an empty value from a form). */
const assignee = z
  .preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), z.union([z.null(), idSchema]))
  .optional();

function callsOf(area: Area): CallSpec<any, any>[] {
  const config = ticket[area]!;
  const base = {
    auth: area === 'admin' ? ('customer' as const) : ('operator' as const),
    tag: `${area}/ticket`,
  };
  const path = (op: string) => `/api/${area}/${pathOf(ticket, area)}/${op}`;
  const roles = (op: 'list' | 'get' | 'create' | 'update' | 'delete'): readonly ('superadmin' | 'support' | 'billing')[] | undefined => (area === 'manage' ? ((config as Record<string, unknown>)[op] as readonly ('superadmin' | 'support' | 'billing')[]) : undefined);
  const note = (op: string) => (config.notes as Record<string, string> | undefined)?.[op] ?? '';
  const ctxOf = (ctx: CallContext) => ctx as CallContext<'customer'> | CallContext<'operator'>;
  const files = 'Also as multipart/form-data, with files in `attachments` (ATTACHMENT_MAX_COUNT files of at most ATTACHMENT_MAX_BYTES; png, jpeg, gif, webp, pdf, plain text, checked by content).';
  return [
    defineCall({ ...base, method: 'POST', path: path('list'), roles: roles('list'), summary: `List tickets (page, page_size, sort, order, filter, q). ${note('list')}`, input: listParams, handler: (params, ctx) => listTickets(ctxOf(ctx), params) }),
    defineCall({ ...base, method: 'GET', path: path('get'), roles: roles('get'), summary: `One ticket by ?id=. ${note('get')}`, input: idInput, handler: ({ id }, ctx) => getTicket(ctxOf(ctx), id) }),
    defineCall({
      ...base,
      method: 'POST',
      path: path('create'),
      roles: roles('create'),
      summary: `Open a ticket with its first message. ${note('create')} ${files}`,
      input: inputSchema(ticket, 'create', area).omit({ status: true }).extend({ attachments: attachmentsInput }),
      handler: (input, ctx) => openTicket(ctxOf(ctx), input as unknown as OpenInput),
    }),
    defineCall({
      ...base,
      method: 'POST',
      path: path('update'),
      roles: roles('update'),
      summary: `Change a ticket. ${note('update') || 'Subject, category, priority, status, assignee_id (null to unassign).'}`,
      input: area === 'manage' ? inputSchema(ticket, 'update', area).extend({ assignee_id: assignee }) : inputSchema(ticket, 'update', area),
      handler: (input, ctx) => updateTicket(ctxOf(ctx), input as unknown as UpdateInput),
    }),
    defineCall({ ...base, method: 'POST', path: path('delete'), roles: roles('delete'), summary: `Delete a ticket by id. ${note('delete')}`, input: idInput, handler: ({ id }, ctx) => deleteTicket(ctxOf(ctx), id) }),
    defineCall({
      ...base,
      method: 'POST',
      path: path('append_message'),
      roles: roles('update'),
      summary:
        area === 'admin'
          ? `Reply in a ticket (reopens a closed one within TICKET_REOPEN_DAYS). ${files}`
          : `Reply in a ticket (status: answered by default, or waiting_customer, closed), or add an internal note (internal: true) the customer never sees. ${files}`,
      input: appendInput[area].extend({ attachments: attachmentsInput }),
      handler: (input, ctx) => appendMessage(ctxOf(ctx), input as any),
    }),
    defineCall({
      ...base,
      method: 'GET',
      path: path('attachment'),
      roles: area === 'manage' ? staff : undefined,
      summary: 'Download an attachment by ?id= (a file, not an envelope), if the caller may read its ticket. Always as a download, with X-Content-Type-Options: nosniff.',
      input: idInput,
      async handler({ id }, ctx) {
        const file = await findAttachment(ctxOf(ctx), id);
        const body = await readStoredFile(ctx.services.config, file.stored_name);
        return new FileAnswer(body, {
          'content-type': file.content_type,
          'content-disposition': attachmentDisposition(file.file_name),
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
          'cache-control': 'private, no-store',
        });
      },
    }),
  ];
}

export const ticketCalls = [...callsOf('admin'), ...callsOf('manage')];
