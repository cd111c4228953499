/** Builds the HTTP app: every call, the error envelope, the OpenAPI description and the web app. */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerCalls } from './core/calls.js';
import { AppError } from './core/errors.js';
import { clientErrorHandler, envelopeOf, sendError } from './core/client-errors.js';
import { registerMultipart } from './core/multipart.js';
import { parseQueryString } from './core/query-string.js';
import { securityHeaders } from './core/security-headers.js';
import { openApiDocument } from './core/openapi.js';
import { resourceCalls } from './core/resource-calls.js';
import { serverResources } from './resources/index.js';
import { customerLoginCalls } from './routes/customer-login.js';
import { customerMeCalls } from './routes/customer-me.js';
import { guestMessageCalls, guestReplyCalls } from './routes/guest-message.js';
import { operatorAccountCalls } from './routes/operator-account.js';
import { statCalls } from './routes/stats.js';
import { domainDnsCalls } from './routes/domain-dns.js';
import { mailboxCalls } from './routes/mailbox-calls.js';
// Mailbox deletion (issue 12)
import { deletedMailboxCalls } from './routes/deleted-mailbox-calls.js';
import { storageCalls } from './routes/storage-calls.js';
// Durable jobs: the operators' view
import { jobCalls } from './routes/job-calls.js';
// Support (tickets)
import { ticketCalls } from './support/calls.js';
// Mail-client settings and automatic configuration (issue 14)
import { mailClientCalls, registerMailClientConfig } from './routes/mail-client-config.js';
import type { Services } from './services.js';
// Shop.
import { shopCalls } from './shop/calls.js';
import { stripeWebhook } from './shop/webhook.js';
// Team-member invitations (issue 8)
import { teamInvitationCalls } from './team/calls.js';

export const version = '0.1.0';

// Our routes declare no JSON schema (zod validates input: core/validation.ts), so Fastify's schema
// compilers (ajv, fast-json-stringify: a good part of start-up) load only if a route ever needs one.
const load = createRequire(import.meta.url);
const lazySchemaCompilers = {
  buildValidator: (...args: unknown[]) => load('@fastify/ajv-compiler')()(...args),
  buildSerializer: (...args: unknown[]) => load('@fastify/fast-json-stringify-compiler')()(...args),
};

export async function buildApp(services: Omit<Services, 'logger' | 'calls'>, options: { logger?: boolean } = {}): Promise<{ app: FastifyInstance; services: Services }> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: services.config.bodyLimitBytes,
    trustProxy: services.config.trustProxy,
    // Bad URLs and over-long parameters, and the HTTP parser's own refusals, answer the envelope too.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
    clientErrorHandler,
    routerOptions: { querystringParser: parseQueryString },
    schemaController: { compilersFactory: lazySchemaCompilers },
  });
  securityHeaders(app, services.config.publicUrl);
  const full: Services = { ...services, logger: app.log, calls: [] };

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

  registerCalls(app, full, [
    ...customerLoginCalls,
    ...customerMeCalls,
    ...operatorAccountCalls,
    ...guestMessageCalls,
    ...statCalls,
    ...domainDnsCalls,
    ...mailboxCalls,
    // Mailbox deletion (issue 12)
    ...deletedMailboxCalls,
    ...storageCalls,
    // Shop.
    ...shopCalls,
    // Durable jobs: the operators' view
    ...jobCalls,
    // Support (tickets)
    ...ticketCalls,
    // Mail-client settings and guest-message replies (issue 14)
    ...mailClientCalls,
    ...guestReplyCalls,
    // Team-member invitations (issue 8)
    ...teamInvitationCalls,
    ...serverResources.flatMap(({ declaration, behaviour }) => resourceCalls(declaration, behaviour)),
  ]);

  // Shop: Stripe's notices, verified on their raw body.
  await app.register(stripeWebhook(full));
  registerMailClientConfig(app, full);

  // Made when first asked for: converting ~120 input schemas is not worth delaying start-up for.
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get('/api/openapi.json', async () => (document ??= openApiDocument(full.calls, version)));

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
