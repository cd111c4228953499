/**
 * Requests a client gets wrong — broken multipart, prototype names, oversized parts, query
 * strings or headers, loose ids, invisible characters — answer a 4xxxx envelope and change
 * nothing, whatever layer notices.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp } from '../helpers/fixtures.js';

let t: TestApp;
let root: string;
let rootId: number;
beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: String(64 * 1024) });
  root = await operatorLogin(t);
  rootId = (await t.post('/api/manage/me/info', {}, { token: root })).data.id;
});
afterAll(() => t.close());

const operatorCount = async () => (await t.services.db.selectFrom('admin').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;

async function raw(url: string, body: string | Buffer, contentType: string, token = '') {
  const response = await t.app.inject({ method: 'POST', url, headers: { authentication: token, 'content-type': contentType }, payload: body });
  return { status: response.statusCode, ...response.json() };
}

/** A multipart body built by hand, so that it can be broken in ways FormData never would. */
function multipart(parts: { name: string; value: string; filename?: string }[], boundary = 'XyZ') {
  const chunks = parts.map(
    (p) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n${p.value}\r\n`,
  );
  return { body: `${chunks.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

describe('multipart', () => {
  it('When a multipart body is not multipart at all, then it is bad input (40000), before and after sign-in, and nothing is deleted', async () => {
    const before = await operatorCount();
    for (const token of ['', root]) {
      expect(await raw('/api/manage/admin/delete', 'abc', 'multipart/form-data', token)).toMatchObject({ status: 400, code: 40000, message: 'error.invalid_multipart' });
      // With a boundary but no closing delimiter, it is no form either (busboy alone would take it as an empty one).
      expect(await raw('/api/manage/admin/delete', 'abc', 'multipart/form-data; boundary=XyZ', token)).toMatchObject({ code: 40000, message: 'error.invalid_multipart' });
    }
    expect(await operatorCount()).toBe(before);
  });

  it('When a part is named __proto__ or constructor, then it is refused (40000)', async () => {
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty']) {
      const form = multipart([{ name, value: '1' }, { name: 'id', value: String(rootId) }]);
      expect(await raw('/api/manage/admin/delete', form.body, form.type, root)).toMatchObject({ status: 400, code: 40000 });
    }
  });

  it('When a form has more than 1000 parts, or a field over the size limit, then it is too large (41300)', async () => {
    const many = multipart(Array.from({ length: 1001 }, (_, i) => ({ name: `f${i}`, value: 'x' })));
    expect(await raw('/api/admin/login/register', many.body, many.type)).toMatchObject({ status: 413, code: 41300 });
    const big = multipart([{ name: 'email', value: 'x'.repeat(70 * 1024) }]);
    expect(await raw('/api/admin/login/register', big.body, big.type)).toMatchObject({ status: 413, code: 41300 });
    // Many fields, each under the limit, that add up to more than it.
    const sum = multipart(Array.from({ length: 10 }, (_, i) => ({ name: `f${i}`, value: 'y'.repeat(8 * 1024) })));
    expect(await t.app.inject({ method: 'POST', url: '/api/admin/login/register', headers: { 'content-type': sum.type, 'transfer-encoding': 'chunked' }, payload: sum.body }).then((r) => r.json())).toMatchObject({ code: 41300 });
  });

  it('When a form carries a file, then the handler gets its name, type and bytes to check (schema errors, not a 500)', async () => {
    const form = multipart([{ name: 'username', value: 'x', filename: 'a.txt' }]);
    const reply = await raw('/api/admin/login/register', form.body, form.type);
    expect(reply).toMatchObject({ status: 400, code: 40000, errors: { username: { message: 'validation.invalid_type' } } });
  });

  it('When a form is cut off before its closing boundary, then it is malformed (40000) and the call does nothing (the session lives)', async () => {
    const reply = await raw('/api/admin/login/logout', '--XyZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nabc', 'multipart/form-data; boundary=XyZ', root);
    expect(reply).toMatchObject({ status: 400, code: 40000, message: 'error.invalid_multipart' });
    expect(await t.post('/api/manage/me/info', {}, { token: root })).toMatchObject({ code: 0 });
  });
});

describe('JSON, URL and headers', () => {
  it('When JSON carries __proto__ or constructor keys, then it is refused with the field named', async () => {
    const reply = await raw('/api/manage/admin/update', `{"id": ${rootId}, "__proto__": {"role": "billing"}, "constructor": {"prototype": {}}}`, 'application/json', root);
    expect(reply).toMatchObject({ status: 400, code: 40000, errors: { __proto__: { message: 'validation.forbidden_name' } } });
    expect(reply.errors.constructor).toMatchObject({ message: 'validation.forbidden_name' });
  });

  it('When JSON is nested deeper than any call takes, then it is refused (40000), not a crash', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(await raw('/api/admin/login/register', `{"email": ${deep}}`, 'application/json')).toMatchObject({ code: 40000 });
    const veryDeep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect((await raw('/api/admin/login/register', `{"email": ${veryDeep}}`, 'application/json')).code).toBeOneOf([40000, 41300]);
  });

  it('When the body has another type, or a broken percent sign is in the URL, then the envelope says so', async () => {
    expect(await raw('/api/admin/login/register', '<x/>', 'application/xml')).toMatchObject({ code: 40000, message: 'error.unsupported_media_type' });
    const response = await t.app.inject({ method: 'GET', url: '/api/manage/admin/get?id=%E0%A4%A' , headers: { authentication: root } });
    expect(response.json().code).toBeGreaterThanOrEqual(40000);
    expect(response.json().code).toBeLessThan(50000);
    const badPath = await t.app.inject({ method: 'GET', url: '/api/%zz' });
    expect(badPath.json()).toMatchObject({ code: 40000 });
  });

  it('When the query string or a header is over 16 KiB, then a real socket gets the envelope with 41300, not a bare 431', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port, path, headers }, (response) => {
          let body = '';
          response.on('data', (d) => (body += d));
          response.on('end', () => resolve({ status: response.statusCode!, body, headers: response.headers }));
        });
        request.on('error', reject);
      });
    const longQuery = await get(`/api/manage/admin/get?id=1&pad=${'a'.repeat(17 * 1024)}`);
    expect(longQuery.status).toBe(431);
    expect(JSON.parse(longQuery.body)).toMatchObject({ code: 41300, message: 'error.too_large' });
    expect(longQuery.headers['x-content-type-options']).toBe('nosniff');
    expect(longQuery.headers['referrer-policy']).toBe('no-referrer');
    const longHeader = await get('/api/manage/me/info', { 'x-padding': 'b'.repeat(17 * 1024) });
    expect(JSON.parse(longHeader.body)).toMatchObject({ code: 41300 });
  });
});

describe('ids', () => {
  it('When an id is anything but a positive whole number or its decimal string, then it is refused and nothing changes', async () => {
    const target = await operatorWithRole(t, 'billing');
    const before = await operatorCount();
    for (const id of [true, false, [target.id], ` ${target.id} `, `${target.id}e0`, `0x${target.id.toString(16)}`, `${target.id}.0`, `+${target.id}`, 0, -1, 1.5, null, {}, '', 2 ** 60, '99999999999999999999']) {
      const reply = await t.post('/api/manage/admin/delete', { id }, { token: root });
      expect({ id, code: reply.code, errors: reply.errors }).toMatchObject({ id, code: 40000, errors: { id: {} } });
    }
    expect(await operatorCount()).toBe(before);
    // A decimal string still works, as query strings and forms send ids.
    expect(await t.get('/api/manage/admin/get', { id: String(target.id) }, { token: root })).toMatchObject({ code: 0, data: { id: target.id } });
    expect(await t.post('/api/manage/admin/delete', { id: String(target.id) }, { token: root })).toMatchObject({ code: 0 });
  });

  it('When numbers other than ids come loosely typed (page, quota, domain lists), then they are refused too', async () => {
    expect(await t.post('/api/manage/admin/list', { page: true }, { token: root })).toMatchObject({ code: 40000, errors: { page: {} } });
    expect(await t.post('/api/manage/admin/list', { page_size: '1e1' }, { token: root })).toMatchObject({ code: 40000, errors: { page_size: {} } });
    expect(await t.post('/api/manage/admin/list', { filter: { id: [true] } }, { token: root })).toMatchObject({ code: 40000 });
    expect(await t.post('/api/manage/user/create', { email: 'loose@example.com', password: 'customer-pass-1', storage_max: '0x40000000' }, { token: root })).toMatchObject({
      code: 40000,
      errors: { storage_max: {} },
    });
  });

  it('When an operator deletes or disables their own account, then it is refused and they stay; others can still be', async () => {
    const self = await operatorWithRole(t, 'superadmin');
    expect(await t.post('/api/manage/admin/delete', { id: self.id }, { token: self.token })).toMatchObject({ status: 403, code: 40300, message: 'error.own_account' });
    expect(await t.post('/api/manage/admin/update', { id: self.id, status: 'disabled' }, { token: self.token })).toMatchObject({ code: 40300, message: 'error.own_account' });
    expect(await t.post('/api/manage/me/info', {}, { token: self.token })).toMatchObject({ code: 0, data: { status: 'active' } });
    expect(await t.post('/api/manage/admin/update', { id: self.id, username: `${self.username}-x` }, { token: self.token })).toMatchObject({ code: 0 });
    expect(await t.post('/api/manage/admin/update', { id: self.id, status: 'disabled' }, { token: root })).toMatchObject({ code: 0 });
  });
});

describe('text', () => {
  const refused = ['a\u0000b', 'evil\u202Egnp.exe', 'zero\u200Bwidth', 'bom\uFEFF', 'lone\uD800', 'tail\uDC00', 'bell\u0007', 'iso\u2066x\u2069', 'c1\u0085'];

  it('When a name, label or template carries control, bidi or zero-width characters or a lone surrogate, then the field is refused with a translated error and nothing is stored', async () => {
    const customer = await signUpCustomer(t);
    for (const bad of refused) {
      expect(await t.post('/api/admin/me/update_username', { username: bad }, { token: customer.token })).toMatchObject({
        code: 40000,
        errors: { username: { message: 'validation.unsafe_characters' } },
      });
      expect(await t.post('/api/manage/email_template/create', { key: 'k-x', locale: 'en', subject: 'S', body: `Hello ${bad}` }, { token: root })).toMatchObject({
        code: 40000,
        errors: { body: { message: 'validation.unsafe_characters' } },
      });
      expect(await t.post('/api/manage/admin/create', { username: `op${bad}`, password: 'operator-pass-1', role: 'support' }, { token: root })).toMatchObject({
        code: 40000,
        errors: { username: { message: 'validation.unsafe_characters' } },
      });
    }
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).data.username).not.toMatch(/[\u0000\u202E\u200B]/);
  });

  it('When text is refused anywhere — list search, JSON fields, keys, passwords — then the call says which field', async () => {
    expect(await t.post('/api/manage/admin/list', { q: 'a\u0000' }, { token: root })).toMatchObject({ code: 40000, errors: { q: { message: 'validation.unsafe_characters' } } });
    expect(await t.post('/api/manage/admin/list', { filter: { 'role\u202E': 'x' } }, { token: root })).toMatchObject({ code: 40000 });
    expect(await t.post('/api/manage/login/login', { username: 'root', password: 'x\u0000y-long-enough' }, { ip: someIp() })).toMatchObject({
      code: 40000,
      errors: { password: { message: 'validation.unsafe_characters' } },
    });
  });

  it('When a one-line name has a line break, then it is refused; multi-line text keeps its lines', async () => {
    const customer = await signUpCustomer(t);
    expect(await t.post('/api/admin/me/update_username', { username: 'two\nlines' }, { token: customer.token })).toMatchObject({ errors: { username: { message: 'validation.one_line' } } });
    const created = await t.post('/api/manage/email_template/create', { key: 'multi-line', locale: 'en', subject: 'S', body: 'line 1\nline 2\ttab' }, { token: root });
    expect(created).toMatchObject({ code: 0, data: { body: 'line 1\nline 2\ttab' } });
  });

  it('When text arrives decomposed, then it is stored in NFC, so that equal-looking names are equal', async () => {
    const customer = await signUpCustomer(t);
    const decomposed = 'Jose\u0301 Zoe\u0308';
    const reply = await t.post('/api/admin/me/update_username', { username: decomposed }, { token: customer.token });
    expect(reply).toMatchObject({ code: 0, data: { username: 'Jos\u00e9 Zo\u00eb' } });
    const created = await t.post('/api/manage/admin/create', { username: 'Ange\u0301le', password: 'operator-pass-1', role: 'support' }, { token: root });
    expect(created.data.username).toBe('Ang\u00e9le');
    expect(await t.post('/api/manage/admin/create', { username: 'Ang\u00e9le', password: 'operator-pass-1', role: 'support' }, { token: root })).toMatchObject({
      errors: { username: { message: 'validation.taken' } },
    });
  });
});
