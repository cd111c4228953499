/**
 * The ticket calls of both areas (the specification's twelve) and the attachment download: the
 * work is support's own (tickets.ts), the paths, access and scope are the declaration's.
 */
import { z } from 'zod';
import { idSchema, type Area } from '../../resources/define.js';
import { appendInput, ticket } from '../../resources/ticket.js';
import { FileAnswer } from '../core/calls.js';
import { listParams } from '../core/list-query.js';
import { idInput, inputSchema, type ResourceBehaviour } from '../core/resource-calls.js';
import { attachmentDisposition, attachmentsInput, readStoredFile } from './attachments.js';
import { appendMessage, deleteTicket, findAttachment, getTicket, listTickets, openTicket, updateTicket } from './tickets.js';

/** Unassigning sends null (or an empty value from a form). */
const assignee = z
  .preprocess((v) => (v === '' ? null : v), z.union([z.null(), idSchema]))
  .optional();

const files = 'Also as multipart/form-data, with files in `attachments` (ATTACHMENT_MAX_COUNT files of at most ATTACHMENT_MAX_BYTES; png, jpeg, gif, webp, pdf, plain text, checked by content).';

export const ticketBehaviour: ResourceBehaviour = {
  calls: {
    list: { summary: 'List tickets (page, page_size, sort, order, filter, q)', input: listParams, handler: (params, ctx) => listTickets(ctx, params) },
    get: { summary: 'One ticket by ?id=', input: idInput, handler: ({ id }, ctx) => getTicket(ctx, id) },
    create: {
      summary: `Open a ticket with its first message. ${files}`,
      input: (area: Area) => inputSchema(ticket, 'create', area).omit({ status: true }).extend({ attachments: attachmentsInput }),
      handler: (input, ctx) => openTicket(ctx, input),
    },
    update: {
      summary: (area) => (area === 'manage' ? 'Change a ticket: subject, category, priority, status, assignee_id (null to unassign)' : 'Change a ticket'),
      input: (area) => (area === 'manage' ? inputSchema(ticket, 'update', area).extend({ assignee_id: assignee }) : inputSchema(ticket, 'update', area)),
      handler: (input, ctx) => updateTicket(ctx, input),
    },
    delete: { summary: 'Delete a ticket by id', input: idInput, handler: ({ id }, ctx) => deleteTicket(ctx, id) },
    append_message: {
      access: 'update',
      summary: (area) =>
        area === 'admin'
          ? `Reply in a ticket (reopens a closed one within TICKET_REOPEN_DAYS). ${files}`
          : `Reply in a ticket (status: answered by default, or waiting_customer, closed), or add an internal note (internal: true) the customer never sees. ${files}`,
      input: (area) => appendInput[area as keyof typeof appendInput].extend({ attachments: attachmentsInput }),
      handler: (input, ctx) => appendMessage(ctx, input),
    },
    attachment: {
      access: 'get',
      method: 'GET',
      summary: 'Download an attachment by ?id= (a file, not an envelope), if the caller may read its ticket. Always as a download, with X-Content-Type-Options: nosniff.',
      input: idInput,
      async handler({ id }, ctx) {
        const file = await findAttachment(ctx, id);
        const body = await readStoredFile(ctx.services, file.stored_name);
        return new FileAnswer(body, {
          'content-type': file.content_type,
          'content-disposition': attachmentDisposition(file.file_name),
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
          'cache-control': 'private, no-store',
        });
      },
    },
  },
};
