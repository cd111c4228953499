/**
 * The one way an entity is declared. A declaration is plain data (plus zod schemas) so that
 * both the server (routes, validation, OpenAPI, audit) and the screens (columns, forms,
 * filters) are derived from it. What is special about one on the server lives with the capability
 * that owns it (server/<capability>/).
 */
import { z } from 'zod';
import { lineText, longText } from './text.js';

/** Customers and their team (/api/admin), operators (/api/manage), mailbox owners (/api/mail). */
export type Area = 'admin' | 'manage' | 'mail';
export const areas: readonly Area[] = ['admin', 'manage', 'mail'];

export const operatorRoles = ['superadmin', 'support', 'billing'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';
export const operations: readonly Operation[] = ['list', 'get', 'create', 'update', 'delete'];

/** In the customer area: the customer account alone, or its team members as well. */
export type CustomerAccess = 'owner' | 'team';
/** In the mailbox owners' area: the signed-in mailbox's own records (`mailboxScope`). */
export type MailboxAccess = 'mailbox';

export type FieldKind =
  | 'text'
  | 'longtext'
  | 'email'
  | 'password'
  | 'integer'
  | 'bytes'
  | 'boolean'
  | 'enum'
  | 'datetime'
  | 'json'
  | 'reference';

export interface Field {
  kind: FieldKind;
  /** Validation of a written value. Derived from `kind`, `min`, `max`, `choices` when absent. */
  schema?: z.ZodType;
  min?: number;
  max?: number;
  choices?: readonly (string | number)[];
  /** For kind 'reference': the resource the id points at. */
  reference?: string;
  /** Must be given on create. */
  required?: boolean;
  /** When the API accepts the field: always (default), only on create, or never (computed). */
  writable?: 'always' | 'create' | 'never';
  /** Accepted on input but never stored as such, returned or logged (passwords). */
  writeOnly?: boolean;
  /** Taken by no other record (checked before writing, enforced by a unique index). */
  unique?: boolean;
  /**
   * Shown as a column in lists; 'wide': only on a wide screen (≥ 1680 px, src/screens/ScreenList.tsx),
   * for what helps but does not tell records apart (related ids, counts, timestamps). The
   * record's own page always shows it.
   */
  list?: boolean | 'wide';
  /** Lists may be sorted by it (the migration gives it an index). */
  sortable?: boolean;
  /** Lists may be filtered by it: exact value (or a list of values), or a from/to range. */
  filter?: 'eq' | 'range';
  /** Part of the free-text search. */
  search?: boolean;
  /** Value stored on create when none is given. */
  default?: unknown;
  /** Only this area's calls accept the field (e.g. limits that operators set). */
  writableIn?: Area;
  /** Only this area's calls and screens have the field at all (where a mailbox's mail is kept is the operators' business). */
  shownIn?: Area;
  /** Not a column of the table: read from the resource's `view`, written by its behaviour. */
  virtual?: boolean;
}

type Access<A> = Partial<Record<Operation, A>>;

export interface AreaConfig<A> extends Access<A> {
  /** The entity's segment in this area's paths, when it differs from the name. */
  path?: string;
  /** Whether list takes its parameters as a query string (GET) or a JSON body (POST). */
  listVia?: 'query' | 'body';
  /** What a call does beyond the obvious, for the OpenAPI description. */
  notes?: Partial<Record<Operation, string>>;
  /** UI only: the screen's path segment in this area when it differs from the API's (e.g. /admin/admin lists /api/admin/user). */
  page?: string;
  /** SQL view this area's list and get read from instead of the resource's (what this area may not see is masked there). */
  view?: string;
}

export interface ResourceDeclaration {
  /** The resource's name (react-admin resource, translation keys). */
  name: string;
  table: string;
  fields: Record<string, Field>;
  /** The column that holds the customer a record belongs to; scopes the customer area. */
  owner?: string;
  /**
   * SQL view that list and get read from: the table's rows and columns (unchanged) plus
   * computed ones (usage, names). Lists count from the table when no condition reads a
   * computed column, so a view must neither drop rows the resource's scope would keep nor
   * change a column's values (an area's `view` is the place for masking).
   */
  view?: string;
  /** The column naming the domain a record belongs to: a team member sees and writes only their domains' records. */
  teamScope?: string;
  /** The column naming the login that made a record: a team member sees only the records they made (tickets). */
  authorScope?: string;
  /** The column naming the mailbox a record belongs to: the mailbox owners' area reaches only the caller's mailbox's records. */
  mailboxScope?: string;
  /** The column naming the operator a record belongs to: in the operators' area each operator reaches only their own (API keys). */
  operatorScope?: string;
  /** false: scripts' API keys never reach this resource's calls (it is a credential itself). */
  apiKeys?: false;
  /** Column values every record of this resource has (e.g. customers have no owner_id). */
  where?: Record<string, string | number | null>;
  /** Maintained created_at / updated_at columns. */
  timestamps?: boolean;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  admin?: AreaConfig<CustomerAccess>;
  manage?: AreaConfig<readonly OperatorRole[]>;
  /** The mailbox owners' area: needs `mailboxScope`. */
  mail?: AreaConfig<MailboxAccess>;
}

export function defineResource<const R extends ResourceDeclaration>(resource: R): R {
  for (const [name, field] of Object.entries(resource.fields)) {
    if ((field.sortable || field.filter || field.search) && field.writeOnly) {
      throw new Error(`${resource.name}.${name}: a write-only field cannot be listed`);
    }
  }
  if (resource.mail && !resource.mailboxScope) throw new Error(`${resource.name}: the mailbox owners' area needs mailboxScope`);
  return resource;
}

/** The declaration as one area has it: without the fields shown only in another area (`shownIn`). */
export function inArea<R extends ResourceDeclaration>(resource: R, area: Area): R {
  const fields = Object.entries(resource.fields).filter(([, f]) => !f.shownIn || f.shownIn === area);
  return fields.length === Object.keys(resource.fields).length ? resource : { ...resource, fields: Object.fromEntries(fields) };
}

/** Operator role sets used by several declarations. */
export const staff: readonly OperatorRole[] = ['superadmin', 'support', 'billing'];
export const superadminOnly: readonly OperatorRole[] = ['superadmin'];
/** Who runs customers' accounts and mail day to day. */
export const supportStaff: readonly OperatorRole[] = ['superadmin', 'support'];
/** Who runs the shop: products, promotions, orders, capacity blocks. */
export const billingStaff: readonly OperatorRole[] = ['superadmin', 'billing'];

/** Largest mailbox quota the panel accepts (1 TiB), whatever the capacity. */
export const MAX_QUOTA_BYTES = 1024 ** 4;
export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;

/** The largest id (and whole number) the API takes: exact in JavaScript, fits PostgreSQL's bigint. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/**
 * A whole number as a JSON number, or as its decimal string as written (form posts and query
 * strings send those): "7" is 7; true, [7], " 7 ", "07", "+7", "7e0", "0x7" and "7.0" are
 * refused, not coerced.
 */
export function wholeNumber(min: number, max: number) {
  return z.preprocess(numberAsWritten, z.number().int().min(min).max(max));
}

const numberAsWritten = (value: unknown) => (typeof value === 'string' && /^-?(0|[1-9]\d{0,15})$/.test(value) ? Number(value) : value);

/**
 * A size in bytes, as wholeNumber takes it; a size out of bounds is refused with
 * validation.size_too_small / size_too_big, which say the limit in units people read (1 GiB).
 */
export function byteSize(min: number, max: number) {
  return z.preprocess(numberAsWritten, z.number().int().min(min, 'validation.size_too_small').max(max, 'validation.size_too_big'));
}

/** The one id schema of every call: a positive whole number. */
export const idSchema = wholeNumber(1, MAX_ID);

/**
 * A background job's id as the queue gave it: a decimal number as written (the table queue on
 * SQLite) or a UUID in lower case (pg-boss). Nothing is trimmed or case-folded on the way in.
 */
export const jobIdSchema = z.string().regex(/^([1-9]\d{0,15}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/, 'validation.invalid');

/** An e-mail address as written: trimmed, lower case. */
export const emailAddress = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** The written value's schema for a field, derived from its kind when not given. */
export function fieldSchema(field: Field): z.ZodType {
  if (field.schema) return field.schema;
  switch (field.kind) {
    case 'text':
      return lineText(field.min ?? 1, field.max ?? 255);
    case 'longtext':
      return longText(field.min ?? 0, field.max ?? 100_000);
    case 'email':
      return emailAddress;
    case 'password':
      return z.string().min(field.min ?? 8).max(field.max ?? 128);
    case 'integer':
    case 'reference':
      return field.kind === 'reference' && field.min === undefined && field.max === undefined ? idSchema : wholeNumber(field.min ?? (field.kind === 'reference' ? 1 : -MAX_ID), field.max ?? MAX_ID);
    case 'bytes':
      return byteSize(field.min ?? 0, field.max ?? MAX_QUOTA_BYTES);
    case 'boolean':
      // Also "1"/"0"/"true"/"false", as form posts and query strings send them.
      return z
        .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])])
        .transform((v) => (v === true || v === 1 || v === '1' || v === 'true' ? 1 : 0));
    case 'enum': {
      const choices = field.choices ?? [];
      // One literal of several values: a wrong one is reported with the choices (validation.invalid_choice).
      return z.literal(choices as readonly (string | number)[] as (string | number)[]);
    }
    case 'datetime':
      return z.iso.datetime({ offset: true }).nullable();
    case 'json':
      return z.unknown();
  }
}

/** The path segment of a resource in an area. */
export function pathOf(resource: ResourceDeclaration, area: Area): string {
  return resource[area]?.path ?? resource.name;
}
