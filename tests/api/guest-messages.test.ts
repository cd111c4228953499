/** The public contact form (POST /api/message/send) and the operators' inbox (/api/manage/guest_message/*). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, someIp, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
});
afterAll(() => t.close());

const message = (extra: Record<string, unknown> = {}) => ({ name: 'Grace Guest', email: uniqueEmail('guest'), subject: 'Pricing', content: 'How much is 10 GB?', ...extra });
const inbox = (query: Record<string, unknown> = {}) => t.get('/api/manage/guest_message/list', { page_size: 100, ...query }, { token: root });

describe('sending', () => {
  it('When a visitor sends a message, then operators can list, read and delete it', async () => {
    const ip = someIp();
    const sent = message({ email: `  ${uniqueEmail('Guest').toUpperCase()} ` });
    expect(await t.post('/api/message/send', sent, { ip })).toMatchObject({ status: 200, code: 0, data: null, message: 'ok' });

    const found = await inbox({ filter: { ip } });
    expect(found.data.total).toBe(1);
    const row = found.data.list[0];
    expect(row).toMatchObject({ name: 'Grace Guest', email: sent.email.trim().toLowerCase(), subject: 'Pricing', ip });

    const one = await t.get('/api/manage/guest_message/get', { id: row.id }, { token: root });
    // The user agent of the test's HTTP client (light-my-request).
    expect(one).toMatchObject({ code: 0, data: { id: row.id, content: 'How much is 10 GB?', user_agent: 'lightMyRequest', created_at: row.created_at } });
    expect(Date.now() - Date.parse(one.data.created_at)).toBeLessThan(60_000);

    expect(await t.post('/api/manage/guest_message/delete', { id: row.id }, { token: root })).toMatchObject({ code: 0, data: { id: row.id } });
    expect(await t.get('/api/manage/guest_message/get', { id: row.id }, { token: root })).toMatchObject({ status: 404, code: 40400 });
    expect((await inbox({ filter: { ip } })).data.total).toBe(0);
  });

  it('When the subject is left out, then the message is kept with an empty one', async () => {
    const ip = someIp();
    const { subject: _omitted, ...rest } = message();
    expect((await t.post('/api/message/send', rest, { ip })).code).toBe(0);
    expect((await inbox({ filter: { ip } })).data.list[0]).toMatchObject({ subject: '' });
  });

  it('When the honeypot field is filled, then the answer is the same and nothing is kept', async () => {
    const ip = someIp();
    const reply = await t.post('/api/message/send', message({ website: 'http://spam.example' }), { ip });
    expect(reply).toMatchObject({ status: 200, code: 0, data: null, message: 'ok' });
    expect((await inbox({ filter: { ip } })).data.total).toBe(0);
  });
});

describe('limits', () => {
  it('When content is over 5000 characters or the name over 100, then the field says so and nothing is kept', async () => {
    const ip = someIp();
    expect(await t.post('/api/message/send', message({ content: 'x'.repeat(5001) }), { ip })).toMatchObject({
      status: 400,
      code: 40000,
      errors: { content: { message: 'validation.too_long', params: { max: 5000 } } },
    });
    expect(await t.post('/api/message/send', message({ name: 'n'.repeat(101) }), { ip })).toMatchObject({
      code: 40000,
      errors: { name: { message: 'validation.too_long', params: { max: 100 } } },
    });
    expect(await t.post('/api/message/send', message({ subject: 's'.repeat(201) }), { ip })).toMatchObject({
      code: 40000,
      errors: { subject: { message: 'validation.too_long', params: { max: 200 } } },
    });
    expect((await inbox({ filter: { ip } })).data.total).toBe(0);
    // Exactly at the limits is fine.
    expect((await t.post('/api/message/send', message({ content: 'x'.repeat(5000), name: 'n'.repeat(100) }), { ip })).code).toBe(0);
  });

  it('When required fields are missing or the address is bad, then each says so', async () => {
    expect(await t.post('/api/message/send', { email: 'nope', content: '   ' }, { ip: someIp() })).toMatchObject({
      code: 40000,
      errors: {
        name: { message: 'validation.required' },
        email: { message: 'validation.invalid_email' },
        content: { message: 'validation.required' },
      },
    });
  });

  it('When one IP sends a sixth message within the hour, then it is refused with 42900 and not kept', async () => {
    const ip = someIp();
    for (let i = 0; i < 5; i++) expect((await t.post('/api/message/send', message({ content: `Message ${i}` }), { ip })).code).toBe(0);
    const refused = await t.post('/api/message/send', message({ content: 'Message 6' }), { ip });
    expect(refused).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited' });
    // The hour's window started with the first message, moments ago.
    expect(refused.params!.retry_after).toBeGreaterThan(3600 - 60);
    expect(refused.params!.retry_after).toBeLessThanOrEqual(3600);
    expect((await inbox({ filter: { ip } })).data.total).toBe(5);
    // Another visitor is not affected.
    expect((await t.post('/api/message/send', message(), { ip: someIp() })).code).toBe(0);
  });

  it('When the body is not JSON, then the answer is error.invalid_json', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/message/send',
      remoteAddress: someIp(),
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "Grace", "email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 40000, data: null, message: 'error.invalid_json' });
  });
});

describe('request size', () => {
  it('When a request body is over BODY_LIMIT_BYTES, then it is refused with 41300 error.too_large', async () => {
    const small = await startTestApp({ BODY_LIMIT_BYTES: '2000' });
    try {
      const ip = someIp();
      const fits = await small.post('/api/message/send', message({ content: 'x'.repeat(1500) }), { ip });
      expect(fits.code).toBe(0);
      const tooLarge = await small.post('/api/message/send', message({ content: 'x'.repeat(2500) }), { ip });
      expect(tooLarge).toMatchObject({ status: 413, code: 41300, data: null, message: 'error.too_large' });
      const token = await operatorLogin(small);
      expect((await small.get('/api/manage/guest_message/list', { filter: { ip } }, { token })).data.total).toBe(1);
    } finally {
      await small.close();
    }
  });
});
