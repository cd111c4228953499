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
import { findLiveSession } from './sessions.js';
import { teamDomainsOf } from './team-domains.js';
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

export function registerCalls(app: FastifyInstance, services: Services, specs: CallSpec<any, any>[]) {
  for (const spec of specs) {
    services.calls.push(spec);
    app.route({
      method: spec.method,
      url: spec.path,
      handler: async (request) => {
        const actor = await authenticate(services, spec.auth, request);
        if (actor.kind === 'customer' && spec.needsVerified !== false && !actor.isVerified) {
          throw new AppError('notVerified', 'error.not_verified');
        }
        if (actor.kind === 'operator' && spec.roles && actor.role !== 'superadmin' && !spec.roles.includes(actor.role)) throw forbidden();
        if (spec.allow && !spec.allow(actor)) throw forbidden();
        const input = parseInput(spec.input, spec.method === 'GET' ? request.query : request.body);
        const ctx: CallContext = {
          services,
          actor,
          ip: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
          locale: localeOf(request),
        };
        const data = await spec.handler(input, ctx);
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
  const token = String(request.headers.authentication ?? '').trim();
  const { db, config } = services;
  const noSession = new AppError('session', 'error.session');
  if (auth === 'operator') {
    const session = await findLiveSession(db, config, 'operator', token);
    if (!session) throw noSession;
    const operator = await db.selectFrom('admin').selectAll().where('id', '=', session.account_id).executeTakeFirst();
    if (!operator || operator.status !== 'active') throw noSession;
    return { kind: 'operator', sessionId: session.id, id: operator.id, username: operator.username, role: operator.role as OperatorRole };
  }
  const session = await findLiveSession(db, config, 'customer', token);
  if (!session) throw noSession;
  const account = await db.selectFrom('user').selectAll().where('id', '=', session.account_id).executeTakeFirst();
  if (!account || account.status !== 'active') throw noSession;
  if (account.owner_id !== null) {
    const owner = await db.selectFrom('user').select('status').where('id', '=', account.owner_id).executeTakeFirst();
    if (!owner || owner.status !== 'active') throw noSession;
  }
  return {
    kind: 'customer',
    sessionId: session.id,
    accountId: account.id,
    customerId: account.owner_id ?? account.id,
    isOwner: account.owner_id === null,
    email: account.email,
    isVerified: account.is_verified === 1,
    ...(account.owner_id !== null ? { domainIds: await teamDomainsOf(db, account.id) } : {}),
  };
}
