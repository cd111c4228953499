import { defineResource, staff, supportStaff } from './define.js';

/** A whole domain delivered onto another domain of the same customer (a@alias → a@target). */
export const aliasDomain = defineResource({
  name: 'alias_domain',
  table: 'alias_domain',
  view: 'alias_domain_view',
  owner: 'owner_id',
  teamScope: 'alias_domain_id',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    alias_domain_id: { kind: 'reference', reference: 'domain', required: true, unique: true, writable: 'create', list: 'wide', filter: 'eq' },
    target_domain_id: { kind: 'reference', reference: 'domain', required: true, list: 'wide', filter: 'eq' },
    alias_domain_name: { kind: 'text', writable: 'never', list: true },
    alias_domain_unicode: { kind: 'text', writable: 'never', list: true, search: true },
    target_domain_name: { kind: 'text', writable: 'never', list: true },
    target_domain_unicode: { kind: 'text', writable: 'never', list: true, search: true },
    active: { kind: 'boolean', default: 1, list: true, filter: 'eq' },
    owner_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  admin: { listVia: 'query', list: 'team', get: 'team', create: 'team', update: 'team', delete: 'team' },
  manage: { listVia: 'query', list: staff, get: staff, create: supportStaff, update: supportStaff, delete: supportStaff },
});
