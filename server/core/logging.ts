/**
 * The app's log: JSON lines (pino, through Fastify), each request's lines under one request id,
 * and never a secret: credentials headers, and anything named like a password, token, code or
 * key, are censored wherever a line carries them; URLs lose such query values.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

export interface LogSetting {
  /** pino's level (LOG_LEVEL): trace, debug, info, warn, error, fatal, silent. */
  level?: string;
  /** Where the lines go (tests); default standard output. */
  stream?: { write(line: string): void };
}

/** Names whose values are secrets, in a query string or as a field of anything logged. */
const secretName = /pass|token|code|secret|key|auth|cookie|session|signature|otp|credential/i;

const secretFields = ['password', 'new_password', 'old_password', 'token', 'code', 'secret', 'key', 'api_key', 'recovery_code', 'authentication', 'authorization', 'cookie'];

const censoredPaths = [
  'req.headers.authentication',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  ...secretFields.flatMap((f) => [f, `*.${f}`]),
];

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

/** Fastify's logger option for a setting: false (none), or pino's options. */
export function loggerOptions(setting: boolean | LogSetting | undefined): FastifyServerOptions['logger'] {
  if (!setting) return false;
  const { level = 'info', stream } = setting === true ? {} : setting;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: censoredPaths, censor: '[Redacted]' },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; routeOptions?: { url?: string } }) => ({
        method: request.method,
        url: loggedUrl(request.url),
        route: request.routeOptions?.url,
        remoteAddress: request.ip,
      }),
    },
  };
}
