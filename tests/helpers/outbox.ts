/** Reads the .eml files the app writes when no SMTP server is set, as a person's mail client would. */
import fs from 'node:fs';
import path from 'node:path';

export interface OutboxMessage {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeWords(header: string): string {
  // Whitespace between adjacent encoded words is not part of the text (RFC 2047, 6.2).
  return header.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_m, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
  try {
    return decodeURIComponent(bytes);
  } catch {
    return bytes;
  }
}

export function parseEml(eml: string): Omit<OutboxMessage, 'file'> {
  const raw = eml.replace(/\r\n/g, '\n');
  const split = raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const body = raw.slice(split + 2);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body;
  return { to: header('To').replace(/^.*<|>.*$/g, '').trim(), subject: decodeWords(header('Subject')), text };
}

const sequenceOf = (file: string) => BigInt(/-(\d+)\.eml$/.exec(file)?.[1] ?? '0');

export function readOutbox(dir: string): OutboxMessage[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    // Written in order: by the monotonic counter that ends each name (the time prefix has only ms).
    .sort((a, b) => Number(sequenceOf(a) - sequenceOf(b)) || a.localeCompare(b))
    .map((file) => ({ file, ...parseEml(fs.readFileSync(path.join(dir, file), 'utf8')) }));
}
