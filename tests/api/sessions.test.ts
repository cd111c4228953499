/** Sessions end after 12 hours unused, or 7 days after sign-in however busy. */
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const hours = (n: number) => n * 3_600_000;
/** Sets the app's clock to `ms` after the real now (only Date: timers, I/O and the database run as usual). */
function travel(ms: number) {
  vi.useRealTimers();
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms });
}

it('When a customer session is unused for longer than 12 hours, then it has ended (20000)', async () => {
  const customer = await signUpCustomer(t);
  travel(hours(11));
  expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(0);
  // Used at 11 h: the idle clock starts again.
  travel(hours(11 + 11.9));
  expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(0);
  travel(hours(22.9 + 12.1));
  expect(await t.post('/api/admin/me/info', {}, { token: customer.token })).toMatchObject({ status: 401, code: 20000 });
});

it('When an operator session is used every few hours, then it still ends 7 days after sign-in', async () => {
  const token = await operatorLogin(t);
  let elapsed = 0;
  while (elapsed + hours(10) < hours(7 * 24)) {
    elapsed += hours(10);
    travel(elapsed);
    expect((await t.post('/api/manage/me/info', {}, { token })).code).toBe(0);
  }
  travel(hours(7 * 24) + 60_000);
  expect((await t.post('/api/manage/me/info', {}, { token })).code).toBe(20000);
});
