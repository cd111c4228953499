/** The specification's multipart/form-data posting variant works like a JSON body. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function postForm(url: string, fields: Record<string, string>, token = '') {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://x', { method: 'POST', body: form });
  const response = await t.app.inject({
    method: 'POST',
    url,
    headers: { authentication: token, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return { status: response.statusCode, ...response.json() };
}

it('When a customer is created with a form post, then the fields are read as the JSON body would be', async () => {
  const token = await operatorLogin(t);
  const email = uniqueEmail('form');
  const reply = await postForm('/api/manage/user/create', { email, password: 'form-pass-123', is_verified: '1', storage_max: String(2 * 1024 ** 3) }, token);
  expect(reply).toMatchObject({ code: 0, data: { email, is_verified: 1, storage_max: 2 * 1024 ** 3 } });
});

it('When a form post has bad fields, then the same field errors come back', async () => {
  const reply = await postForm('/api/admin/login/register', { email: 'nope', password: 'x' });
  expect(reply).toMatchObject({ status: 400, code: 40000, errors: { email: { message: 'validation.invalid_email' }, password: { message: 'validation.too_short' } } });
});
