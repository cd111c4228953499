/**
 * The one way the web app talks to the API: a 5000 ms timeout, the {code, data, message}
 * envelope unwrapped, code 20000 resetting the stored session, every other failure raised as
 * an ApiError (and reported, unless the caller asks for silence).
 */
import { ApiError, NETWORK_CODE, SESSION_CODE, TIMEOUT_CODE } from './errors';

export const REQUEST_TIMEOUT_MS = 5000;

export type Params = Record<string, unknown>;

export interface Request {
  method: 'GET' | 'POST';
  /** e.g. "/api/manage/admin/list" */
  path: string;
  /** Query string for GET (objects as JSON strings), JSON body for POST. */
  params?: Params;
  /** Do not report a failure (the caller handles it). */
  silent?: boolean;
  /** POST as the multipart/form-data variant instead of JSON (files: ticket attachments). */
  form?: FormData;
}

/** Uploads may take longer than the 5000 ms every other call gets. */
export const UPLOAD_TIMEOUT_MS = 60_000;

export type HttpClient = <T = unknown>(request: Request) => Promise<T>;

export interface HttpClientOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The stored session's token; the empty string for public calls. */
  getToken?: () => string;
  /** Called on code 20000: forget the stored session. */
  onSessionReset?: () => void;
  /** Called for every other failure, unless the request is silent: shows the WARNING alert. */
  onError?: (error: ApiError) => void;
  /** Accept-Language of the calls (the server writes e-mails in it). */
  getLocale?: () => string;
}

export function queryString(params: Params = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

interface Envelope {
  code: number;
  data: unknown;
  message: string;
  params?: Record<string, unknown>;
  errors?: ApiError['errors'];
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;

  async function send(request: Request): Promise<{ status: number; body: Envelope }> {
    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const controller = new AbortController();
    const limit = request.form ? Math.max(timeoutMs, UPLOAD_TIMEOUT_MS) : timeoutMs;
    const timer = setTimeout(() => controller.abort(), limit);
    const url = request.method === 'GET' ? `${request.path}${queryString(request.params)}` : request.path;
    const headers: Record<string, string> = { Authentication: options.getToken?.() ?? '', Accept: 'application/json' };
    if (options.getLocale) headers['Accept-Language'] = options.getLocale();
    // A form sets its own Content-Type (with the boundary).
    if (request.method === 'POST' && !request.form) headers['Content-Type'] = 'application/json';
    try {
      const response = await doFetch(url, {
        method: request.method,
        headers,
        body: request.method === 'POST' ? (request.form ?? JSON.stringify(request.params ?? {})) : undefined,
        signal: controller.signal,
      });
      const body = (await response.json().catch(() => null)) as Envelope | null;
      if (!body || typeof body.code !== 'number') throw new ApiError(NETWORK_CODE, 'app.error.network', response.status);
      return { status: response.status, body };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (controller.signal.aborted) throw new ApiError(TIMEOUT_CODE, 'app.error.timeout', 0, { seconds: limit / 1000, smart_count: limit / 1000 });
      throw new ApiError(NETWORK_CODE, 'app.error.network', 0);
    } finally {
      clearTimeout(timer);
    }
  }

  return async <T,>(request: Request): Promise<T> => {
    let status: number;
    let body: Envelope;
    try {
      ({ status, body } = await send(request));
    } catch (error) {
      if (!request.silent) options.onError?.(error as ApiError);
      throw error;
    }
    if (body.code === 0) return body.data as T;
    const error = new ApiError(body.code, body.message, status, body.params, body.errors);
    if (body.code === SESSION_CODE) options.onSessionReset?.();
    else if (!request.silent) options.onError?.(error);
    throw error;
  };
}
