/**
 * The one list vocabulary of every list call: page, page_size, sort, order, filter and a
 * free-text q; the answer is { list, total, page, page_size }. Everything happens in the
 * database, on declared (and indexed) columns only.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { Field, ResourceDeclaration } from '../../resources/define.js';
import type { Dialect } from '../db/index.js';
import { fieldError } from './errors.js';

const jsonObject = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return {};
  try {
    return JSON.parse(value);
  } catch {
    return Symbol('invalid json');
  }
}, z.record(z.string(), z.unknown()));

export const listParams = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  sort: z.string().max(64).optional(),
  order: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['asc', 'desc']))
    .optional(),
  /** Exact values (a list means any of them), and <field>_gte / <field>_lte for ranges. */
  filter: jsonObject.default({}),
  q: z.string().trim().max(200).optional(),
});
export type ListParams = z.infer<typeof listParams>;

export interface ListResult<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
}

const numericKinds = new Set<Field['kind']>(['integer', 'bytes', 'boolean', 'reference']);
const idField: Field = { kind: 'integer', sortable: true, filter: 'eq' };

function filterValue(column: string, field: Field, value: unknown): unknown {
  const one = numericKinds.has(field.kind) ? z.coerce.number() : z.union([z.string().max(255), z.number()]);
  const parsed = z.union([one, z.array(one).max(500)]).safeParse(value);
  if (!parsed.success) throw fieldError(`filter.${column}`, 'validation.invalid');
  return parsed.data;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE conditions for a list: fixed scope, the filters and the search. */
export function listConditions(
  resource: ResourceDeclaration,
  dialect: Dialect,
  params: Pick<ListParams, 'filter' | 'q'>,
) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool>[] => {
    const conditions: Expression<SqlBool>[] = [];
    for (const [key, raw] of Object.entries(params.filter)) {
      if (raw === undefined || raw === '' || raw === null) continue;
      const range = /^(.*)_(gte|lte)$/.exec(key);
      const column = range && resource.fields[range[1]]?.filter === 'range' ? range[1] : key;
      const field = column === 'id' ? idField : resource.fields[column];
      if (!field?.filter) throw fieldError(`filter.${key}`, 'validation.unknown_filter', { field: key });
      const value = filterValue(key, field, raw);
      if (range && column !== key) {
        conditions.push(eb(column, range[2] === 'gte' ? '>=' : '<=', value));
      } else {
        conditions.push(Array.isArray(value) ? (value.length ? eb(column, 'in', value) : sql<SqlBool>`1 = 0`) : eb(column, '=', value));
      }
    }
    const searchable = Object.entries(resource.fields).filter(([, f]) => f.search).map(([name]) => name);
    if (params.q && searchable.length) {
      const pattern = `%${escapeLike(params.q)}%`;
      const like = dialect === 'postgres' ? sql`ilike` : sql`like`;
      conditions.push(eb.or(searchable.map((name) => sql<SqlBool>`${sql.ref(name)} ${like} ${pattern} escape '\\'`)));
    }
    return conditions;
  };
}

/** The ORDER BY of a list, refusing undeclared sort fields. Ties are broken by id. */
export function listOrder(resource: ResourceDeclaration, params: Pick<ListParams, 'sort' | 'order'>) {
  const field = params.sort ?? resource.defaultSort?.field ?? 'id';
  const declared = field === 'id' ? idField : resource.fields[field];
  if (!declared?.sortable) throw fieldError('sort', 'validation.unknown_sort', { field });
  const order = params.order ?? (params.sort ? 'asc' : resource.defaultSort?.order ?? 'desc');
  return { field, order } as const;
}
