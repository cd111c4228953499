/**
 * Every error in the {code, data, message} envelope, whichever layer raises it: our own
 * AppErrors, Fastify's (body, content type, URL), the HTTP parser's (oversized headers or
 * request line). A client's mistake answers its 4xxxx code; only our own bugs answer 50000.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

export function envelopeOf(error: AppError) {
  return { code: error.code, data: null, message: error.message, params: error.params, errors: error.errors };
}

/** Fastify's own errors (body too large, bad JSON, …) in our classes; undefined for our bugs. */
export function asAppError(error: FastifyError): AppError | undefined {
  if (error instanceof AppError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('tooLarge', 'error.too_large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('validation', 'error.invalid_json');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('validation', 'error.unsupported_media_type');
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError('validation', 'error.invalid_json');
  // Any other error Fastify or a plugin marks as the client's (4xx) is bad input, not our bug.
  const status = error.statusCode ?? 0;
  if (status === 413 || status === 431) return new AppError('tooLarge', 'error.too_large');
  if (status >= 400 && status < 500) return new AppError('validation', 'error.bad_request');
  return undefined;
}

export function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const known = asAppError(error);
  if (known) {
    // A client told to wait says for how long in the header HTTP clients and proxies read, too.
    if (known.kind === 'rateLimited' && known.params?.retry_after !== undefined) reply.header('retry-after', String(known.params.retry_after));
    return reply.status(known.status).send(envelopeOf(known));
  }
  request.log.error({ err: error }, 'unexpected error');
  const internal = new AppError('internal', 'error.internal');
  return reply.status(internal.status).send(envelopeOf(internal));
}

/** Headers every answer carries, also those written before Fastify sees a request. */
export const baseHeaders = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/**
 * Errors of the HTTP parser itself (request line or headers over Node's maxHeaderSize, broken
 * framing): Node would answer a bare 431 or 400; we answer the envelope.
 */
export function clientErrorHandler(this: { log: { debug(obj: unknown, msg: string): void } }, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const kind = error.code === 'HPE_HEADER_OVERFLOW' ? new AppError('tooLarge', 'error.too_large') : new AppError('validation', 'error.bad_request');
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : kind.status;
  const body = JSON.stringify(envelopeOf(kind));
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const headers = Object.entries({ ...baseHeaders, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n${body}`);
  }
  socket.destroy(error);
}
