/**
 * One call of the API: its path, method, who may make it, its input schema and its handler.
 * registerCall adds the route with authentication, validation and the {code, data, message}
 * envelope, and records the call for the OpenAPI description.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Services } from '../services.js';
import { anonymous, type Actor, type CustomerActor, type OperatorActor } from './actor.js';
import type { RequestOrigin } from './audit.js';
import { AppError, forbidden } from './errors.js';
import { findSignedIn } from './sessions.js';
import { teamDomainsOf } from './team-domains.js';
import { malformedQuery } from './query-string.js';
import { parseInput } from './validation.js';
import type { Locale } from '../../resources/customer.js';
import type { OperatorRole } from '../../resources/define.js';

export type Auth = 'public' | 'customer' | 'operator';

type ActorOf<A extends Auth> = A extends 'customer' ? CustomerActor : A extends 'operator' ? OperatorActor : Actor;

export interface CallContext<A extends Auth = Auth> extends RequestOrigin {
  services: Services;
  actor: ActorOf<A>;
  /** The language the caller reads (Accept-Language), for e-mails sent on their behalf. */
  locale: Locale;
}

export interface CallSpec<S extends z.ZodType, A extends Auth = Auth> {
  method: 'GET' | 'POST';
  path: string;
  auth: A;
  summary: string;
  /** Tag in the OpenAPI description (the entity). */
  tag: string;
  /** The body (POST) or query string (GET). */
  input: S;
  /** Customer calls need a verified account unless this is false. */
  needsVerified?: boolean;
  /** Finer permission once the caller is known (roles, account owner). */
  allow?: (actor: ActorOf<A>) => boolean;
  /** Operator roles allowed (superadmin always is); all operators when absent. */
  roles?: readonly OperatorRole[];
  handler: (input: z.output<S>, ctx: CallContext<A>) => Promise<unknown>;
}

export function defineCall<S extends z.ZodType, A extends Auth>(spec: CallSpec<S, A>): CallSpec<S, A> {
  return spec;
}

/** A handler's answer that is a file, sent as it is (no envelope), e.g. a ticket attachment. */
export class FileAnswer {
  constructor(
    readonly body: Buffer,
    readonly headers: Record<string, string>,
  ) {}
}

export function registerCalls(app: FastifyInstance, services: Services, specs: CallSpec<any, any>[]) {
  for (const spec of specs) {
    services.calls.push(spec);
    app.route({
      method: spec.method,
      url: spec.path,
      handler: async (request, reply) => {
        const actor = await authenticate(services, spec.auth, request);
        if (actor.kind === 'customer' && spec.needsVerified !== false && !actor.isVerified) {
          throw new AppError('notVerified', 'error.not_verified');
        }
        if (actor.kind === 'operator' && spec.roles && actor.role !== 'superadmin' && !spec.roles.includes(actor.role)) throw forbidden();
        if (spec.allow && !spec.allow(actor)) throw forbidden();
        if (spec.method === 'GET' && (request.query as Record<symbol, unknown>)[malformedQuery]) throw new AppError('validation', 'error.bad_request');
        const input = parseInput(spec.input, spec.method === 'GET' ? request.query : request.body);
        const ctx: CallContext = {
          services,
          actor,
          ip: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
          locale: localeOf(request),
        };
        const data = await spec.handler(input, ctx);
        if (data instanceof FileAnswer) return reply.headers(data.headers).send(data.body);
        return { code: 0, data: data ?? null, message: 'ok' };
      },
    });
  }
}

export function localeOf(request: FastifyRequest): Locale {
  const header = String(request.headers['accept-language'] ?? '');
  return /^\s*en\b/i.test(header) ? 'en' : 'zh';
}

/** The credential of the call's area, resolved to an active account, or error 20000. */
async function authenticate(services: Services, auth: Auth, request: FastifyRequest): Promise<Actor> {
  if (auth === 'public') return anonymous;
  const header = request.headers.authentication;
  const token = typeof header === 'string' ? header.trim() : '';
  const { db, database, config } = services;
  if (auth === 'operator') {
    const operator = await findSignedIn(database, config, 'operator', token);
    if (!operator || operator.status !== 'active') throw noSession();
    return { kind: 'operator', sessionId: operator.session_id, id: operator.id, username: operator.username, role: operator.role as OperatorRole };
  }
  const account = await findSignedIn(database, config, 'customer', token);
  if (!account || account.status !== 'active') throw noSession();
  const isOwner = account.owner_id === null;
  if (!isOwner && account.owner_status !== 'active') throw noSession();
  return {
    kind: 'customer',
    sessionId: account.session_id,
    accountId: account.id,
    customerId: account.owner_id ?? account.id,
    isOwner,
    email: account.email,
    isVerified: account.is_verified === 1,
    account,
    ...(isOwner ? {} : { domainIds: await teamDomainsOf(db, account.id) }),
  };
}

// Built only when a request is refused (an error object costs a stack trace).
const noSession = () => new AppError('session', 'error.session');
