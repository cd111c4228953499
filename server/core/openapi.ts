/** The OpenAPI description, generated from the same call specs (and so declarations) the routes come from. */
import { z } from 'zod';
import { ErrorCode } from './errors.js';
import type { CallSpec } from './calls.js';

const envelope = {
  type: 'object',
  required: ['code', 'data', 'message'],
  properties: {
    code: { type: 'integer', description: `0 = success; ${Object.entries(ErrorCode).map(([k, v]) => `${v} ${k}`).join(', ')}` },
    data: { description: 'The result (null on errors).' },
    message: { type: 'string', description: 'Translation key, e.g. error.validation' },
    params: { type: 'object', description: 'Parameters of the message' },
    errors: { type: 'object', description: 'Field errors: field → { message, params }' },
  },
};

/** Whether a script may make the call with an API key, and which key: a read-only one reads, a read-write one also writes. */
function keyOf(call: CallSpec<any>): 'read' | 'write' | 'never' {
  if (call.auth !== 'customer' && call.auth !== 'operator') return 'never';
  if (call.keys === false) return 'never';
  return call.method === 'GET' || call.reads ? 'read' : 'write';
}

const securityOf = (call: CallSpec<any>) => (call.auth === 'public' ? [] : keyOf(call) === 'never' ? [{ Authentication: [] }] : [{ Authentication: [] }, { ApiKey: [] }]);

/** Who may make the call, as the description says it. */
function callerOf(call: CallSpec<any>): string {
  switch (call.auth) {
    case 'public':
      return 'anyone';
    case 'customer':
      return 'customer session (/api/admin)';
    case 'mailbox':
      return "mailbox owner's session (/api/mail)";
    default:
      return `operator session (/api/manage)${call.roles ? `: ${['superadmin', ...call.roles.filter((r: string) => r !== 'superadmin')].join(', ')}` : ''}`;
  }
}

export function openApiDocument(calls: CallSpec<any>[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of calls) {
    const schema = z.toJSONSchema(call.input, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    const operation: Record<string, unknown> = {
      tags: [call.tag],
      summary: call.summary,
      security: securityOf(call),
      'x-caller': callerOf(call),
      'x-api-key': keyOf(call),
      responses: { 200: { description: 'Envelope with code 0', content: { 'application/json': { schema: envelope } } }, default: { description: 'Envelope with an error code', content: { 'application/json': { schema: envelope } } } },
    };
    if (call.method === 'GET') {
      operation.parameters = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
        name,
        in: 'query',
        required: schema.required?.includes(name) ?? false,
        schema: property,
      }));
    } else {
      operation.requestBody = { required: true, content: { 'application/json': { schema } } };
    }
    paths[call.path] = { ...paths[call.path], [call.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Maildesk API',
      version,
      description:
        'Every response is {code, data, message}. code 0 is success; 20000 means no, expired or revoked session. ' +
        'Send the session token in the Authentication header: customer tokens on /api/admin, operator tokens on /api/manage, ' +
        "mailbox owners' tokens (POST /api/mail/login/login) on /api/mail; a token of one area is no session in another. " +
        'Scripts may instead send an API key as `Authorization: Bearer <key>` (security scheme ApiKey): customers make keys for /api/admin (POST /api/admin/api_key/create), operators for /api/manage; ' +
        'a key acts with the rights of the login that made it, only in its area; a read-only key makes only the calls marked x-api-key "read", a read-write one also those marked "write", and none marked "never" ' +
        '(keys, sessions, passwords, second factors). An unknown, revoked or expired key answers 20000 (error.api_key), a key used from an address it does not allow 40300 (error.api_key_source), ' +
        'a key past its calls a minute (the API_KEY_RATE_LIMIT setting) 42900 (error.api_key_rate_limited) with Retry-After. ' +
        'Lists of records take page, page_size (≤ 100), sort, order (asc|desc), filter (object, or JSON in a query string) and q (a text searched in the fields the record declares searchable), and answer {list, total, page, page_size}; ' +
        'the products on sale take page, page_size, kind and q; the few other lists of their own (sessions, import runs, jobs, a domain\'s DNS history) take the parameters their schema names.',
    },
    components: {
      securitySchemes: {
        Authentication: { type: 'apiKey', in: 'header', name: 'Authentication', description: 'A session token from a sign-in call, of the area called.' },
        ApiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'mdk_…', description: 'An API key of the area called (Authorization: Bearer mdk_…): customer keys on /api/admin, operator keys on /api/manage.' },
      },
    },
    paths,
  };
}
