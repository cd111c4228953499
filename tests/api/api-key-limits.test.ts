/**
 * What a script with an API key may do how often (issue 33): at most API_KEY_RATE_LIMIT calls a
 * minute per key, the next answered 429 with a translated error and Retry-After; and what counts as
 * a read for a read-only key (the ticket queue's list is one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { ROOT } from '../helpers/app.js';
import { openTicket } from '../helpers/support.js';

const PER_MINUTE = 5;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ API_KEY_RATE_LIMIT: String(PER_MINUTE) });
});
afterAll(() => t.close());

const bearer = (key: string) => ({ token: '', headers: { authorization: `Bearer ${key}` } });

/** A key made by a signed-in person, who confirms it with their password. */
async function makeKey(token: string, password: string, access: 'read' | 'write', area: 'admin' | 'manage' = 'admin') {
  const reply = await t.post(`/api/${area}/api_key/create`, { name: `Script ${access}`, access, confirmation: password }, { token });
  if (reply.code !== 0) throw new Error(`key not made: ${JSON.stringify(reply)}`);
  return reply.data.key as string;
}

/** A call with a key as a script makes it, with the answer's headers. */
async function callWithKey(key: string, locale: 'en' | 'zh' = 'en') {
  const response = await t.app.inject({ method: 'POST', url: '/api/admin/me/info', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'accept-language': locale }, payload: '{}' });
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], ...response.json() };
}

describe('no limit', () => {
  it('When API_KEY_RATE_LIMIT is 0, then a key is never refused for how often it calls', async () => {
    const unlimited = await startTestApp({ API_KEY_RATE_LIMIT: '0' });
    try {
      const customer = await signUpCustomer(unlimited);
      const made = await unlimited.post('/api/admin/api_key/create', { name: 'Script', access: 'read', confirmation: customer.password }, { token: customer.token });
      const codes: number[] = [];
      for (let i = 0; i < PER_MINUTE * 3; i++) codes.push((await unlimited.post('/api/admin/me/info', {}, bearer(made.data.key))).code);
      expect(codes).toEqual(Array(PER_MINUTE * 3).fill(0));
    } finally {
      await unlimited.close();
    }
  });
});

describe('how often a key may call', () => {
  let customer: CustomerSession;
  beforeAll(async () => {
    customer = await signUpCustomer(t);
  });

  it(`When a key has made ${PER_MINUTE} calls in a minute (API_KEY_RATE_LIMIT), then the ${PER_MINUTE}th is answered and the next is refused with 429, a translated error and Retry-After; another key of the same login still calls`, async () => {
    const key = await makeKey(customer.token, customer.password, 'read');
    for (let i = 1; i <= PER_MINUTE; i++) {
      const reply = await callWithKey(key);
      expect(reply, `call ${i}`).toMatchObject({ status: 200, code: 0, data: { email: customer.email } });
      expect(reply.retryAfter).toBeUndefined();
    }
    const refused = await callWithKey(key, 'zh');
    expect(refused).toMatchObject({ status: 429, code: 42900, data: null, message: 'error.api_key_rate_limited', params: { limit: PER_MINUTE } });
    const wait = Number(refused.params.retry_after);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.retryAfter).toBe(String(wait));
    // What the person reads, in both languages.
    expect(messageText('en', refused.message, refused.params)).toBe(`This API key has made as many calls in the last minute as one key may (${PER_MINUTE}). Try again in ${wait} ${wait === 1 ? 'second' : 'seconds'}.`);
    expect(messageText('zh', refused.message, refused.params)).toContain(`${wait} 秒后重试`);
    // The limit is the key's: the login's own session and its other keys are not slowed.
    const other = await makeKey(customer.token, customer.password, 'read');
    expect(await callWithKey(other)).toMatchObject({ status: 200, code: 0 });
    expect(await t.post('/api/admin/me/info', {}, { token: customer.token })).toMatchObject({ status: 200, code: 0 });
  });

  it('When a key is past its limit, then a write with it changes nothing', async () => {
    const key = await makeKey(customer.token, customer.password, 'write');
    for (let i = 0; i < PER_MINUTE; i++) await callWithKey(key);
    const refused = await t.post('/api/admin/me/update_username', { username: 'Renamed by script' }, bearer(key));
    expect(refused).toMatchObject({ status: 429, code: 42900, message: 'error.api_key_rate_limited' });
    const info = await t.post('/api/admin/me/info', {}, { token: customer.token });
    expect(info.data.username).not.toBe('Renamed by script');
  });

  it('When an operator key is past its limit, then it is refused as well (the limit is every area\'s)', async () => {
    const root = await operatorLogin(t);
    const key = await makeKey(root, ROOT.password, 'read', 'manage');
    const list = () => t.post('/api/manage/user/list', { page_size: 1 }, bearer(key));
    for (let i = 0; i < PER_MINUTE; i++) expect(await list()).toMatchObject({ code: 0 });
    expect(await list()).toMatchObject({ status: 429, code: 42900, message: 'error.api_key_rate_limited' });
  });
});

describe('a read-only key lists', () => {
  it('When a read-only key lists tickets (a POST list), then it gets them, in both areas; opening a ticket with it is still refused', async () => {
    const customer = await signUpCustomer(t);
    const ticket = await openTicket(t, customer.token, { subject: 'Read-only key ticket' });
    const read = await makeKey(customer.token, customer.password, 'read');
    const listed = await t.post('/api/admin/ticket/list', {}, bearer(read));
    expect(listed).toMatchObject({ status: 200, code: 0, data: { total: 1, list: [expect.objectContaining({ id: ticket.id, subject: 'Read-only key ticket' })] } });
    const opened = await t.post('/api/admin/ticket/create', { subject: 'x', category: 'other', message: 'y' }, bearer(read));
    expect(opened).toMatchObject({ status: 403, code: 40300, message: 'error.api_key_read_only' });
    const root = await operatorLogin(t);
    const operatorRead = await makeKey(root, ROOT.password, 'read', 'manage');
    const queue = await t.post('/api/manage/ticket/list', { filter: { owner_id: customer.id } }, bearer(operatorRead));
    expect(queue).toMatchObject({ status: 200, code: 0, data: { total: 1, list: [expect.objectContaining({ id: ticket.id })] } });
  });
});
