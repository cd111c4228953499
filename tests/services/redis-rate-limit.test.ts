/** With REDIS_URL, two instances of the app count sign-in attempts together. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { someIp, uniqueEmail } from '../helpers/fixtures.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await startTestApp({ REDIS_URL: redisUrl });
  second = await startTestApp({ REDIS_URL: redisUrl });
});
afterAll(async () => {
  await first.close();
  await second.close();
});

it('When attempts on one address are spread over two instances, then the eleventh is refused by either', async () => {
  const email = uniqueEmail('shared');
  const codes: number[] = [];
  for (let i = 0; i < 10; i++) {
    const instance = i % 2 === 0 ? first : second;
    codes.push((await instance.post('/api/admin/login/login', { email, password: 'wrong-password' }, { ip: someIp() })).code);
  }
  expect(codes).toEqual(Array(10).fill(40101));
  const eleventh = await first.post('/api/admin/login/login', { email, password: 'wrong-password' }, { ip: someIp() });
  expect(eleventh).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited' });
  expect(eleventh.params?.retry_after).toBeGreaterThan(800);
  // An address nobody has tried is not affected.
  expect((await second.post('/api/admin/login/login', { email: uniqueEmail('fresh'), password: 'wrong-password' }, { ip: someIp() })).code).toBe(40101);
});
