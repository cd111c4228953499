/**
 * The CSV upload calls (issue 33): whoever may not make them is refused before the server reads
 * their body (up to 32 MiB); a file as spreadsheets and our own export save it, beginning with a
 * UTF-8 byte-order mark, is read like any other.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailboxOwner, mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
let port: number;
let customer: CustomerSession;
let domain: { id: number; name: string };
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  customer = await signUpCustomer(t);
  const mail = mailFixtures(t);
  await mail.grant(customer.id, GiB);
  domain = await mail.activeDomain(customer);
});
afterAll(() => t.close());

const THIRTY_MIB = 30 * 1024 * 1024;

/**
 * Starts a POST that announces a 30 MiB JSON body, sends its first 64 KiB and waits: what the
 * server answers before the rest comes, or null when it answers nothing within `ms`.
 */
function startLargeUpload(path: string, headers: Record<string, string>, ms = 5000) {
  return new Promise<{ status: number; body: any; sentBytes: number } | null>((resolve, reject) => {
    const first = Buffer.from(`{"csv":"type,address\\n${'x'.repeat(64 * 1024)}`);
    const request = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(THIRTY_MIB), ...headers } });
    const timer = setTimeout(() => {
      request.destroy();
      resolve(null);
    }, ms);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        request.destroy();
        resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), sentBytes: first.length });
      });
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.write(first);
  });
}

describe('who may upload, decided before the upload is read', () => {
  const calls = ['/api/admin/imports/csv_dry_run', '/api/admin/imports/csv_start', '/api/manage/imports/csv_dry_run', '/api/manage/imports/csv_start'];

  it('When an anonymous caller starts a 30 MiB upload to any CSV call, then it is refused with 401 (20000) before it has sent the body', async () => {
    for (const path of calls) {
      const started = Date.now();
      const reply = await startLargeUpload(path, { authentication: '' });
      expect(reply, path).toMatchObject({ status: 401, body: { code: 20000, message: 'error.session' } });
      expect(reply!.sentBytes).toBeLessThan(THIRTY_MIB / 100);
      expect(Date.now() - started, path).toBeLessThan(3000);
    }
  });

  it('When a caller of the wrong kind or role starts one (billing operator, mailbox owner, a customer in the operators\' area, a read-only key on start), then it is refused (403 or 401) before it has sent the body', async () => {
    const billing = await operatorWithRole(t, 'billing');
    const owner = await mailboxOwner(t, customer, { domainId: domain.id });
    const root = await operatorLogin(t);
    const readKey = await t.post('/api/manage/api_key/create', { name: 'Reader', access: 'read', confirmation: 'root-password-1' }, { token: root });
    expect(readKey.code).toBe(0);
    const cases: [string, Record<string, string>, number, number][] = [
      ['/api/manage/imports/csv_start', { authentication: billing.token }, 403, 40300],
      ['/api/manage/imports/csv_dry_run', { authentication: billing.token }, 403, 40300],
      ['/api/admin/imports/csv_dry_run', { authentication: owner.token }, 401, 20000],
      ['/api/manage/imports/csv_start', { authentication: customer.token }, 401, 20000],
      ['/api/manage/imports/csv_start', { authorization: `Bearer ${readKey.data.key}` }, 403, 40300],
    ];
    for (const [path, headers, status, code] of cases) {
      const reply = await startLargeUpload(path, headers);
      expect(reply, `${path} ${JSON.stringify(headers)}`).toMatchObject({ status, body: { code } });
    }
    // Nothing was started by any of them.
    expect((await t.get('/api/manage/imports/list', {}, { token: root })).data.total).toBe(0);
  });

  it('When a caller who may upload sends a file, then it is still read and checked (the early admission lets them in)', async () => {
    const file = ['type,address,name,password,password_hash,quota,active,destinations', `mailbox,early@${domain.name},Early,early-password-1,,10M,1,`].join('\n');
    const dry = await t.post('/api/admin/imports/csv_dry_run', { csv: file }, { token: customer.token });
    expect(dry).toMatchObject({ code: 0, data: { errors: [], report: { create: { mailbox: 1 } } } });
    const root = await operatorLogin(t);
    const asOperator = await t.post('/api/manage/imports/csv_dry_run', { csv: file }, { token: root });
    expect(asOperator).toMatchObject({ code: 0, data: { errors: [] } });
  });
});

describe('a file beginning with a byte-order mark', () => {
  it('When a CSV saved as "CSV UTF-8" (beginning with a byte-order mark) is checked and imported, then it is read like the same file without one', async () => {
    const rows = ['type,address,name,password,password_hash,quota,active,destinations', `mailbox,bom@${domain.name},With Mark,bom-password-1,,10M,1,`, `alias,bom-alias@${domain.name},,,,,1,bom@${domain.name}`];
    const file = `\uFEFF${rows.join('\r\n')}\r\n`;
    const dry = await t.post('/api/admin/imports/csv_dry_run', { csv: file }, { token: customer.token });
    expect(dry).toMatchObject({ status: 200, code: 0, data: { errors: [], report: { create: { mailbox: 1, alias: 1 } } } });
    const started = await t.post('/api/admin/imports/csv_start', { csv: file }, { token: customer.token });
    expect(started).toMatchObject({ code: 0, data: { state: 'queued', total: 2 } });
    await t.services.jobs.drain();
    expect(await t.get('/api/admin/imports/get', { id: started.data.id }, { token: customer.token })).toMatchObject({ data: { state: 'done', created: { mailbox: 1, alias: 1 } } });
    expect((await t.post('/api/mail/login/login', { email: `bom@${domain.name}`, password: 'bom-password-1' }, { ip: someIp() })).code).toBe(0);
  });

  it('When an operator’s export, saved again by a spreadsheet (which adds the mark), is sent back, then it checks without errors: everything in it is here already', async () => {
    const root = await operatorLogin(t);
    const exported = await t.get('/api/manage/imports/csv_export', { customer_id: customer.id }, { token: root });
    const text = Buffer.from(exported.data as unknown as Buffer).toString('utf8');
    expect(text).toContain(`bom@${domain.name}`);
    const dry = await t.post('/api/manage/imports/csv_dry_run', { csv: `\uFEFF${text}` }, { token: root });
    expect(dry).toMatchObject({ status: 200, code: 0, data: { errors: [], report: { create: { mailbox: 0, alias: 0 } } } });
  });

  it('When the mark is anywhere but the very start, then it is still refused as a hidden character, and nothing is imported', async () => {
    const file = ['type,address,name,password,password_hash,quota,active,destinations', `mailbox,hidden@${domain.name},Hid\uFEFFden,hidden-password-1,,10M,1,`].join('\n');
    const reply = await t.post('/api/admin/imports/csv_start', { csv: file }, { token: customer.token });
    expect(reply).toMatchObject({ status: 400, code: 40000, errors: { csv: { message: 'validation.unsafe_characters' } } });
    expect((await t.post('/api/admin/email/list', { q: 'hidden' }, { token: customer.token })).data.total).toBe(0);
  });
});
