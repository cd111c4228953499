/**
 * react-admin's data provider for one area, over an injectable HTTP client (the way
 * ra-data-simple-rest is a factory of (apiUrl, httpClient)). Each resource maps onto the
 * specification's calls of its declaration: list (GET query or POST body), get?id=, create,
 * update, delete. Failures become react-admin HttpErrors carrying the translated message and
 * the translated field errors, which the forms show beside their fields.
 */
import { HttpError, type DataProvider, type Identifier, type RaRecord } from 'ra-core';
import type { HttpClient, Params } from '../api/client';
import { ApiError } from '../api/errors';
import type { AreaName } from '../area/features';
import type { Screen } from '../screens/screen';
import { toListParams, changedFields } from './params';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface AreaDataProvider extends DataProvider {
  /** Any other call of the area, e.g. call('POST', 'me/info'). */
  call<T = unknown>(method: 'GET' | 'POST', path: string, params?: Params): Promise<T>;
  /** A resource's create whose answer is not the new record (a team invitation), answered as it is. */
  createCall<T = Record<string, unknown>>(resource: string, data: Record<string, unknown>): Promise<T>;
  /** A call of the area posted as a form with files (the multipart variant), e.g. ticket/append_message. */
  upload<T = unknown>(path: string, params: Params, files: File[]): Promise<T>;
}

/** A form body: the values as text, the files under `attachments` (as the ticket calls take them). */
export function formOf(params: Params, files: File[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  for (const file of files) form.append('attachments', file, file.name);
  return form;
}

/** Files a react-admin FileInput put in a record ({ rawFile } each), taken out of it. */
function filesOf(data: Record<string, unknown>): File[] {
  const value = data.attachments;
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.map((v) => (v as { rawFile?: File }).rawFile ?? v).filter((v): v is File => typeof File !== 'undefined' && v instanceof File);
}

interface ListAnswer {
  list: RaRecord[];
  total: number;
  total_is_estimate?: boolean;
  total_is_lower_bound?: boolean;
}

/** How exact a list's total is, for the pagination's caption (screens/ListTotal). */
export interface ListMeta {
  totalIsEstimate: boolean;
  totalIsLowerBound: boolean;
}
const metaOf = (answer: ListAnswer): { meta: ListMeta } => ({
  meta: { totalIsEstimate: answer.total_is_estimate === true, totalIsLowerBound: answer.total_is_lower_bound === true },
});

/** An ApiError as react-admin expects it: translated message, status, body with the field errors. */
export function toHttpError(error: unknown, translate: Translate): unknown {
  if (!(error instanceof ApiError)) return error;
  const errors = Object.fromEntries(
    Object.entries(error.errors ?? {}).map(([field, e]) => [field, translate(e.message, { _: e.message, ...e.params })]),
  );
  const message = translate(error.message, { _: error.message, ...error.params });
  return new HttpError(message, error.status, { code: error.code, message: error.message, errors: Object.keys(errors).length ? errors : undefined });
}

export function createDataProvider(options: { area: AreaName; screens: Screen[]; httpClient: HttpClient; translate: Translate }): AreaDataProvider {
  const { screens, httpClient, translate } = options;
  const screenOf = (resource: string): Screen => {
    const screen = screens.find((s) => s.name === resource);
    if (!screen) throw new Error(`No screen "${resource}" in the ${options.area} area`);
    return screen;
  };
  const send = async <T,>(method: 'GET' | 'POST', path: string, params?: Params, form?: FormData, silent = false): Promise<T> => {
    try {
      return await httpClient<T>({ method, path, params, form, ...(silent ? { silent } : {}) });
    } catch (error) {
      throw toHttpError(error, translate);
    }
  };
  const list = (screen: Screen, params: Params) =>
    send<ListAnswer>(screen.listVia === 'query' ? 'GET' : 'POST', `${screen.apiBase}/list`, params);

  const update = async (resource: string, id: Identifier, data: Record<string, unknown>, previous?: Record<string, unknown>) => {
    const screen = screenOf(resource);
    const changes = changedFields(screen, data, previous);
    return send<RaRecord>('POST', `${screen.apiBase}/update`, { ...changes, id });
  };
  const remove = (resource: string, id: Identifier) => send('POST', `${screenOf(resource).apiBase}/delete`, { id });
  const create = <T,>(resource: string, data: Record<string, unknown>) => {
    const screen = screenOf(resource);
    const files = filesOf(data);
    const params = changedFields(screen, data);
    delete params.attachments;
    const form = files.length ? formOf(params, files) : undefined;
    return send<T>('POST', `${screen.apiBase}/create`, params, form);
  };

  return {
    async getList(resource, params) {
      const answer = await list(screenOf(resource), toListParams(params));
      return { data: answer.list, total: answer.total, ...metaOf(answer) };
    },
    async getOne(resource, { id, meta }) {
      // meta.silent: the page reports the failure itself (a record page's "not found").
      return { data: await send<RaRecord>('GET', `${screenOf(resource).apiBase}/get`, { id }, undefined, Boolean(meta?.silent)) };
    },
    async getMany(resource, { ids }) {
      const answer = await list(screenOf(resource), { page: 1, page_size: Math.max(1, Math.min(100, ids.length)), filter: { id: ids } });
      return { data: answer.list };
    },
    async getManyReference(resource, params) {
      const { target, id, ...rest } = params;
      const answer = await list(screenOf(resource), toListParams({ ...rest, filter: { ...rest.filter, [target]: id } }));
      return { data: answer.list, total: answer.total, ...metaOf(answer) };
    },
    async create(resource, { data }) {
      return { data: await create<RaRecord>(resource, data) };
    },
    createCall: create,
    async update(resource, { id, data, previousData }) {
      return { data: await update(resource, id, data, previousData) };
    },
    async updateMany(resource, { ids, data }) {
      await Promise.all(ids.map((id) => update(resource, id, data)));
      return { data: ids };
    },
    async delete(resource, { id, previousData }) {
      await remove(resource, id);
      return { data: (previousData ?? { id }) as never };
    },
    async deleteMany(resource, { ids }) {
      await Promise.all(ids.map((id) => remove(resource, id)));
      return { data: ids };
    },
    call: (method, path, params) => send(method, `/api/${options.area}/${path}`, params),
    upload: (path, params, files) => send('POST', `/api/${options.area}/${path}`, params, files.length ? formOf(params, files) : undefined),
  } as AreaDataProvider;
}
