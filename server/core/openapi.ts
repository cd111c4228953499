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
      security: call.auth === 'public' ? [] : [{ Authentication: [] }],
      'x-caller': callerOf(call),
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
        'List calls take page, page_size (≤ 100), sort, order (asc|desc), filter (object, or JSON in a query string) and q, and answer {list, total, page, page_size}.',
    },
    components: { securitySchemes: { Authentication: { type: 'apiKey', in: 'header', name: 'Authentication' } } },
    paths,
  };
}
