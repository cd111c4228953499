import { z } from 'zod';
import { defineResource, staff, supportStaff } from './define.js';
import { localPartPattern } from './mailbox.js';

/** Empty or "*": the domain's catch-all (@domain). */
export const catchAllLocalPart = z
  .string()
  .trim()
  .toLowerCase()
  .max(64)
  .transform((s) => (s === '*' ? '' : s))
  .refine((s) => s === '' || localPartPattern.test(s), 'validation.local_part');

/** One or more destination addresses: a list, or text separated by commas, spaces or lines. */
export const destinationsSchema = z.union([z.string().max(25_000), z.array(z.string().max(254)).max(1000)]);

/** An address (or the catch-all @domain) delivered to one or more destinations. */
export const alias = defineResource({
  name: 'alias',
  table: 'alias',
  owner: 'owner_id',
  teamScope: 'domain_id',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    domain_id: { kind: 'reference', reference: 'domain', required: true, writable: 'create', list: 'wide', filter: 'eq' },
    local_part: { kind: 'text', schema: catchAllLocalPart, required: true, writable: 'create', list: 'wide' },
    address: { kind: 'text', writable: 'never', unique: true, list: true, sortable: true, search: true },
    address_unicode: { kind: 'text', writable: 'never', list: true, search: true },
    /** Destinations, stored and returned comma-separated (as Postfix reads them). */
    goto: { kind: 'text', schema: destinationsSchema, required: true, list: true, search: true },
    active: { kind: 'boolean', default: 1, list: true, filter: 'eq' },
    owner_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  admin: { listVia: 'query', list: 'team', get: 'team', create: 'team', update: 'team', delete: 'team' },
  manage: { listVia: 'query', list: staff, get: staff, create: supportStaff, update: supportStaff, delete: supportStaff },
});
