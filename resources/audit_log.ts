import { defineResource, staff } from './define.js';

export const actorTypes = ['customer', 'team_member', 'operator', 'mailbox', 'anonymous', 'system'] as const;

/** The audit trail: every change made through the API, every sign-in and failed sign-in. */
export const auditLog = defineResource({
  name: 'log',
  table: 'log',
  owner: 'user_id',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    user_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    actor_type: { kind: 'enum', choices: actorTypes, writable: 'never', list: true, filter: 'eq' },
    actor_id: { kind: 'integer', min: 1, writable: 'never', filter: 'eq' },
    actor_name: { kind: 'text', writable: 'never', list: true, search: true },
    action: { kind: 'text', writable: 'never', list: true, filter: 'eq', search: true },
    target_type: { kind: 'text', writable: 'never', list: true, filter: 'eq' },
    target_id: { kind: 'integer', min: 1, writable: 'never', list: 'wide', filter: 'eq' },
    before: { kind: 'json', writable: 'never' },
    after: { kind: 'json', writable: 'never' },
    ip: { kind: 'text', writable: 'never', list: true, filter: 'eq' },
    user_agent: { kind: 'text', writable: 'never' },
    created_at: { kind: 'datetime', writable: 'never', list: true, sortable: true, filter: 'range' },
    // The API key a script made the change with (server/api-keys/), by name as it was then.
    api_key_id: { kind: 'integer', writable: 'never' },
    api_key_name: { kind: 'text', writable: 'never', list: 'wide' },
  },
  // Customers read their log through customer_log_view: an operator's changes show as "an
  // operator", without id, name, IP or user agent (nor can lists filter or search by them).
  admin: { list: 'owner', get: 'owner', view: 'customer_log_view' },
  manage: { list: staff, get: staff },
});

/**
 * The fields that name a record in the activity log's sentences, first found first: an update's
 * entry carries the record's name beside what changed (server/core/audit.ts), so that the log
 * never reads "changed the domain “#1”".
 */
export const namingFields = ['name_unicode', 'address_unicode', 'alias_domain_name', 'address', 'email', 'username', 'key', 'subject', 'name', 'label', 'number'] as const;
