/**
 * The specification's multipart/form-data posting variant: fields become the body as a JSON
 * body's would, files arrive as { filename, mimetype, data } for the handler to check.
 * Whatever is wrong with a form (broken framing, prototype names, too many or too large
 * parts) is the client's fault and answers a 4xxxx envelope, never a 500.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from './errors.js';

/** What a file part becomes in the body: callers validate it with this schema. */
export const formFile = z.object({ filename: z.string().max(255), mimetype: z.string().max(255), data: z.instanceof(Buffer) });
export type FormFile = z.infer<typeof formFile>;

const MAX_PARTS = 1000;

const tooLarge = () => new AppError('tooLarge', 'error.too_large');
const malformed = () => new AppError('validation', 'error.invalid_multipart');
const forbiddenName = () => new AppError('validation', 'error.forbidden_name');

/**
 * Reads a whole form with busboy. A form's fields are the body a JSON post would have; a file
 * part becomes { filename, mimetype, data }. Any busboy error means a malformed form.
 */
function readForm(headers: IncomingHttpHeaders, payload: Readable, limit: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    // A declared length over the limit is refused before a byte is read.
    if (Number(headers['content-length'] ?? 0) > limit) return reject(tooLarge());
    let form: BusboyInstance;
    try {
      form = new Busboy({ headers: headers as BusboyHeaders, limits: { fieldSize: limit, fileSize: limit, parts: MAX_PARTS, fieldNameSize: 100, headerPairs: 100 } });
    } catch {
      return reject(malformed()); // no boundary, or not multipart at all
    }
    const body: Record<string, unknown> = {};
    let total = 0;
    let failed: AppError | undefined;
    const fail = (error: AppError) => {
      failed ??= error;
      payload.unpipe(form);
      payload.resume(); // read the rest, so that the answer can be sent on a kept-alive connection
      reject(failed);
    };
    const add = (name: string, value: unknown, size: number) => {
      // Names that reach for an object's prototype are never a field of ours.
      if (name in Object.prototype) return fail(forbiddenName());
      total += size;
      if (total > limit) return fail(tooLarge());
      const present = body[name];
      body[name] = present === undefined ? value : Array.isArray(present) ? [...present, value] : [present, value];
    };
    // busboy takes a form cut off before its closing delimiter as complete: keep the last bytes to tell.
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(String(headers['content-type']))?.slice(1).find(Boolean);
    let tail = Buffer.alloc(0);
    payload.on('data', (chunk: Buffer) => {
      tail = Buffer.concat([tail, chunk]).subarray(-512);
    });
    form.on('field', (name: string, value: string, nameTruncated: boolean, valueTruncated: boolean) => {
      // busboy cuts a field at fieldSize and only says so: a cut value is too large, not bad input.
      if (nameTruncated || valueTruncated) return fail(tooLarge());
      add(name, value, Buffer.byteLength(value));
    });
    form.on('file', (name: string, file: Readable & { truncated?: boolean }, filename: string, _encoding: string, mimetype: string) => {
      const chunks: Buffer[] = [];
      let size = 0;
      file.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
      });
      file.on('limit', () => fail(tooLarge()));
      file.on('error', () => fail(malformed()));
      file.on('end', () => {
        if (!failed) add(name, { filename, mimetype, data: Buffer.concat(chunks, size) }, size);
      });
    });
    form.on('partsLimit', () => fail(tooLarge()));
    form.on('filesLimit', () => fail(tooLarge()));
    form.on('fieldsLimit', () => fail(tooLarge()));
    form.on('error', () => fail(malformed()));
    payload.on('error', () => fail(malformed()));
    form.on('finish', () => {
      if (failed) return;
      if (!boundary || !tail.includes(`--${boundary}--`)) return fail(malformed());
      resolve(body);
    });
    payload.pipe(form);
  });
}

/**
 * Forms are read by a body parser of their content type, so that requests that are not forms
 * (nearly all) pass no hook: a plugin's per-request hooks cost every JSON call its time.
 */
export function registerMultipart(app: FastifyInstance, limitBytes: number) {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    readForm(request.headers, payload, limitBytes).then((body) => done(null, body), done);
  });
}
