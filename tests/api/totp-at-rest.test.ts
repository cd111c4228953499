/**
 * Issue 33 (still open): TOTP secrets were stored in clear. With SECRET_KEY they are sealed
 * (AES-256-GCM, bound to their person); secrets an older release stored in clear keep working and
 * are sealed at the next start with the key, on SQLite and PostgreSQL alike.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { startMaildesk } from '../../server/start.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, someIp } from '../helpers/fixtures.js';
import { enrolTotp, nextStep, passwordStep, totpCode } from '../helpers/second-factor.js';

const SECRET_KEY = crypto.randomBytes(32).toString('hex');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SECRET_KEY });
});
afterEach(() => t.resetClock());
afterAll(() => t.close());

const storedSecret = async (app: TestApp, customerId: number) =>
  (await app.services.db.selectFrom('totp').select('secret').where('holder_kind', '=', 'customer').where('holder_id', '=', customerId).executeTakeFirstOrThrow()).secret;

/** The password step, then the code: whether the app's code signs in. */
async function signsInWith(app: TestApp, customer: { email: string; password: string }, code: string) {
  const pending = await passwordStep(app, 'admin', customer.email, customer.password);
  return (await app.post('/api/admin/login/second_factor', { token: pending.params?.token, code }, { ip: someIp() })).code === 0;
}

describe('TOTP secrets at rest', () => {
  it('When SECRET_KEY is set and a customer enrols, then the database holds the secret sealed, not in clear, and codes still sign in', async () => {
    const customer = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', customer.token);
    const stored = await storedSecret(t, customer.id);
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(secret);
    await nextStep(t);
    expect(await signsInWith(t, customer, totpCode(secret))).toBe(true);
  });

  it("When a sealed secret is copied onto another person's row, then it opens for nobody there: that person's sign-in refuses its codes", async () => {
    const victim = await signUpCustomer(t);
    const { secret } = await enrolTotp(t, 'admin', victim.token);
    const other = await signUpCustomer(t);
    await enrolTotp(t, 'admin', other.token);
    await t.services.db.updateTable('totp').set({ secret: await storedSecret(t, victim.id) }).where('holder_kind', '=', 'customer').where('holder_id', '=', other.id).execute();
    await nextStep(t);
    expect(await signsInWith(t, other, totpCode(secret))).toBe(false);
  });

  it('When secrets were stored in clear (before SECRET_KEY, or by an older release), then they keep working, and the next start with the key seals them', async () => {
    const before = await startTestApp();
    try {
      const customer = await signUpCustomer(before);
      const { secret } = await enrolTotp(before, 'admin', customer.token);
      // Without a key, as before: in clear, and working.
      expect(await storedSecret(before, customer.id)).toBe(secret);
      await nextStep(before);
      expect(await signsInWith(before, customer, totpCode(secret))).toBe(true);

      // The same database started with SECRET_KEY: sealed at start, and the code still signs in.
      const withKey = await startMaildesk(loadConfig({ ...envOf(before), SECRET_KEY }));
      try {
        const stored = (await withKey.services.db.selectFrom('totp').select('secret').where('holder_id', '=', customer.id).where('holder_kind', '=', 'customer').executeTakeFirstOrThrow()).secret;
        expect(stored).toMatch(/^v1\./);
        expect(stored).not.toContain(secret);
        await nextStep(before);
        const pending = await withKey.app.inject({ method: 'POST', url: '/api/admin/login/login', remoteAddress: someIp(), headers: { 'content-type': 'application/json', authentication: '' }, payload: { email: customer.email, password: customer.password } });
        const token = pending.json().params.token;
        const signedIn = await withKey.app.inject({ method: 'POST', url: '/api/admin/login/second_factor', remoteAddress: someIp(), headers: { 'content-type': 'application/json', authentication: '' }, payload: { token, code: totpCode(secret) } });
        expect(signedIn.json()).toMatchObject({ code: 0, data: { email: customer.email } });
      } finally {
        await withKey.close();
      }
    } finally {
      await before.close();
    }
  }, 60_000);
});

/** The environment a test app was started with, so that a second instance opens the same database. */
function envOf(app: TestApp): Record<string, string> {
  const { config } = app;
  return {
    DATA_DIR: config.dataDir,
    ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}),
    PUBLIC_URL: config.publicUrl,
    WEB_ROOT: config.webRoot ?? '',
    ADMIN_USERNAME: config.adminUsername,
    ADMIN_PASSWORD: config.adminPassword ?? '',
    JOB_SCHEDULES: '0',
    JOB_POLL_MS: '600000',
  };
}
