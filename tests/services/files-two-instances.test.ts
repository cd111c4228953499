/**
 * Several instances on one PostgreSQL database, each with a data directory of its own: a file
 * uploaded through one is downloaded through the other (files are kept in the database, not on
 * an instance's disk).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/app.js';
import { startOn } from '../helpers/installation.js';
import { freshPostgresDatabase } from '../helpers/postgres.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it('When a ticket attachment is uploaded through one instance, then another instance serves it', { timeout: 90_000 }, async () => {
  const database = await freshPostgresDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  cleanups.push(database.drop);
  const instance = async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-instance-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const app = await startOn({ DATA_DIR: dataDir, DATABASE_URL: database.url, ADMIN_USERNAME: ROOT.username, ADMIN_PASSWORD: ROOT.password });
    cleanups.push(app.close);
    return app;
  };
  const one = await instance();
  const two = await instance();
  const tokenOne = (await one.signIn(ROOT.username, ROOT.password)).data.token;
  const customer = await one.post('/api/manage/user/create', { email: 'files@example.com', password: 'customer-pass-1' }, tokenOne);
  const boundary = 'two-instances';
  const part = (name: string, value: string, file?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: text/plain` : ''}\r\n\r\n${value}\r\n`;
  const text = 'written through instance one\n';
  const body = part('owner_id', String(customer.data.id)) + part('subject', 'A file') + part('category', 'other') + part('priority', 'normal') + part('message', 'See the file.') + part('attachments', text, 'notes.txt') + `--${boundary}--\r\n`;
  const created = await one.app.inject({ method: 'POST', url: '/api/manage/ticket/create', headers: { authentication: tokenOne, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
  expect(created.json()).toMatchObject({ code: 0 });
  const attachmentId = created.json().data.messages[0].attachments[0].id;
  expect(fs.readdirSync(one.config.dataDir)).not.toContain('attachments');

  const tokenTwo = (await two.signIn(ROOT.username, ROOT.password)).data.token;
  const download = await two.get('/api/manage/ticket/attachment', { id: String(attachmentId) }, tokenTwo);
  expect(download.statusCode).toBe(200);
  expect(download.body).toBe(text);
  expect(download.headers['content-disposition']).toContain('notes.txt');
});
