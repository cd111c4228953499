/** Support fixtures: form posts with files (the multipart variant), tickets made the way people make them. */
import type { TestApp } from './app.js';

export interface FileToSend {
  name: string;
  content: Buffer | string;
  type?: string;
}

/** A tiny but real PNG (1×1 pixel). */
export const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

export async function postForm(t: TestApp, url: string, fields: Record<string, string | number>, files: FileToSend[] = [], token = '', locale: 'en' | 'zh' = 'en') {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const file of files) form.append('attachments', new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const request = new Request('http://x', { method: 'POST', body: form });
  const response = await t.app.inject({
    method: 'POST',
    url,
    headers: { authentication: token, 'accept-language': locale, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return { status: response.statusCode, ...response.json() };
}

export async function openTicket(t: TestApp, token: string, fields: Record<string, string | number> = {}, files: FileToSend[] = []) {
  const reply = await postForm(t, '/api/admin/ticket/create', { subject: 'Mail does not arrive', category: 'mail_delivery', message: 'Hello,\nno mail since Monday.', ...fields }, files, token);
  if (reply.code !== 0) throw new Error(`ticket create failed: ${JSON.stringify(reply)}`);
  return reply.data as { id: number; number: string; messages: { id: number; attachments: { id: number }[] }[] };
}
