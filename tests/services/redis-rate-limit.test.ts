/** With REDIS_URL, two instances of the app count sign-in failures together (signInPolicy). */
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

const wrong = (app: TestApp, email: string, ip: string) => app.post('/api/admin/login/login', { email, password: 'wrong-password' }, { ip });

it('When one source keeps failing on one address across both instances, then either makes it wait', async () => {
  const email = uniqueEmail('shared');
  const ip = someIp();
  const codes: number[] = [];
  // Three free failures and the one that starts the wait, alternating instances.
  for (let i = 0; i < 4; i++) codes.push((await wrong(i % 2 === 0 ? first : second, email, ip)).code);
  expect(codes).toEqual(Array(4).fill(40101));
  const fifth = await second.post('/api/admin/login/login', { email, password: 'wrong-password' }, { ip });
  expect(fifth).toMatchObject({ status: 429, code: 42900, message: 'error.rate_limited' });
  expect(fifth.params?.retry_after).toBeGreaterThanOrEqual(1);
  // Another source on the same address is not made to wait by this one.
  expect((await first.post('/api/admin/login/login', { email, password: 'wrong-password' }, { ip: someIp() })).code).toBe(40101);
});

it('When an address is guessed from many sources spread over both instances, then a new source waits after one try', async () => {
  const email = uniqueEmail('guessed');
  for (let i = 0; i < 10; i++) expect((await wrong(i % 2 === 0 ? first : second, email, someIp())).code).toBe(40101);
  const ip = someIp();
  expect((await wrong(first, email, ip)).code).toBe(40101);
  expect(await wrong(second, email, ip)).toMatchObject({ status: 429, code: 42900 });
  // An address nobody has tried is not affected.
  expect((await wrong(second, uniqueEmail('fresh'), someIp())).code).toBe(40101);
});
