/**
 * One call of the API: its path, method, who may make it, its input schema and its handler.
 * registerCall adds the route with authentication, validation and the {code, data, message}
 * envelope, and records the call for the OpenAPI description.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Locale } from '../../resources/customer.js';
import type { OperatorRole } from '../../resources/define.js';
import { anonymous, type Actor, type CustomerActor, type MailboxActor, type OperatorActor } from './actor.js';
import type { RequestOrigin } from './audit.js';
import { AppError, forbidden } from './errors.js';
import { malformedQuery } from './query-string.js';
import type { Services } from './services.js';
import { parseInput } from './validation.js';

/** Who may make a call: anyone, or the holder of one area's token (customer: /api/admin, operator: /api/manage, mailbox: /api/mail). */
export type Auth = 'public' | 'customer' | 'operator' | 'mailbox';
export type SignedInAuth = Exclude<Auth, 'public'>;

/** Resolves an area's token (the Authentication header) to an active caller, or throws noSession(). */
export type Authenticator = (services: Services, token: string) => Promise<Actor>;
export type Authenticators = Record<SignedInAuth, Authenticator>;
/** Resolves an API key (Authorization: Bearer) sent from `ip` to its creator as the caller, or throws. */
export type KeyAuthenticator = (services: Services, key: string, ip: string) => Promise<Actor>;
/** The areas scripts may call with an API key: customers' and operators'. */
export type KeyAuthenticators = Partial<Record<SignedInAuth, KeyAuthenticator>>;

type ActorOf<A extends Auth> = A extends 'customer' ? CustomerActor : A extends 'operator' ? OperatorActor : A extends 'mailbox' ? MailboxActor : Actor;

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
  /** A POST call that changes nothing (a list): a read-only API key may make it, as it may every GET. */
  reads?: boolean;
  /** false: a signed-in person only, never an API key (keys, sessions, passwords, second factors). */
  keys?: false;
  /** A larger body than BODY_LIMIT_BYTES allows (an imported file), in bytes. The caller is let in before it is read. */
  bodyLimit?: number;
  /** The body (or query) as sent, made into the input before anything checks it (a file's byte-order mark taken off). */
  asSent?: (input: unknown) => unknown;
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

declare module 'fastify' {
  interface FastifyRequest {
    /** Who made the call, once its authentication has found out; the request line names them (core/logging.ts). */
    actor: Actor | null;
    /** The call's path, once it is known to be one of ours: the request line's route, without Fastify's routeOptions (an object made per read). */
    callPath: string | null;
  }
}

export function registerCalls(app: FastifyInstance, services: Services, specs: CallSpec<any, any>[], authenticators: Authenticators, keyAuthenticators: KeyAuthenticators = {}) {
  app.decorateRequest('actor', null);
  app.decorateRequest('callPath', null);
  // A session token when one is sent; otherwise an API key of the area, if it takes them.
  const callerOf = (request: FastifyRequest, auth: SignedInAuth) => {
    const token = tokenOf(request);
    const key = token ? '' : apiKeyOf(request);
    if (!key) return authenticators[auth](services, token);
    const byKey = keyAuthenticators[auth];
    if (!byKey) throw noSession();
    return byKey(services, key, request.ip);
  };
  // Who calls, and whether they may make this call: refused here, nothing of the call happens.
  const admitted = async (spec: CallSpec<any, any>, request: FastifyRequest): Promise<Actor> => {
    request.callPath = spec.path;
    const auth: Auth = spec.auth;
    const actor = auth === 'public' ? anonymous : await callerOf(request, auth);
    request.actor = actor;
    if ('apiKey' in actor && actor.apiKey) keyMayMake(spec, actor.apiKey.access);
    if (actor.kind === 'customer' && spec.needsVerified !== false && !actor.isVerified) {
      throw new AppError('notVerified', 'error.not_verified');
    }
    if (actor.kind === 'operator' && spec.roles && actor.role !== 'superadmin' && !spec.roles.includes(actor.role)) throw forbidden();
    if (spec.allow && !spec.allow(actor)) throw forbidden();
    return actor;
  };
  for (const spec of specs) {
    // An upload (a body larger than BODY_LIMIT_BYTES allows) is let in before its body is read:
    // nobody may make the server read 30 MiB only to be told they are not signed in.
    const admitsFirst = spec.bodyLimit !== undefined && spec.auth !== 'public';
    app.route({
      method: spec.method,
      url: spec.path,
      ...(spec.bodyLimit ? { bodyLimit: Math.max(spec.bodyLimit, services.config.bodyLimitBytes) } : {}),
      ...(admitsFirst ? { onRequest: async (request: FastifyRequest) => void (await admitted(spec, request)) } : {}),
      handler: async (request, reply) => {
        const actor = admitsFirst ? request.actor! : await admitted(spec, request);
        if (spec.method === 'GET' && (request.query as Record<symbol, unknown>)[malformedQuery]) throw new AppError('validation', 'error.bad_request');
        const sent = spec.method === 'GET' ? request.query : request.body;
        const input = parseInput(spec.input, spec.asSent ? spec.asSent(sent) : sent);
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

/** A customer-area call's context, narrowed: the call's auth has made sure of it, and a wrong wiring fails loudly. */
export function customerContext(ctx: CallContext): CallContext<'customer'> {
  if (ctx.actor.kind !== 'customer') throw forbidden();
  return ctx as CallContext<'customer'>;
}

export function localeOf(request: FastifyRequest): Locale {
  const header = String(request.headers['accept-language'] ?? '');
  return /^\s*en\b/i.test(header) ? 'en' : 'zh';
}

/** An API key may not manage credentials; a read-only one makes only calls that change nothing. */
function keyMayMake(spec: CallSpec<any, any>, access: 'read' | 'write') {
  if (spec.keys === false) throw new AppError('forbidden', 'error.api_key_not_here');
  if (access === 'read' && spec.method !== 'GET' && !spec.reads) throw new AppError('forbidden', 'error.api_key_read_only');
}

/** Authorization: Bearer <key>, the way scripts send an API key. */
const apiKeyOf = (request: FastifyRequest) => {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^\s*Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : '';
};

const tokenOf = (request: FastifyRequest) => {
  const header = request.headers.authentication;
  return typeof header === 'string' ? header.trim() : '';
};

/** No, an expired or a revoked session: the client drops the one it holds. (Built only when a request is refused: an error costs a stack trace.) */
export const noSession = () => new AppError('session', 'error.session');
