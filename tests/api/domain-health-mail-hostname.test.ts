/**
 * MTA-STS while the mail server has no publishable name (MAIL_HOSTNAME an address or not a public
 * name): a policy would name an MX that cannot be one, so none is served, even for a domain in service.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer } from '../helpers/fixtures.js';
import { mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ MAIL_HOSTNAME: 'localhost' });
});
afterAll(async () => {
  await t.close();
});

it('When MAIL_HOSTNAME is not a public name, then mta-sts.<domain in service> answers a bare 404', async () => {
  const domain = await mailFixtures(t).activeDomain(await signUpCustomer(t));
  const reply = await t.app.inject({ method: 'GET', url: '/.well-known/mta-sts.txt', headers: { host: `mta-sts.${domain.name}` } });
  expect(reply.statusCode).toBe(404);
  expect(reply.body).toBe('Not Found');
});
