/** Translation of react-admin's parameters into the API's list vocabulary and write bodies. */
import type { GetListParams } from 'ra-core';
import { acceptsField } from '../screens/registry';
import type { Screen } from '../screens/screen';
import type { Params } from '../api/client';
import { emptyValueOf } from '../screens/emptyValue';

/** page, page_size, sort, order, filter (without empty values) and the free-text q. */
export function toListParams(params: Partial<Pick<GetListParams, 'pagination' | 'sort' | 'filter'>>): Params {
  const { q, ...rest } = (params.filter ?? {}) as Record<string, unknown>;
  const filter = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  const out: Params = {
    page: params.pagination?.page ?? 1,
    page_size: Math.min(100, params.pagination?.perPage ?? 20),
  };
  if (params.sort?.field) {
    out.sort = params.sort.field;
    out.order = params.sort.order === 'ASC' ? 'asc' : 'desc';
  }
  if (Object.keys(filter).length) out.filter = filter;
  if (typeof q === 'string' && q.trim() !== '') out.q = q.trim();
  return out;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.every((x) => x === '' || x == null));

/**
 * What a form sends: only fields the API accepts (writable, declared), on update only those
 * that changed. On create an empty value is left out (the server's default applies); on
 * update a cleared field is sent as its declaration's empty value ('' or null), so that
 * clearing a note really clears it. An empty password keeps the current one.
 */
export function changedFields(screen: Pick<Screen, 'declaration' | 'area'>, data: Record<string, unknown>, previous?: Record<string, unknown>): Params {
  const out: Params = {};
  for (const [name, field] of Object.entries(screen.declaration.fields)) {
    if (!acceptsField(field, screen.area, previous ? 'update' : 'create') || !(name in data)) continue;
    let value = data[name];
    if (isEmpty(value)) {
      const empty = previous ? emptyValueOf(field) : undefined;
      if (!empty) continue;
      value = empty.value;
    }
    if (previous && !field.writeOnly && JSON.stringify(previous[name] ?? null) === JSON.stringify(value ?? null)) continue;
    out[name] = value;
  }
  return out;
}
