/**
 * What the mail server sees (the mail_* views deploy/ reads): only active records of active,
 * verified domains of active customers, every mailbox also an alias of itself.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer } from '../helpers/fixtures.js';
import { GiB, mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
beforeAll(async () => {
  t = await startTestApp();
  mail = mailFixtures(t);
});
afterAll(() => t.close());

const rows = async (view: string, where: string, value: string) =>
  (await sql<Record<string, unknown>>`select * from ${sql.table(view)} where ${sql.ref(where)} = ${value}`.execute(t.services.db)).rows;
const resolves = async (address: string) => (await rows('mail_alias', 'address', address)).map((r) => r.goto);

it('When records, domains or customers are not active, then the mail server sees nothing of them, at once', async () => {
  const customer = await signUpCustomer(t);
  const operator = await mail.operator();
  await mail.grant(customer.id, GiB);
  const domain = await mail.activeDomain(customer);
  const pending = await mail.pendingDomain(customer);
  const box = await mail.mailbox(customer.token, domain.id, 'box');
  await mail.mailbox(customer.token, pending.id, 'early');
  const alias = await mail.alias(customer.token, domain.id, ['one@example.org', 'two@example.org'], 'team');
  const aliasDomain = await mail.activeDomain(customer);
  const mapping = (await t.post('/api/admin/alias_domain/create', { alias_domain_id: aliasDomain.id, target_domain_id: domain.id }, { token: customer.token })).data;

  expect(await rows('mail_domain', 'name', domain.name)).toHaveLength(1);
  expect(await rows('mail_domain', 'name', pending.name)).toHaveLength(0);
  expect(await rows('mail_mailbox', 'address', `early@${pending.name}`)).toHaveLength(0);
  const [mailbox] = await rows('mail_mailbox', 'address', box.address);
  expect(mailbox).toMatchObject({ address: box.address, local_part: 'box', domain: domain.name });
  expect(String(mailbox.password_hash)).toMatch(/^\{ARGON2ID\}/);
  expect(await resolves(box.address)).toEqual([box.address]);
  expect(await resolves(alias.address)).toEqual(['one@example.org,two@example.org']);
  expect(await rows('mail_alias_domain', 'alias_domain', aliasDomain.name)).toEqual([{ alias_domain: aliasDomain.name, target_domain: domain.name }]);

  await t.post('/api/admin/email/update', { id: box.id, active: 0 }, { token: customer.token });
  await t.post('/api/admin/alias/update', { id: alias.id, active: 0 }, { token: customer.token });
  await t.post('/api/admin/alias_domain/update', { id: mapping.id, active: 0 }, { token: customer.token });
  expect(await rows('mail_mailbox', 'address', box.address)).toHaveLength(0);
  expect(await resolves(box.address)).toEqual([]);
  expect(await resolves(alias.address)).toEqual([]);
  expect(await rows('mail_alias_domain', 'alias_domain', aliasDomain.name)).toHaveLength(0);

  await t.post('/api/admin/email/update', { id: box.id, active: 1 }, { token: customer.token });
  await t.post('/api/manage/domain/update', { id: domain.id, status: 'suspended' }, { token: operator });
  expect(await rows('mail_domain', 'name', domain.name)).toHaveLength(0);
  expect(await rows('mail_mailbox', 'address', box.address)).toHaveLength(0);
  await t.post('/api/manage/domain/update', { id: domain.id, status: 'active' }, { token: operator });
  expect(await rows('mail_mailbox', 'address', box.address)).toHaveLength(1);

  await t.post('/api/manage/user/update', { id: customer.id, status: 'disabled' }, { token: operator });
  expect(await rows('mail_domain', 'name', domain.name)).toHaveLength(0);
  expect(await rows('mail_mailbox', 'address', box.address)).toHaveLength(0);
  expect(await resolves(box.address)).toEqual([]);
});
