import { describe, expect, it, vi } from 'vitest';
import { createHttpClient, queryString, REQUEST_TIMEOUT_MS } from '../../src/api/client';
import { ApiError, NETWORK_CODE, TIMEOUT_CODE } from '../../src/api/errors';
import { fakeFetch, never } from './fake-fetch';

const ok = (data: unknown) => ({ body: { code: 0, data, message: 'ok' } });

describe('HTTP client', () => {
  it('When the answer has code 0, then the call resolves with its data', async () => {
    const { fetch, sent } = fakeFetch(() => ok({ id: 7 }));
    const client = createHttpClient({ fetch, getToken: () => 'tok-1', getLocale: () => 'en' });
    await expect(client({ method: 'POST', path: '/api/manage/admin/create', params: { username: 'x' } })).resolves.toEqual({ id: 7 });
    expect(sent[0]).toMatchObject({
      url: '/api/manage/admin/create',
      method: 'POST',
      body: { username: 'x' },
      headers: { Authentication: 'tok-1', 'Content-Type': 'application/json', 'Accept-Language': 'en' },
    });
  });

  it('When a call is public, then its Authentication header is empty', async () => {
    const { fetch, sent } = fakeFetch(() => ok(null));
    await createHttpClient({ fetch })({ method: 'POST', path: '/api/message/send' });
    expect(sent[0].headers.Authentication).toBe('');
    expect(sent[0].body).toEqual({});
  });

  it('When the call is a GET, then its parameters travel as a query string, objects as JSON', async () => {
    const { fetch, sent } = fakeFetch(() => ok({ list: [], total: 0 }));
    await createHttpClient({ fetch })({ method: 'GET', path: '/api/manage/email_template/list', params: { page: 2, filter: { locale: 'en' }, q: undefined } });
    expect(sent[0].url).toBe(`/api/manage/email_template/list?page=2&filter=${encodeURIComponent('{"locale":"en"}')}`);
    expect(sent[0].body).toBeUndefined();
    expect(queryString({})).toBe('');
  });

  it('When the answer has code 20000, then the stored session is reset and no alert is shown', async () => {
    const { fetch } = fakeFetch(() => ({ status: 401, body: { code: 20000, data: null, message: 'error.session' } }));
    const onSessionReset = vi.fn();
    const onError = vi.fn();
    const client = createHttpClient({ fetch, onSessionReset, onError });
    await expect(client({ method: 'POST', path: '/api/admin/me/info' })).rejects.toMatchObject({ code: 20000, status: 401 });
    expect(onSessionReset).toHaveBeenCalledOnce();
    expect(onError).not.toHaveBeenCalled();
  });

  it('When the answer has another code, then the call fails with its message key, params and field errors, and it is reported', async () => {
    const errors = { password: { message: 'validation.too_short', params: { min: 8 } } };
    const { fetch } = fakeFetch(() => ({ status: 400, body: { code: 40000, data: null, message: 'error.validation', errors } }));
    const onError = vi.fn();
    const onSessionReset = vi.fn();
    const client = createHttpClient({ fetch, onError, onSessionReset });
    const error = await client({ method: 'POST', path: '/api/admin/login/register' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 40000, message: 'error.validation', status: 400, errors });
    expect(onError).toHaveBeenCalledWith(error);
    expect(onSessionReset).not.toHaveBeenCalled();
  });

  it('When a silent call fails, then it is not reported', async () => {
    const { fetch } = fakeFetch(() => ({ status: 404, body: { code: 40400, data: null, message: 'error.no_such_call' } }));
    const onError = vi.fn();
    await expect(createHttpClient({ fetch, onError })({ method: 'POST', path: '/api/product/list', silent: true })).rejects.toMatchObject({ code: 40400 });
    expect(onError).not.toHaveBeenCalled();
  });

  it('When the server does not answer within 5000 ms, then the call is aborted with a timeout error', async () => {
    vi.useFakeTimers();
    try {
      const { fetch } = fakeFetch(never);
      const onError = vi.fn();
      const pending = createHttpClient({ fetch, onError })({ method: 'POST', path: '/api/manage/index/stat' }).catch((e) => e);
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      expect(onError).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      const error = await pending;
      expect(REQUEST_TIMEOUT_MS).toBe(5000);
      expect(error).toMatchObject({ code: TIMEOUT_CODE, message: 'app.error.timeout', params: { seconds: 5 } });
      expect(onError).toHaveBeenCalledWith(error);
    } finally {
      vi.useRealTimers();
    }
  });

  it('When the network fails or the answer is no envelope, then the call fails with a network error', async () => {
    const broken = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    await expect(createHttpClient({ fetch: broken })({ method: 'GET', path: '/api/x' })).rejects.toMatchObject({ code: NETWORK_CODE });
    const html = (async () => new Response('<html>', { status: 502 })) as unknown as typeof fetch;
    await expect(createHttpClient({ fetch: html })({ method: 'GET', path: '/api/x' })).rejects.toMatchObject({ code: NETWORK_CODE, status: 502 });
  });
});
