/**
 * The app's log: JSON lines (pino), one flat line per request as it ends (method, URL, route,
 * status, time, request id, address, who called), and the lines of errors and warnings under
 * the same request id.
 *
 * Secrets are kept out where they would come in, not censored on every line: the request line
 * is built from named fields only (never headers or a body), its URL loses secret query values,
 * and an error is logged as its type, message, stack and code, not its other properties (an
 * HTTP client's error carries the request it made, credentials included).
 *
 * Lines go to their destination through a buffer written asynchronously (log-buffer.ts), so a
 * request does not wait for a write; the app's close() writes what is left.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions } from 'pino';
import type { Actor } from './actor.js';
import { LogBuffer } from './log-buffer.js';

export interface LogSetting {
  /** pino's level (LOG_LEVEL): trace, debug, info, warn, error, fatal, silent. */
  level?: string;
  /** Where the lines go: a file descriptor or a file's path; default 1, standard output. */
  destination?: number | string;
  /** Or a stream given each line as it is made (tests). */
  stream?: { write(line: string): void };
}

/** The log of one app: its logger, and close() to write out what is still buffered. */
export interface AppLog {
  logger: pino.Logger;
  close(): Promise<void>;
}

/** Names whose values are secrets in a query string. */
const secretName = /pass|token|code|secret|key|auth|cookie|session|signature|otp|credential/i;

/** A URL as logged: the path, and the query's names with any secret-looking value censored. */
export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  for (const [name] of query) if (secretName.test(name)) query.set(name, '[Redacted]');
  return `${url.slice(0, at)}?${query.toString()}`;
}

/** A proxy's X-Request-Id is kept when it looks like one; otherwise a new one is made. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : crypto.randomUUID();
}

/** An error as logged: what it is and where it came from, none of the properties a library hangs on it. */
function loggedError(error: unknown) {
  if (!(error instanceof Error)) return error;
  const { type, message, stack } = pino.stdSerializers.err(error);
  const code = (error as { code?: unknown }).code;
  return { type, message, stack, ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}) };
}

// For the rare lines that name a request or an answer (Fastify's own warnings): the same fields as the request line.
const serializers = {
  err: loggedError,
  req: (request: FastifyRequest) => ({ method: request.method, url: loggedUrl(request.url), route: request.routeOptions?.url, remoteAddress: request.ip }),
  res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
};

/** The log for a setting: none (false), or a logger writing to the setting's destination. */
export function openLog(setting: boolean | LogSetting | undefined): AppLog | undefined {
  if (!setting) return undefined;
  const { level = 'info', destination = 1, stream } = setting === true ? {} : setting;
  if (stream) return { logger: lazyChildren(pino({ level, serializers }, stream)), close: async () => undefined };
  const buffer = new LogBuffer(destination);
  return { logger: lazyChildren(pino({ level, serializers }, buffer)), close: () => buffer.close() };
}

/**
 * The app's logger, whose children are made when first used (RequestLogger): Fastify asks for one
 * per request, with its request id bound. (Fastify's childLoggerFactory would do the same, but
 * Fastify then checks every child it returns, seven methods, on every request.)
 */
function lazyChildren(logger: pino.Logger): pino.Logger {
  const child = logger.child.bind(logger) as ChildMaker;
  logger.child = ((bindings: Bindings, options?: ChildLoggerOptions) => new RequestLogger(child, logger, bindings, options ?? {})) as unknown as pino.Logger['child'];
  return logger;
}

type ChildMaker = (bindings: Bindings, options: ChildLoggerOptions) => FastifyBaseLogger;

/** Who called, as the request line names them. */
function callerOf(actor: Actor | null): string | undefined {
  switch (actor?.kind) {
    case 'customer':
      return actor.apiKey ? `customer:${actor.accountId} key:${actor.apiKey.id}` : `customer:${actor.accountId}`;
    case 'operator':
      return actor.apiKey ? `operator:${actor.id} key:${actor.apiKey.id}` : `operator:${actor.id}`;
    case 'mailbox':
      return `mailbox:${actor.mailboxId}`;
    default:
      return undefined;
  }
}

/** What the request line says of a request (the line of a request that errored, written by pino with the error). */
function requestFields(request: FastifyRequest, reply: FastifyReply) {
  return {
    reqId: request.id,
    method: request.method,
    url: loggedUrl(request.url),
    route: request.routeOptions.url,
    statusCode: reply.statusCode,
    responseTime: Math.round(reply.elapsedTime * 100) / 100,
    remoteAddress: request.ip ?? '',
    actor: callerOf(request.actor),
  };
}

/**
 * Fastify's request logging, as one line once the answer has gone (none as a request comes in).
 * Written through the app's logger with the request id as a field: a request that logs nothing
 * else never makes a logger of its own (RequestLogger).
 */
export class RequestLine extends LogController {
  private readonly writes: boolean;
  /** Where the logger writes, and what it puts in every line (`,"pid":…,"hostname":…`). */
  private readonly stream: { write(line: string): unknown };
  private readonly bindings: string;

  constructor(private readonly logger: pino.Logger) {
    super();
    // Not at LOG_LEVEL=warn and above.
    this.writes = logger.isLevelEnabled('info');
    const internals = logger as unknown as Record<symbol, unknown>;
    this.stream = internals[pino.symbols.streamSym] as { write(line: string): unknown };
    this.bindings = internals[pino.symbols.chindingsSym] as string;
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) this.logger.error({ ...requestFields(request, reply), err: error }, 'request errored');
    else if (this.writes) this.stream.write(requestLine(request, reply, this.bindings));
  }
}

const text = JSON.stringify;

/**
 * The line pino would write for logger.info(requestFields(…), 'request'), written directly: it is
 * made for every request, and pino's general path (its hooks, a serializer check per field, its
 * string escaping) cost more than the line's own few fields need. An absent field is left out, as pino does.
 */
function requestLine(request: FastifyRequest, reply: FastifyReply, bindings: string): string {
  const route = request.callPath ?? request.routeOptions.url;
  const actor = callerOf(request.actor);
  // Quoted as they are: a request id (requestIdOf: word characters, '.', ':', '-'), an HTTP method (a
  // token), a caller ("kind:id"). What a client wrote is escaped: the URL, a route, the address (with
  // TRUST_PROXY, whatever X-Forwarded-For said).
  return (
    `{"level":30,"time":${Date.now()}${bindings},"reqId":"${request.id}","method":"${request.method}","url":${text(loggedUrl(request.url))}` +
    `${route === undefined ? '' : `,"route":${text(route)}`},"statusCode":${reply.statusCode},"responseTime":${Math.round(reply.elapsedTime * 100) / 100}` +
    `,"remoteAddress":${text(request.ip ?? '')}${actor === undefined ? '' : `,"actor":"${actor}"`},"msg":"request"}\n`
  );
}

type Level = 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal' | 'silent';

/**
 * A request's own logger (request.log: its lines carry reqId), made the first time something
 * logs through it. Most requests log nothing but their request line, and a pino child for each
 * costs a good part of what the line does.
 */
export class RequestLogger implements FastifyBaseLogger {
  #logger: FastifyBaseLogger | undefined;

  constructor(
    private readonly makeChild: ChildMaker,
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private made(): FastifyBaseLogger {
    return (this.#logger ??= this.makeChild(this.bindings, this.options));
  }

  private at(level: Level, args: unknown[]) {
    const logger = this.made();
    (logger[level] as (...args: unknown[]) => void).apply(logger, args);
  }

  get level() {
    return this.#logger?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.made().level = level;
  }
  info(...args: unknown[]) {
    this.at('info', args);
  }
  error(...args: unknown[]) {
    this.at('error', args);
  }
  warn(...args: unknown[]) {
    this.at('warn', args);
  }
  debug(...args: unknown[]) {
    this.at('debug', args);
  }
  trace(...args: unknown[]) {
    this.at('trace', args);
  }
  fatal(...args: unknown[]) {
    this.at('fatal', args);
  }
  silent(...args: unknown[]) {
    this.at('silent', args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions) {
    return this.made().child(bindings, options);
  }
}
