import { z } from 'zod';
import { locales } from './customer.js';
import { defineResource, operatorRoles, superadminOnly } from './define.js';

/** An operator of the provider (the `admin` of /api/manage/admin). */
export const operator = defineResource({
  name: 'operator',
  table: 'admin',
  timestamps: true,
  defaultSort: { field: 'id', order: 'asc' },
  fields: {
    username: { kind: 'text', min: 3, max: 64, required: true, unique: true, list: true, sortable: true, search: true },
    password: { kind: 'password', writeOnly: true, required: true },
    role: { kind: 'enum', choices: operatorRoles, required: true, list: true, filter: 'eq', sortable: true },
    status: { kind: 'enum', choices: ['active', 'disabled'], default: 'active', list: true, filter: 'eq' },
    // Support: where ticket notifications for this operator go ('' for none), and their language.
    email: { kind: 'email', schema: z.string().trim().toLowerCase().max(254).pipe(z.union([z.literal(''), z.email()])) },
    locale: { kind: 'enum', choices: locales, default: 'zh' },
    last_login_at: { kind: 'datetime', writable: 'never', list: true, sortable: true },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  manage: { path: 'admin', list: superadminOnly, get: superadminOnly, create: superadminOnly, update: superadminOnly, delete: superadminOnly },
});
