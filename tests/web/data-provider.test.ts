import { describe, expect, it } from 'vitest';
import { HttpError } from 'ra-core';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { HttpClient, Request } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { createDataProvider } from '../../src/dataProvider';
import { screensOf } from './areas';
import { messagesOf } from '../../src/i18n/areaTexts';

/** A fake HTTP client: records every request and answers with the data the test gives. */
function fakeClient(answer: (request: Request) => unknown = () => null) {
  const requests: Request[] = [];
  const client = (async (request: Request) => {
    requests.push(request);
    const result = answer(request);
    if (result instanceof Error) throw result;
    return result;
  }) as HttpClient;
  return { client, requests };
}

// As the app translates (polyglot: plural forms chosen by smart_count).
const english = polyglotI18nProvider(() => messagesOf('en'), 'en', [], { allowMissing: true });
const translate = (key: string, options: Record<string, unknown> = {}) => english.translate(key, options);

function provider(answer?: (request: Request) => unknown, area: 'manage' | 'admin' = 'manage') {
  const { client, requests } = fakeClient(answer);
  return { dataProvider: createDataProvider({ area, screens: screensOf(area), httpClient: client, translate }), requests };
}

const page = { list: [{ id: 1, username: 'root' }], total: 41, page: 2, page_size: 20 };

describe('data provider', () => {
  it('getList posts the list vocabulary as a body for body-listed resources', async () => {
    const { dataProvider, requests } = provider(() => page);
    const result = await dataProvider.getList('admin', {
      pagination: { page: 2, perPage: 20 },
      sort: { field: 'username', order: 'ASC' },
      filter: { role: 'support', q: ' roo ', status: '' },
    });
    expect(result).toEqual({ data: page.list, total: 41, meta: { totalIsEstimate: false, totalIsLowerBound: false } });
    expect(requests[0]).toEqual({
      method: 'POST',
      path: '/api/manage/admin/list',
      params: { page: 2, page_size: 20, sort: 'username', order: 'asc', filter: { role: 'support' }, q: 'roo' },
    });
  });

  it('getList passes on whether the total is an estimate or a lower bound, for the pagination caption', async () => {
    const about = await provider(() => ({ ...page, total: 1_000_000, total_is_estimate: true })).dataProvider.getList('admin', { pagination: { page: 1, perPage: 20 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    expect(about).toMatchObject({ total: 1_000_000, meta: { totalIsEstimate: true, totalIsLowerBound: false } });
    const more = await provider(() => ({ ...page, total: 10_000, total_is_estimate: true, total_is_lower_bound: true })).dataProvider.getList('admin', { pagination: { page: 1, perPage: 20 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    expect(more).toMatchObject({ total: 10_000, meta: { totalIsEstimate: true, totalIsLowerBound: true } });
  });

  it('getList uses GET with a query string for resources declared listVia query', async () => {
    const { dataProvider, requests } = provider(() => ({ list: [], total: 0 }));
    await dataProvider.getList('email_template', { pagination: { page: 1, perPage: 500 }, sort: { field: 'key', order: 'DESC' }, filter: {} });
    expect(requests[0]).toEqual({ method: 'GET', path: '/api/manage/email_template/list', params: { page: 1, page_size: 100, sort: 'key', order: 'desc' } });
  });

  it('getOne asks get?id=', async () => {
    const { dataProvider, requests } = provider(() => ({ id: 3, username: 'x' }));
    expect(await dataProvider.getOne('admin', { id: 3 })).toEqual({ data: { id: 3, username: 'x' } });
    expect(requests[0]).toEqual({ method: 'GET', path: '/api/manage/admin/get', params: { id: 3 } });
  });

  it('getMany lists with an id filter', async () => {
    const { dataProvider, requests } = provider(() => ({ list: [{ id: 1 }, { id: 2 }], total: 2 }));
    expect(await dataProvider.getMany('user', { ids: [1, 2] })).toEqual({ data: [{ id: 1 }, { id: 2 }] });
    expect(requests[0]).toEqual({ method: 'POST', path: '/api/manage/user/list', params: { page: 1, page_size: 2, filter: { id: [1, 2] } } });
  });

  it('getManyReference lists with the target as a filter', async () => {
    const { dataProvider, requests } = provider(() => ({ list: [{ id: 9 }], total: 1 }));
    const result = await dataProvider.getManyReference('log', {
      target: 'user_id',
      id: 5,
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'created_at', order: 'DESC' },
      filter: { action: 'login' },
    });
    expect(result).toEqual({ data: [{ id: 9 }], total: 1, meta: { totalIsEstimate: false, totalIsLowerBound: false } });
    expect(requests[0].params).toEqual({ page: 1, page_size: 10, sort: 'created_at', order: 'desc', filter: { action: 'login', user_id: 5 } });
  });

  it('create sends the writable fields only, without empty values', async () => {
    const { dataProvider, requests } = provider((r) => ({ id: 4, ...(r.params as object) }));
    const result = await dataProvider.create('admin', { data: { username: 'sam', password: 'secret-pass', role: 'support', status: '', created_at: 'x', id: 99 } });
    expect(requests[0]).toEqual({ method: 'POST', path: '/api/manage/admin/create', params: { username: 'sam', password: 'secret-pass', role: 'support' } });
    expect(result.data).toMatchObject({ id: 4, username: 'sam' });
  });

  it('update sends the id and the changed fields; an empty password keeps the current one', async () => {
    const { dataProvider, requests } = provider((r) => ({ ...(r.params as object) }));
    const previousData = { id: 3, username: 'sam', role: 'support', status: 'active', last_login_at: null };
    await dataProvider.update('admin', { id: 3, data: { ...previousData, role: 'billing', password: '' }, previousData });
    expect(requests[0]).toEqual({ method: 'POST', path: '/api/manage/admin/update', params: { id: 3, role: 'billing' } });
    await dataProvider.update('admin', { id: 3, data: { ...previousData, password: 'new-password-1' }, previousData });
    expect(requests[1].params).toEqual({ id: 3, password: 'new-password-1' });
  });

  it('updateMany updates each record', async () => {
    const { dataProvider, requests } = provider(() => ({}));
    expect(await dataProvider.updateMany('user', { ids: [1, 2], data: { status: 'disabled' } })).toEqual({ data: [1, 2] });
    expect(requests.map((r) => r.params)).toEqual([
      { status: 'disabled', id: 1 },
      { status: 'disabled', id: 2 },
    ]);
  });

  it('delete and deleteMany post delete with the id', async () => {
    const { dataProvider, requests } = provider(() => ({ id: 1 }));
    expect(await dataProvider.delete('guest_message', { id: 1, previousData: { id: 1, name: 'A' } })).toEqual({ data: { id: 1, name: 'A' } });
    expect(await dataProvider.deleteMany('guest_message', { ids: [2, 3] })).toEqual({ data: [2, 3] });
    expect(requests.map((r) => [r.method, r.path, r.params])).toEqual([
      ['POST', '/api/manage/guest_message/delete', { id: 1 }],
      ['POST', '/api/manage/guest_message/delete', { id: 2 }],
      ['POST', '/api/manage/guest_message/delete', { id: 3 }],
    ]);
  });

  it('maps a screen name to its API path: /admin/admin lists /api/admin/user (team members)', async () => {
    const { dataProvider, requests } = provider(() => ({ list: [], total: 0 }), 'admin');
    await dataProvider.getList('admin', { pagination: { page: 1, perPage: 20 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    expect(requests[0].path).toBe('/api/admin/user/list');
  });

  it('call reaches any other call of the area', async () => {
    const { dataProvider, requests } = provider(() => ({ customers: {} }));
    await dataProvider.call('POST', 'index/stat');
    expect(requests[0]).toEqual({ method: 'POST', path: '/api/manage/index/stat', params: undefined });
  });

  it('a refusal becomes an HttpError with the translated message and translated field errors', async () => {
    const refusal = new ApiError(40000, 'error.validation', 400, undefined, {
      username: { message: 'validation.too_short', params: { min: 3, smart_count: 3 } },
      role: { message: 'validation.required' },
    });
    const { dataProvider } = provider(() => refusal);
    const error = await dataProvider.create('admin', { data: { username: 'a' } }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.message).toBe('Some fields need attention.');
    expect(error.status).toBe(400);
    expect(error.body).toEqual({ code: 40000, message: 'error.validation', errors: { username: 'At least 3 characters', role: 'Required' } });
  });

  it('an expired session (20000) arrives as a 401 the auth provider recognises', async () => {
    const { dataProvider } = provider(() => new ApiError(20000, 'error.session', 401));
    const error = await dataProvider.getOne('admin', { id: 1 }).catch((e) => e);
    expect(error).toMatchObject({ status: 401, body: { code: 20000 } });
  });

  it('a message with parameters is translated with them', async () => {
    const { dataProvider } = provider(() => new ApiError(42900, 'error.rate_limited', 429, { retry_after: 30, smart_count: 30 }));
    const error = await dataProvider.getOne('admin', { id: 1 }).catch((e) => e);
    expect(error.message).toBe('Too many attempts. Try again in 30 seconds.');
  });
});
