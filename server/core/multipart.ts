/**
 * The specification's multipart/form-data posting variant: fields become the body as a JSON
 * body's would, files arrive as { filename, mimetype, data } for the handler to check.
 * Whatever is wrong with a form (broken framing, prototype names, too many or too large
 * parts) is the client's fault and answers a 4xxxx envelope, never a 500.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from './errors.js';

/** What a file part becomes in the body: callers validate it with this schema. */
export const formFile = z.object({ filename: z.string().max(255), mimetype: z.string().max(255), data: z.instanceof(Buffer) });
export type FormFile = z.infer<typeof formFile>;

const MAX_PARTS = 1000;

const tooLarge = () => new AppError('tooLarge', 'error.too_large');
const malformed = () => new AppError('validation', 'error.invalid_multipart');

/** The plugin's own errors in our classes; anything else busboy throws means a malformed form. */
function formError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string })?.code;
  switch (code) {
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_PROTO_VIOLATION':
      return new AppError('validation', 'error.forbidden_name');
    default:
      return malformed();
  }
}

async function readForm(request: FastifyRequest, limit: number): Promise<Record<string, unknown>> {
  // A declared length over the limit is refused before a byte is read.
  if (Number(request.headers['content-length'] ?? 0) > limit) throw tooLarge();
  const body: Record<string, unknown> = {};
  let total = 0;
  const add = (name: string, value: unknown, size: number) => {
    total += size;
    if (total > limit) throw tooLarge();
    const present = Object.hasOwn(body, name) ? body[name] : undefined;
    body[name] = present === undefined ? value : Array.isArray(present) ? [...present, value] : [present, value];
  };
  // busboy takes a form cut off before its closing delimiter as complete: keep the last bytes to tell.
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(String(request.headers['content-type']))?.slice(1).find(Boolean);
  let tail = Buffer.alloc(0);
  request.raw.on('data', (chunk: Buffer) => {
    tail = Buffer.concat([tail, chunk]).subarray(-512);
  });
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        add(part.fieldname, { filename: part.filename, mimetype: part.mimetype, data }, data.length);
      } else {
        // busboy cuts a field at fieldSize and only says so: a cut value is too large, not bad input.
        if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge();
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        add(part.fieldname, value, Buffer.byteLength(value));
      }
    }
  } catch (error) {
    throw formError(error);
  }
  if (!boundary || !tail.includes(`--${boundary}--`)) throw malformed();
  return body;
}

export async function registerMultipart(app: FastifyInstance, limitBytes: number) {
  await app.register(fastifyMultipart, {
    limits: { fieldSize: limitBytes, fileSize: limitBytes, parts: MAX_PARTS, fieldNameSize: 100, headerPairs: 100 },
  });
  // A callback hook: it runs on every request, and most are JSON (no promise for those).
  app.addHook('preValidation', (request, _reply, done) => {
    if (!request.isMultipart()) return done();
    readForm(request, limitBytes).then((body) => {
      request.body = body;
      done();
    }, done);
  });
}
