/**
 * The parts of a report message. Receivers send the report as the message's only body (Google,
 * Yahoo: application/gzip or application/zip) or as an attachment of multipart/mixed or
 * multipart/report (Microsoft, Mail.ru); TLS reports as multipart/report with
 * application/tlsrpt+gzip (RFC 8460 §5.3). We need the leaves' decoded bytes only, so this is a
 * small strict reader (bounded parts and depth) rather than a full MIME library: mailparser is not
 * among our dependencies (see the reports capability's notes).
 */
import { limits, ReportRefused } from './refusal.js';

export interface MimePart {
  contentType: string;
  filename: string;
  body: Buffer;
}

interface Headers {
  [name: string]: string;
}

function splitHead(text: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) return { head: text, body: '' };
  return { head: text.slice(0, match.index), body: text.slice(match.index + match[0].length) };
}

function headersOf(head: string): Headers {
  const headers: Headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** A header's value and its parameters (name="x", boundary=y, filename*=utf-8''z). */
function valueAndParams(header = ''): { value: string; params: Record<string, string> } {
  const [value, ...rest] = header.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const key = p.slice(0, eq).trim().toLowerCase().replace(/\*(\d+)?\*?$/, '');
    let v = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    v = v.replace(/^[\w-]*'[\w-]*'/, '');
    params[key] = (params[key] ?? '') + v;
  }
  return { value: value.trim().toLowerCase(), params };
}

function decodeQuotedPrintable(text: string): Buffer {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1');
}

function decodeBody(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return Buffer.from(body, 'latin1');
}

/** The message's leaf parts, decoded; at most limits.parts of them, multiparts at most limits.depth deep. */
export function mimeParts(raw: Buffer): MimePart[] {
  const parts: MimePart[] = [];
  walk(raw.toString('latin1'), 0, parts);
  return parts;
}

function walk(text: string, depth: number, parts: MimePart[]) {
  if (depth > limits.depth) throw new ReportRefused('malformed', 'mime_depth', { max: limits.depth });
  const { head, body } = splitHead(text);
  const headers = headersOf(head);
  const type = valueAndParams(headers['content-type'] || 'text/plain');
  if (type.value.startsWith('multipart/')) {
    const boundary = type.params.boundary;
    if (!boundary) throw new ReportRefused('malformed', 'mime_no_boundary');
    const delimiter = `--${boundary}`;
    const sections = body.split(delimiter);
    // The preamble before the first delimiter, the epilogue after the closing one ("--…--").
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      walk(section.replace(/^[ \t]*\r?\n/, '').replace(/\r?\n$/, ''), depth + 1, parts);
    }
    return;
  }
  if (parts.length >= limits.parts) throw new ReportRefused('malformed', 'mime_parts', { max: limits.parts, smart_count: limits.parts });
  const disposition = valueAndParams(headers['content-disposition']);
  parts.push({
    contentType: type.value,
    filename: (disposition.params.filename ?? type.params.name ?? '').toLowerCase(),
    body: decodeBody(body, (headers['content-transfer-encoding'] ?? '').toLowerCase()),
  });
}
