/**
 * The operators' jobs calls (/api/manage/job/*) and the jobs figures on the dashboard, with
 * outgoing mail as the job: a message whose SMTP server is down fails past its retries, is
 * seen failed with its error and its code masked, and once the server is up a superadmin's
 * retry delivers it, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, someIp, uniqueEmail } from '../helpers/fixtures.js';
import { smtpSink } from '../helpers/smtp-sink.js';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof smtpSink>>;
let root: string;
let support: string;
const email = uniqueEmail('job');

beforeAll(async () => {
  smtp = await smtpSink();
  t = await startTestApp({ SMTP_URL: smtp.url });
  root = await operatorLogin(t);
  support = (await operatorWithRole(t, 'support')).token;
});
afterAll(async () => {
  t.resetClock();
  await t.close();
  await smtp.close();
});

describe('a failed job, seen and retried', () => {
  let failedId: string;

  it('When the SMTP server stays down past every retry, then the job is failed, with its error, and the figures say so', async () => {
    await t.post('/api/admin/login/register', { email, password: 'customer-pass-1' }, { ip: someIp() });
    await t.services.jobs.drain();
    // Past the five retries (about 30 s, 1, 2, 4 and 8 minutes apart).
    for (let retry = 1; retry <= 5; retry++) {
      await t.moveClock(20 * 60_000);
      await t.services.jobs.drain();
    }
    const summary = await t.post('/api/manage/job/summary', {}, { token: support });
    expect(summary).toMatchObject({ code: 0 });
    expect(summary.data).toContainEqual(expect.objectContaining({ name: 'mail.send', failed: 1, queued: 0, active: 0 }));
    const stat = await t.post('/api/manage/index/stat', {}, { token: support });
    expect(stat.data.jobs).toMatchObject({ failed: 1, queued: 0, active: 0 });

    const list = await t.post('/api/manage/job/list', { filter: { state: 'failed', name: 'mail.send' } }, { token: support });
    expect(list.data).toMatchObject({ total: 1, page: 1 });
    const [job] = list.data.list;
    expect(job).toMatchObject({ name: 'mail.send', state: 'failed', attempts: 6, max_attempts: 6 });
    expect(job.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(job.payload).toMatchObject({ to: email, key: 'verify_code', params: { code: '••••••' } });
    failedId = job.id;
    const one = await t.get('/api/manage/job/get', { id: failedId }, { token: support });
    expect(one).toMatchObject({ code: 0, data: { id: failedId, state: 'failed' } });
    // No 6-digit code anywhere an operator can read.
    expect(JSON.stringify([list.data, one.data])).not.toMatch(/\b\d{6}\b/);
  });

  it('When support or billing tries to retry or discard, then it is forbidden and nothing changes', async () => {
    const billing = (await operatorWithRole(t, 'billing')).token;
    expect(await t.post('/api/manage/job/retry', { id: failedId }, { token: support })).toMatchObject({ status: 403, code: 40300 });
    expect(await t.post('/api/manage/job/discard', { id: failedId }, { token: billing })).toMatchObject({ status: 403, code: 40300 });
    expect((await t.get('/api/manage/job/get', { id: failedId }, { token: root })).data.state).toBe('failed');
  });

  it('When the SMTP server is up and a superadmin retries, then the message arrives once and the send log says sent', async () => {
    await smtp.up();
    const retried = await t.post('/api/manage/job/retry', { id: failedId }, { token: root });
    expect(retried).toMatchObject({ code: 0, data: { id: failedId, state: 'queued' } });
    await t.services.jobs.drain();
    expect((await t.get('/api/manage/job/get', { id: failedId }, { token: root })).data).toMatchObject({ state: 'done', attempts: 7 });
    const arrived = smtp.received.filter((m) => m.includes(`To: ${email}`));
    expect(arrived).toHaveLength(1);
    expect(arrived[0]).toMatch(/\b\d{6}\b/);
    const log = (await t.get('/api/manage/email_send_log/list', { filter: { recipient: email } }, { token: root })).data.list;
    expect(log).toMatchObject([{ status: 'sent', attempts: 7 }]);
    // And it is in the audit log, by whom.
    const audit = (await t.post('/api/manage/log/list', { filter: { action: 'retry' } }, { token: root })).data.list;
    expect(audit[0]).toMatchObject({ action: 'retry', target_type: 'job', actor_name: 'root' });

    // Nothing more arrives however often the jobs run.
    await t.moveClock(60 * 60_000);
    await t.services.jobs.drain();
    expect(smtp.received.filter((m) => m.includes(`To: ${email}`))).toHaveLength(1);
  });

  it('When a job is not failed, unknown, or the input is bad, then the answer says so and nothing changes', async () => {
    expect(await t.post('/api/manage/job/retry', { id: failedId }, { token: root })).toMatchObject({ status: 409, code: 40900, message: 'error.job_not_failed' });
    expect(await t.post('/api/manage/job/discard', { id: failedId }, { token: root })).toMatchObject({ status: 409, code: 40900, message: 'error.job_not_discardable' });
    expect(await t.post('/api/manage/job/retry', { id: '424242' }, { token: root })).toMatchObject({ status: 404, code: 40400 });
    expect(await t.get('/api/manage/job/get', { id: '00000000-0000-4000-8000-000000000000' }, { token: root })).toMatchObject({ status: 404, code: 40400 });
    // Not a job's id at all (neither a number nor a UUID as the queue gives them): malformed, not unknown.
    expect(await t.get('/api/manage/job/get', { id: 'not-a-job' }, { token: root })).toMatchObject({ status: 400, code: 40000, errors: { id: {} } });
    expect(await t.post('/api/manage/job/retry', {}, { token: root })).toMatchObject({ status: 400, code: 40000 });
    expect(await t.post('/api/manage/job/list', { filter: { state: 'lost' } }, { token: root })).toMatchObject({ status: 400, code: 40000 });
    expect((await t.get('/api/manage/job/get', { id: failedId }, { token: root })).data.state).toBe('done');
  });
});
