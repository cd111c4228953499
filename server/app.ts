/** Builds the HTTP app: every call, the error envelope, the OpenAPI description and the web app. */
import fs from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { registerCalls } from './core/calls.js';
import { AppError } from './core/errors.js';
import { openApiDocument } from './core/openapi.js';
import { resourceCalls } from './core/resource-calls.js';
import { serverResources } from './resources/index.js';
import { customerLoginCalls } from './routes/customer-login.js';
import { customerMeCalls } from './routes/customer-me.js';
import { guestMessageCalls } from './routes/guest-message.js';
import { operatorAccountCalls } from './routes/operator-account.js';
import { statCalls } from './routes/stats.js';
import { domainDnsCalls } from './routes/domain-dns.js';
import { mailboxCalls } from './routes/mailbox-calls.js';
import { storageCalls } from './routes/storage-calls.js';
import type { Services } from './services.js';

export const version = '0.1.0';

function envelopeOf(error: AppError) {
  return { code: error.code, data: null, message: error.message, params: error.params, errors: error.errors };
}

/** Fastify's own errors (body too large, bad JSON, …) in our classes. */
function asAppError(error: FastifyError): AppError | undefined {
  if (error instanceof AppError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('tooLarge', 'error.too_large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('validation', 'error.invalid_json');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('validation', 'error.unsupported_media_type');
  }
  if (error.statusCode === 400 && error instanceof SyntaxError) return new AppError('validation', 'error.invalid_json');
  return undefined;
}

export async function buildApp(services: Omit<Services, 'logger' | 'calls'>, options: { logger?: boolean } = {}): Promise<{ app: FastifyInstance; services: Services }> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: services.config.bodyLimitBytes,
    trustProxy: services.config.trustProxy,
  });
  const full: Services = { ...services, logger: app.log, calls: [] };

  // An empty JSON body is an empty object: clients post calls that take no parameters without one.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError('validation', 'error.invalid_json'));
    }
  });

  // The specification's multipart/form-data posting variant: its fields become the body.
  await app.register(fastifyMultipart, { attachFieldsToBody: 'keyValues', limits: { fieldSize: services.config.bodyLimitBytes, fileSize: services.config.bodyLimitBytes } });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = asAppError(error);
    if (known) return reply.status(known.status).send(envelopeOf(known));
    request.log.error({ err: error }, 'unexpected error');
    const internal = new AppError('internal', 'error.internal');
    return reply.status(internal.status).send(envelopeOf(internal));
  });

  registerCalls(app, full, [
    ...customerLoginCalls,
    ...customerMeCalls,
    ...operatorAccountCalls,
    ...guestMessageCalls,
    ...statCalls,
    ...domainDnsCalls,
    ...mailboxCalls,
    ...storageCalls,
    ...serverResources.flatMap(({ declaration, behaviour }) => resourceCalls(declaration, behaviour)),
  ]);

  const document = openApiDocument(full.calls, version);
  app.get('/api/openapi.json', async () => document);

  const webRoot = services.config.webRoot ?? path.resolve('dist/web');
  const hasWeb = fs.existsSync(path.join(webRoot, 'index.html'));
  if (hasWeb) await app.register(fastifyStatic, { root: webRoot, wildcard: false });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || !hasWeb || request.method !== 'GET') {
      const error = new AppError('notFound', 'error.no_such_call');
      return reply.status(error.status).send(envelopeOf(error));
    }
    // Every other path belongs to the web app, which shows its own not-found page.
    return reply.type('text/html').sendFile('index.html');
  });

  return { app, services: full };
}
