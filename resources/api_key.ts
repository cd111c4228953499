import { z } from 'zod';
import { defineResource, staff } from './define.js';

export const apiKeyAccess = ['read', 'write'] as const;
/** How many keys one login may have. */
export const MAX_API_KEYS = 50;

const addressForms = [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()];
/** The addresses a key may be used from: IPs and CIDR ranges; none given, any. */
export const allowedIps = z
  .array(z.string().trim().refine((s) => addressForms.some((form) => form.safeParse(s).success), 'validation.ip_or_cidr'))
  .max(20);

/**
 * An API key: lets a script call one area's API (customers: /api/admin, operators: /api/manage)
 * with `Authorization: Bearer <key>`, with the rights of the login that made it, read-only or
 * read-write, until it expires or is revoked, optionally only from some addresses. Shown once when
 * made, kept only as a hash. Keys never reach keys, sessions, passwords or second factors.
 * A team member sees their own keys; the customer account sees its whole team's.
 */
export const apiKey = defineResource({
  name: 'api_key',
  table: 'api_key',
  owner: 'customer_id',
  authorScope: 'user_id',
  operatorScope: 'admin_id',
  apiKeys: false,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', min: 1, max: 64, required: true, list: true, search: true },
    access: { kind: 'enum', choices: apiKeyAccess, required: true, list: true },
    prefix: { kind: 'text', writable: 'never', list: true, search: true },
    expires_at: { kind: 'datetime', writable: 'create', list: true },
    allowed_ips: { kind: 'json', schema: allowedIps, writable: 'create', list: true },
    user_id: { kind: 'reference', reference: 'team_member', writable: 'never', list: true },
    created_at: { kind: 'datetime', writable: 'never', list: true },
    created_ip: { kind: 'text', writable: 'never', list: true },
    last_used_at: { kind: 'datetime', writable: 'never', list: true },
    last_used_ip: { kind: 'text', writable: 'never', list: true },
  },
  admin: {
    path: 'api_key',
    listVia: 'query',
    list: 'team',
    create: 'team',
    delete: 'team',
    notes: {
      list: "Never the keys: name, access, the key's first characters (prefix), expiry, allowed addresses, when and from where each was made and last used (updated at most once a minute).",
      create:
        'Answers the record with `key`, shown this once and never again. access: read (GET calls and lists) or write; expires_at (optional, in the future); allowed_ips (optional IPs and CIDR ranges); confirmation: the caller\'s password or a current code from their authenticator app (a key outlives the session that made it). Scripts send it as `Authorization: Bearer <key>` to /api/admin, where it acts with the rights of the login that made it.',
      delete: 'Revokes it: the next call with it is refused (20000).',
    },
  },
  manage: {
    listVia: 'query',
    list: staff,
    create: staff,
    delete: staff,
    notes: {
      list: "The calling operator's own keys, never the keys themselves.",
      create:
        "Answers the record with `key`, shown this once and never again. confirmation: the operator's password or a current code from their authenticator app. Scripts send it as `Authorization: Bearer <key>` to /api/manage, where it acts with the role of the operator that made it.",
      delete: 'Revokes it: the next call with it is refused (20000).',
    },
  },
});
