/** Generated from authorization.matrix.ts: every call × every caller. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { someIp } from '../helpers/fixtures.js';
import { buildFixture, type Fixture } from './authorization.fixture.js';
import { callers, matrix, type Outcome } from './authorization.matrix.js';

let t: TestApp;
let fx: Fixture;
beforeAll(async () => {
  // Mail copies set up (their old server a closed port), so that starting one is allowed or refused by who asks.
  // The matrix's copies name an old server on this machine, which only the operator may allow.
  t = await startTestApp({ MAIL_COPY_IMAP: 'imap://127.0.0.1:1', MAIL_COPY_MASTER_USER: 'maildesk-copy', MAIL_COPY_MASTER_PASSWORD: 'matrix-master', MAIL_COPY_ALLOW_NETWORKS: '127.0.0.1/32', SECRET_KEY: '0'.repeat(64) });
  fx = await buildFixture(t);
}, 120_000);
afterAll(() => t.close());

const codeOf: Record<Exclude<Outcome, 'public'>, number> = { ok: 0, session: 20000, forbidden: 40300, not_found: 40400 };

it('When the app serves a call, then the matrix has a row for it, and every row is a served call', () => {
  const served = t.calls.map((c) => `${c.method} ${c.path}`).sort();
  const rows = matrix.map((r) => r.call).sort();
  expect(rows).toEqual(served);
});

describe.each(matrix)('$call', (row) => {
  const [method, path] = row.call.split(' ') as ['GET' | 'POST', string];
  it.each(callers)('called by %s', async (caller) => {
    const token = row.usesOwnSession ? await fx.freshToken(caller) : fx.tokenOf(caller);
    const input = await row.input(fx, caller);
    const options = { token, ip: someIp() };
    const reply = method === 'GET' ? await t.get(path, input, options) : await t.post(path, input, options);
    if (row.usesOwnSession) await fx.renewSession(caller);
    const outcome = row.expect[caller];
    if (outcome === 'public') {
      // Answered as a call with valid input: done, or the business answer (unknown address, wrong code).
      expect({ code: reply.code, message: reply.message }).toMatchObject({ code: expect.toBeOneOf([0, 40101, 40102]) });
      return;
    }
    expect({ code: reply.code, message: reply.message }).toMatchObject({ code: codeOf[outcome] });
    if (row.listed && outcome === 'ok' && caller !== 'superadmin' && caller !== 'support' && caller !== 'billing') {
      const id = await row.listed(fx);
      const again = method === 'GET' ? await t.get(path, { page_size: 100 }, options) : await t.post(path, { page_size: 100 }, options);
      const ids = again.data.list.map((r: { id: number }) => r.id);
      // Customer A (mailbox A) sees their own record; customer B (mailbox B) never does.
      if (caller === 'customerB' || caller === 'mailboxB') expect(ids).not.toContain(id);
      else expect(ids).toContain(id);
    }
  });
});
