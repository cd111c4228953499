/** Builds the HTTP app: every call, the error envelope, the OpenAPI description and the web app. */
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { capabilities } from './capabilities.js';
import type { Capability } from './core/capability.js';
import { registerCalls, type Authenticators, type CallSpec, type KeyAuthenticators } from './core/calls.js';
import { clientErrorHandler, envelopeOf, sendError } from './core/client-errors.js';
import { AppError } from './core/errors.js';
import { openLog, RequestLine, requestIdOf, type LogSetting } from './core/logging.js';
import { registerMultipart } from './core/multipart.js';
import { openApiDocument } from './core/openapi.js';
import { parseQueryString } from './core/query-string.js';
import { resourceCalls } from './core/resource-calls.js';
import { securityHeadersOf } from './core/security-headers.js';
import type { Services } from './core/services.js';
import { serveWebApp } from './core/web-app.js';

export const version = '0.1.0';

// Our routes declare no JSON schema (zod validates input: core/validation.ts), so Fastify's schema
// compilers (ajv, fast-json-stringify: a good part of start-up) load only if a route ever needs one.
const load = createRequire(import.meta.url);
const lazySchemaCompilers = {
  buildValidator: (...args: unknown[]) => load('@fastify/ajv-compiler')()(...args),
  buildSerializer: (...args: unknown[]) => load('@fastify/fast-json-stringify-compiler')()(...args),
};

/** Every call of the capabilities: their own, and those derived from their resources' declarations. */
export const callsOf = (list: readonly Capability[]): CallSpec<any, any>[] =>
  list.flatMap((c) => [...(c.calls ?? []), ...(c.resources ?? []).flatMap(({ declaration, behaviour }) => resourceCalls(declaration, behaviour))]);

export async function buildApp(
  services: Omit<Services, 'logger'>,
  options: { logger?: boolean | LogSetting } = {},
): Promise<{ app: FastifyInstance; services: Services; calls: CallSpec<any, any>[]; closeLog: () => Promise<void> }> {
  const log = openLog(options.logger);
  const app = Fastify({
    loggerInstance: log?.logger as FastifyBaseLogger | undefined,
    // One line per request, once answered, instead of Fastify's two; the logger's child for a request is
    // made only if something logs through it (core/logging.ts).
    ...(log ? { logController: new RequestLine(log.logger) } : {}),
    genReqId: requestIdOf,
    bodyLimit: services.config.bodyLimitBytes,
    trustProxy: services.config.trustProxy,
    // Bad URLs and over-long parameters, and the HTTP parser's own refusals, answer the envelope too.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
    clientErrorHandler,
    routerOptions: { querystringParser: parseQueryString },
    schemaController: { compilersFactory: lazySchemaCompilers },
  });
  // Every answer's security headers (core/security-headers.ts), and the request id: what an operator asks
  // a customer for, to find the request's log lines. One callback hook: a promise or a hook run per request costs.
  const securityHeaders = securityHeadersOf(services.config.publicUrl);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders(request.url));
    reply.header('x-request-id', request.id);
    done();
  });
  const full: Services = { ...services, logger: app.log };

  // An empty JSON body is an empty object: clients post calls that take no parameters without one.
  // JSON is UTF-8 (RFC 8259): bytes that are not are refused, not read with replacement characters.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      const text = utf8.decode(body as Buffer).trim();
      done(null, text === '' ? {} : JSON.parse(text));
    } catch {
      done(new AppError('validation', 'error.invalid_json'));
    }
  });

  registerMultipart(app, services.config.bodyLimitBytes);
  app.setErrorHandler(sendError);

  const calls = callsOf(capabilities);
  const authenticators = Object.assign({}, ...capabilities.map((c) => c.authenticators)) as Authenticators;
  const keyAuthenticators = Object.assign({}, ...capabilities.map((c) => c.keyAuthenticators)) as KeyAuthenticators;
  registerCalls(app, full, calls, authenticators, keyAuthenticators);
  for (const capability of capabilities) await capability.routes?.(app, full);

  // Made when first asked for: converting ~120 input schemas is not worth delaying start-up for.
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get('/api/openapi.json', async () => (document ??= openApiDocument(calls, version)));

  const page = await serveWebApp(app, services.config.webRoot ?? path.resolve('dist/web'));

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || !page || request.method !== 'GET') {
      const error = new AppError('notFound', 'error.no_such_call');
      return reply.status(error.status).send(envelopeOf(error));
    }
    // Every other path belongs to the web app, which shows its own not-found page.
    return page(request, reply);
  });

  return { app, services: full, calls, closeLog: async () => log?.close() };
}
