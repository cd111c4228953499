import { defineResource, GiB, idSchema, MAX_QUOTA_BYTES, MiB, superadminOnly, staff, supportStaff } from './define.js';

export const locales = ['zh', 'en'] as const;
export type Locale = (typeof locales)[number];

/** A customer account, as operators manage it (/api/manage/user). Team members share the table. */
export const customer = defineResource({
  name: 'customer',
  table: 'user',
  where: { owner_id: null },
  owner: 'id',
  timestamps: true,
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    email: { kind: 'email', required: true, unique: true, list: true, sortable: true, search: true },
    username: { kind: 'text', max: 64, list: true, sortable: true, search: true },
    password: { kind: 'password', writeOnly: true, required: true },
    is_verified: { kind: 'boolean', default: 0, list: true, filter: 'eq' },
    status: { kind: 'enum', choices: ['active', 'disabled'], default: 'active', list: true, filter: 'eq' },
    points: { kind: 'integer', writable: 'never', list: true, sortable: true },
    storage_max: { kind: 'bytes', min: MiB, max: MAX_QUOTA_BYTES, default: GiB, list: true, sortable: true },
    locale: { kind: 'enum', choices: locales, default: 'zh' },
    /** The mail store an operator chose for its new mailboxes; none: the placement rule's least used store. */
    mail_store_id: { kind: 'reference', reference: 'mail_store', schema: idSchema.nullable(), shownIn: 'manage', list: 'wide' },
    // Not a list column: the list must leave room for its edit and delete buttons at 1280 px.
    last_login_at: { kind: 'datetime', writable: 'never', sortable: true },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide', sortable: true, filter: 'range' },
    updated_at: { kind: 'datetime', writable: 'never' },
  },
  manage: {
    path: 'user',
    list: staff,
    get: staff,
    create: supportStaff,
    update: supportStaff,
    delete: superadminOnly,
  },
});
