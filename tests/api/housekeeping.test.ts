/**
 * The hourly housekeeping schedule: ended sessions and codes are removed, send-log entries
 * older than MAIL_LOG_RETENTION_DAYS go, and what is still of use stays.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ MAIL_LOG_RETENTION_DAYS: '30' });
});
afterAll(async () => {
  t.resetClock();
  await t.close();
});

async function traces(customerId: number, email: string) {
  const { db } = t.services;
  const sessions = await db.selectFrom('session').select('id').where('actor', '=', 'customer').where('account_id', '=', customerId).execute();
  const codes = await db.selectFrom('verify_code').select('id').where('user_id', '=', customerId).execute();
  const mail = await db.selectFrom('email_send_log').select('id').where('recipient', '=', email).execute();
  return { sessions: sessions.length, codes: codes.length, mail: mail.length };
}

it('When housekeeping runs, then ended sessions and codes and send-log entries past their retention are gone, and recent ones stay', async () => {
  const old = await signUpCustomer(t);
  expect(await traces(old.id, old.email)).toEqual({ sessions: 1, codes: 1, mail: 1 });
  await t.moveClock(31 * 86_400_000);
  const fresh = await signUpCustomer(t);

  await t.services.jobs.runSchedule('housekeeping');
  expect(await traces(old.id, old.email)).toEqual({ sessions: 0, codes: 0, mail: 0 });
  expect(await traces(fresh.id, fresh.email)).toEqual({ sessions: 1, codes: 1, mail: 1 });
  // The fresh session still works; the customers themselves are untouched.
  expect((await t.post('/api/admin/me/info', {}, { token: fresh.token })).code).toBe(0);
  expect(await t.services.db.selectFrom('user').select('id').where('id', '=', old.id).executeTakeFirst()).toBeDefined();

  if (t.dialect === 'sqlite') {
    // The embedded queue's done jobs go after a week; pg-boss archives its own.
    const jobs = await t.services.db.selectFrom('job').select(['state', 'created_at']).execute();
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((j) => Date.parse(j.created_at) > Date.now() + 30 * 86_400_000)).toBe(true);
  }
});
