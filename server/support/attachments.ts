/**
 * Ticket attachments: what a file is, judged by its content (never by its name alone); kept
 * in the file store (services.files) under names the server makes; read back only through the
 * download call, as a download.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config.js';
import { AppError, fieldError } from '../core/errors.js';
import { newFileKey, type FileStore } from '../core/file-store.js';
import { defineJob } from '../core/jobs.js';
import type { Services } from '../core/services.js';
import { formatBytes } from '../../resources/bytes.js';

/** A file from a multipart post (server/app.ts keeps its name beside the content). */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

const uploaded = z.custom<UploadedFile>(
  (v) => typeof v === 'object' && v !== null && Buffer.isBuffer((v as UploadedFile).data) && typeof (v as UploadedFile).filename === 'string',
  'validation.not_a_file',
);
/** `attachments` of a form post: one file or several; absent in JSON posts. */
export const attachmentsInput = z
  .preprocess((v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]), z.array(uploaded))
  // A form's empty file input sends a nameless, empty part: nothing was attached.
  .transform((files) => files.filter((f) => f.filename !== '' || f.data.length > 0));

interface Kind {
  contentType: string;
  extensions: string[];
  matches(data: Buffer): boolean;
}

const startsWith = (data: Buffer, ...bytes: number[]) => bytes.every((b, i) => data[i] === b);

/** The allow-list. Text is UTF-8 without control characters; it is always served as text/plain. */
const kinds: Kind[] = [
  { contentType: 'image/png', extensions: ['png'], matches: (d) => startsWith(d, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) },
  { contentType: 'image/jpeg', extensions: ['jpg', 'jpeg'], matches: (d) => startsWith(d, 0xff, 0xd8, 0xff) },
  { contentType: 'image/gif', extensions: ['gif'], matches: (d) => d.subarray(0, 6).toString('latin1') === 'GIF87a' || d.subarray(0, 6).toString('latin1') === 'GIF89a' },
  { contentType: 'image/webp', extensions: ['webp'], matches: (d) => d.subarray(0, 4).toString('latin1') === 'RIFF' && d.subarray(8, 12).toString('latin1') === 'WEBP' },
  { contentType: 'application/pdf', extensions: ['pdf'], matches: (d) => d.subarray(0, 5).toString('latin1') === '%PDF-' },
  { contentType: 'text/plain; charset=utf-8', extensions: ['txt', 'log', 'csv', 'md', 'eml'], matches: isPlainText },
];

function isPlainText(data: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return false;
  }
  // Tab, line feed, form feed and carriage return are text; other control characters are not.
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** A name safe to show and to put in a header: no folders, no control characters, at most 120 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(-120);
  return cleaned.replace(/^\.+/, '') || 'attachment';
}

export interface CheckedFile {
  fileName: string;
  contentType: string;
  data: Buffer;
}

/** Refuses too many, too large, or files whose content is not of an allowed kind matching their name. */
export function checkAttachments(files: UploadedFile[], config: Pick<Config, 'attachmentMaxBytes' | 'attachmentMaxCount'>): CheckedFile[] {
  if (files.length > config.attachmentMaxCount) throw fieldError('attachments', 'validation.too_many_files', { max: config.attachmentMaxCount, smart_count: config.attachmentMaxCount });
  return files.map((file) => {
    const fileName = cleanFileName(file.filename);
    if (file.data.length > config.attachmentMaxBytes) {
      throw new AppError('tooLarge', 'error.attachment_too_large', { name: fileName, max: config.attachmentMaxBytes, max_text: formatBytes(config.attachmentMaxBytes) });
    }
    if (file.data.length === 0) throw fieldError('attachments', 'validation.empty_file', { name: fileName });
    const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
    const kind = kinds.find((k) => k.extensions.includes(extension));
    // The name says what it should be; the content must agree (a "photo.png" holding a script is refused).
    if (!kind || !kind.matches(file.data)) throw fieldError('attachments', 'validation.file_type', { name: fileName, allowed: allowedExtensions });
    return { fileName, contentType: kind.contentType, data: file.data };
  });
}

export const allowedExtensions = kinds.flatMap((k) => k.extensions).join(', ');

/** Keeps a file under a new random name (services.files: every instance reaches it); returns that name. */
export async function storeFile(files: FileStore, data: Buffer): Promise<string> {
  const storedName = newFileKey();
  await files.put(storedName, data);
  return storedName;
}

/** Removes stored files; a file already gone is fine (removal may run twice). */
export async function removeFiles(files: FileStore, storedNames: string[]) {
  await files.remove(storedNames.filter((name) => storedNamePattern.test(name)));
}

export const storedNamePattern = /^[0-9a-f]{32}$/;

/**
 * A stored file: from the file store, or, until the move job has taken it there
 * (operations: files.move_from_disk), from the attachment directory where earlier releases kept it.
 */
export async function readStoredFile(services: Pick<Services, 'files' | 'config'>, storedName: string): Promise<Buffer> {
  const kept = await services.files.get(storedName);
  if (kept) return kept;
  if (!storedNamePattern.test(storedName)) throw new Error(`No stored file ${storedName}`);
  return fs.readFile(path.join(services.config.attachmentDir, storedName));
}

/** Content-Disposition for a download: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Removes a deleted ticket's files once the deletion is committed. Idempotent: a file already gone is fine. */
export const removeFilesJob = defineJob<{ storedNames: string[] }>({
  name: 'ticket.remove_files',
  retryDelaySeconds: 60,
  handler: ({ storedNames }, { services }) => removeFiles(services.files, storedNames),
});
