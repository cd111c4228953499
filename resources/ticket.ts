import { z } from 'zod';
import { defineResource, idSchema, staff, superadminOnly, supportStaff } from './define.js';

export const ticketCategories = ['account', 'billing', 'mail_delivery', 'domains', 'other'] as const;
export const ticketPriorities = ['low', 'normal', 'high', 'urgent'] as const;
/** open → answered ↔ waiting_customer → closed; a customer's message reopens a closed ticket within TICKET_REOPEN_DAYS. */
export const ticketStatuses = ['open', 'answered', 'waiting_customer', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];
/** The customer's records a ticket may point at (checked to be theirs). */
export const ticketLinkTypes = ['domain', 'email', 'order'] as const;
export type TicketLinkType = (typeof ticketLinkTypes)[number];

/** A message's text: plain text, line breaks kept (form posts send them as CRLF; stored as LF). */
export const messageBody = z.preprocess((v) => (typeof v === 'string' ? v.replace(/\r\n?/g, '\n') : v), z.string().trim().min(1).max(20_000));

/**
 * A support ticket: a conversation between a customer (or one of its team members, who see
 * only the tickets they opened) and the operators. Its calls do support's own work
 * (server/support/): the first message and attachments come with create, append_message adds
 * replies and operators' internal notes, and get returns the conversation.
 */
export const ticket = defineResource({
  name: 'ticket',
  table: 'ticket',
  owner: 'owner_id',
  authorScope: 'author_id',
  timestamps: true,
  defaultSort: { field: 'last_activity_at', order: 'desc' },
  fields: {
    number: { kind: 'text', writable: 'never', unique: true, list: true },
    subject: { kind: 'text', max: 200, required: true, list: true, search: true },
    category: { kind: 'enum', choices: ticketCategories, required: true, list: 'wide', filter: 'eq' },
    priority: { kind: 'enum', choices: ticketPriorities, default: 'normal', list: true, filter: 'eq', sortable: true },
    status: { kind: 'enum', choices: ticketStatuses, writable: 'always', list: true, filter: 'eq' },
    owner_id: { kind: 'reference', reference: 'customer', required: true, writable: 'create', writableIn: 'manage', list: true, filter: 'eq' },
    assignee_id: { kind: 'reference', reference: 'operator', writableIn: 'manage', list: true, filter: 'eq' },
    link_type: { kind: 'enum', choices: ticketLinkTypes, writable: 'create' },
    link_id: { kind: 'integer', min: 1, writable: 'create' },
    /** The first message (create only). */
    message: { kind: 'longtext', schema: messageBody, required: true, writable: 'create', virtual: true },
    author_id: { kind: 'integer', writable: 'never' },
    last_reply_by: { kind: 'enum', choices: ['customer', 'operator'], writable: 'never', list: true },
    last_activity_at: { kind: 'datetime', writable: 'never', list: true, sortable: true },
    waiting_since: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true },
    first_response_at: { kind: 'datetime', writable: 'never' },
    first_response_seconds: { kind: 'integer', writable: 'never' },
    closed_at: { kind: 'datetime', writable: 'never' },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  admin: {
    list: 'team',
    get: 'team',
    create: 'team',
    update: 'team',
    delete: 'team',
    notes: {
      list: 'A team member sees only the tickets they opened. q searches words of subjects (word prefixes; Chinese by characters) or a ticket number.',
      get: 'The ticket with its messages and their attachments (operators’ internal notes are never included).',
      create: 'Also as multipart/form-data with files in `attachments`. link_type/link_id point at one of the customer’s domains, mailboxes or (account owner only) orders; get returns its name as link_name (an order’s number).',
      update: 'Subject, category, priority; status only to closed (a new message reopens it within TICKET_REOPEN_DAYS).',
      delete: 'Withdraws a ticket no operator has answered yet; its files are removed.',
    },
  },
  manage: {
    list: staff,
    get: staff,
    create: supportStaff,
    update: staff,
    delete: superadminOnly,
    notes: {
      list: 'filter.assignee_id may be "mine" or "none". Sort by last_activity_at or waiting_since (how long the customer has waited).',
      get: 'The ticket with every message, internal notes included, and their attachments.',
      create: 'Opens a ticket for a customer (owner_id) with a first message from the operator.',
      delete: 'Deletes the ticket, its messages and, once committed, its files.',
    },
  },
});

/** append_message: a reply (or, for operators, an internal note or a reply that also sets the status). */
export const appendInput = {
  admin: z.object({ id: idSchema, body: messageBody }),
  manage: z.object({
    id: idSchema,
    body: messageBody,
    internal: z
      .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])])
      .transform((v) => v === true || v === 1 || v === '1' || v === 'true')
      .default(false),
    status: z.enum(['answered', 'waiting_customer', 'closed']).optional(),
  }),
};
