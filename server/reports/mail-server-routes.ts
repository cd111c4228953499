/**
 * Where the mail server hands over mail for the reporting address (deploy/templates/reports.ts:
 * Postfix's pipe runs curl): POST /api/mail-server/reports, the raw message as message/rfc822,
 * behind MAIL_SERVER_TOKEN (bearer). The answer tells the pipe what to do: 200 (stored, a
 * duplicate, or refused and logged here: never bounced to the reporter), 413 too large (also
 * logged, not retried), 401/5xx try again later.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../core/services.js';
import { refuse, takeReportMessage, type Intake } from './intake.js';
import { refusal } from './refusal.js';

function presentsToken(request: FastifyRequest, token: string) {
  const header = String(request.headers.authorization ?? '');
  if (!header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7).trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The body, read up to the cap; past it the rest is drained and only its size kept. */
type RawMessage = { bytes?: Buffer; size: number };

export function registerReportRoutes(app: FastifyInstance, services: Services) {
  const cap = services.config.reportMaxBytes;
  app.register(async (scope) => {
    for (const type of ['message/rfc822', 'application/octet-stream']) {
      scope.addContentTypeParser(type, (_request, payload, done) => {
        const chunks: Buffer[] = [];
        let size = 0;
        payload.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= cap) chunks.push(chunk);
        });
        payload.on('end', () => done(null, { bytes: size <= cap ? Buffer.concat(chunks) : undefined, size } satisfies RawMessage));
        payload.on('error', (error) => done(error, undefined));
      });
    }
    const guard = async (request: FastifyRequest, reply: FastifyReply) => {
      const token = services.config.mailServerToken;
      if (!token) return reply.code(404).send({ code: 40400, data: null, message: 'error.not_found' });
      if (!presentsToken(request, token)) return reply.code(401).send({ code: 20000, data: null, message: 'error.session' });
    };
    scope.post('/api/mail-server/reports', { onRequest: guard, bodyLimit: cap + 1 }, async (request, reply) => {
      const raw = request.body as RawMessage | undefined;
      if (!raw || typeof raw !== 'object' || !('size' in raw)) return reply.code(415).send({ code: 40000, data: null, message: 'error.validation' });
      if (!raw.bytes) {
        const intake: Intake = { stored: [], duplicates: [], refused: [] };
        await refuse(services, intake, refusal('too_large', 'message_too_large', { bytes: raw.size, cap, smart_count: raw.size }));
        return reply.code(413).send({ code: 41300, data: intake, message: 'error.too_large' });
      }
      const intake = await takeReportMessage(services, raw.bytes);
      return { code: 0, data: intake, message: 'ok' };
    });
  });
}
