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
  return header.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_m, encoding: string, text: string) =>
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

export function parseEml(raw: string): Omit<OutboxMessage, 'file'> {
  const split = raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const body = raw.slice(split + 2);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body;
  return { to: header('To').replace(/^.*<|>.*$/g, '').trim(), subject: decodeWords(header('Subject')), text };
}

export function readOutbox(dir: string): OutboxMessage[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => ({ file, ...parseEml(fs.readFileSync(path.join(dir, file), 'utf8')) }));
}
