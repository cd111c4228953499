/**
 * What the mail server sees (the mail_* views deploy/ reads): only active records of active,
 * verified domains of active customers, every mailbox also an alias of itself.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer } from '../helpers/fixtures.js';
import { GiB, MiB, mailFixtures } from '../helpers/mail-fixtures.js';
import { dovecotQueries, postfixMaps } from '../../deploy/queries.js';
import { lookupQueries, seededSampleSql, seedStatements, tableScans } from '../mail/lookups.js';

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

// ---------------------------------------------------------------------------------------------
// The views of migration 0017 read flags the triggers keep on the domain (receives_mail,
// alias_target) instead of joining domains and customers. They must answer exactly what the
// joins answered (the views of migrations 0002 and 0007, below), after every change of state.

const before = {
  mail_domain: `SELECT d.id, d.name FROM domain d JOIN "user" u ON u.id = d.owner_id WHERE d.status = 'active' AND d.verified_at IS NOT NULL AND u.status = 'active'`,
} as Record<string, string>;
before.mail_mailbox = `SELECT m.address, m.password_hash, m.quota, m.local_part, d.name AS domain FROM mailbox m JOIN (${before.mail_domain}) d ON d.id = m.domain_id WHERE m.active = 1`;
before.mail_alias = `SELECT a.address, a.goto FROM alias a JOIN (${before.mail_domain}) d ON d.id = a.domain_id WHERE a.active = 1 UNION ALL SELECT mm.address, mm.address FROM (${before.mail_mailbox}) mm`;
before.mail_alias_domain = `SELECT a.name AS alias_domain, t.name AS target_domain FROM alias_domain ad JOIN (${before.mail_domain}) a ON a.id = ad.alias_domain_id JOIN (${before.mail_domain}) t ON t.id = ad.target_domain_id WHERE ad.active = 1`;
before.mail_dkim_key = `SELECT d.name AS domain, d.dkim_selector AS selector, d.dkim_private_key AS private_key FROM domain d JOIN (${before.mail_domain}) md ON md.id = d.id`;
before.mail_mailbox_full = `SELECT m.address FROM (${before.mail_mailbox}) m JOIN mailbox_usage u ON u.address = m.address WHERE m.quota > 0 AND u.bytes >= m.quota`;
// Dovecot's main-password lookup reads the mailboxes that mail programs may use it for (0019), over mail_mailbox.
before.mail_mailbox_login = `SELECT mm.address, mm.password_hash FROM (${before.mail_mailbox}) mm JOIN mailbox m ON m.address = mm.address WHERE m.app_passwords_only = 0`;

const viewColumns: Record<string, string[]> = {
  mail_domain: ['id', 'name'],
  mail_mailbox: ['address', 'password_hash', 'quota', 'local_part', 'domain'],
  mail_alias: ['address', 'goto'],
  mail_alias_domain: ['alias_domain', 'target_domain'],
  mail_dkim_key: ['domain', 'selector', 'private_key'],
  mail_mailbox_full: ['address'],
  mail_mailbox_login: ['address', 'password_hash'],
};

/** A lookup's text reading the views as they were (each view replaced by its former query). */
const asBefore = (text: string) => text.replace(/FROM (mail_\w+)/g, (_, view: string) => `FROM (${before[view]}) ${view}`);

/** The quota check as it was (deploy/queries.ts before 0017): four resolutions in virtual_alias_maps' order. */
const targetOf = `(SELECT target_domain FROM mail_alias_domain WHERE alias_domain = '%d')`;
const quotaFullBefore = `SELECT '552 5.2.2 Mailbox is full' FROM mail_mailbox_full WHERE address = COALESCE(
    (SELECT goto FROM mail_alias WHERE address = '%u@%d' LIMIT 1),
    (SELECT goto FROM mail_alias WHERE address = '%u@' || ${targetOf} LIMIT 1),
    (SELECT goto FROM mail_alias WHERE address = '@' || ${targetOf} LIMIT 1),
    (SELECT goto FROM mail_alias WHERE address = '@%d' LIMIT 1))`.replace(/\s*\n\s*/g, ' ');

const fill = (text: string, key: string) => {
  const [u, d] = key.includes('@') ? key.split('@') : ['', key];
  return text.replaceAll('%s', key).replaceAll('%u', u).replaceAll('%d', d);
};

async function answers(text: string) {
  const { rows } = await sql.raw<Record<string, unknown>>(text).execute(t.services.db);
  return rows.map((r) => JSON.stringify(Object.values(r))).sort();
}

/** Every view, and every lookup of the mail server for each key, answer as they did before 0017. */
async function expectSameAsBefore(keys: string[], state: string) {
  for (const [view, columns] of Object.entries(viewColumns)) {
    const list = columns.join(', ');
    expect(await answers(`SELECT ${list} FROM ${view}`), `${view} when ${state}`).toEqual(await answers(`SELECT ${list} FROM (${before[view]}) v`));
  }
  const dovecot = dovecotQueries('/var/vmail');
  const lookups = keys.flatMap((key) => [
    ...Object.entries(postfixMaps)
      // Held mailboxes (0022) and mail stores (0031) had no lookup before 0017's views.
      .filter(([name]) => name !== 'heldLogin' && name !== 'storeTransport')
      // Postfix runs no query with %u for a key without a local part, nor with %d for "user@".
      .filter(([, text]) => !(text.includes('%u') && !key.includes('@')) && !(text.includes('%d') && key.endsWith('@')))
      .map(([name, text]) => ({ what: `postfix ${name} ${key}`, now: fill(text, key), then: asBefore(fill(name === 'quotaFull' ? quotaFullBefore : text, key)) })),
    ...Object.entries({ password: dovecot.password, user: dovecot.user }).map(([name, text]) => ({
      what: `dovecot ${name} ${key}`,
      now: text.replaceAll('%u', key),
      then: asBefore(text.replaceAll('%u', key)),
    })),
  ]);
  const results = await Promise.all(lookups.map(async (l) => ({ ...l, now: await answers(l.now), then: await answers(l.then) })));
  for (const { what, now, then } of results) expect(now, `${what} when ${state}`).toEqual(then);
}

it('When customers, domains, alias domains, mailboxes, aliases and usage change state, then the views and every lookup answer as the joins of 0002/0007 did', async () => {
  const db = t.services.db;
  const operator = await mail.operator();
  const customer = await signUpCustomer(t);
  const other = await signUpCustomer(t);
  await mail.grant(customer.id, GiB);
  await mail.grant(other.id, GiB);
  const domain = await mail.activeDomain(customer);
  const aliasDomain = await mail.activeDomain(customer);
  const pending = await mail.pendingDomain(customer);
  const foreign = await mail.activeDomain(other);
  const full = await mail.mailbox(customer.token, domain.id, 'full');
  const roomy = await mail.mailbox(customer.token, domain.id, 'roomy');
  const own = await mail.mailbox(customer.token, aliasDomain.id, 'own');
  await mail.mailbox(customer.token, pending.id, 'early');
  const elsewhere = await mail.mailbox(other.token, foreign.id, 'elsewhere');
  const team = await mail.alias(customer.token, domain.id, [full.address], 'team');
  await mail.alias(customer.token, domain.id, [full.address], '');
  await mail.alias(customer.token, aliasDomain.id, [roomy.address], '');
  await mail.alias(customer.token, domain.id, [full.address, roomy.address], 'both');
  const mapping = (await t.post('/api/admin/alias_domain/create', { alias_domain_id: aliasDomain.id, target_domain_id: domain.id }, { token: customer.token })).data;
  expect(mapping.id).toBeGreaterThan(0);
  await sql`insert into mailbox_usage (address, bytes, messages) values (${full.address}, ${2 * MiB}, 3), (${roomy.address}, 10, 1), (${own.address}, ${MiB}, 1)`.execute(db);

  const keys = [
    ...['full', 'roomy', 'own', 'team', 'both', 'nobody'].flatMap((u) => [`${u}@${domain.name}`, `${u}@${aliasDomain.name}`]),
    `early@${pending.name}`,
    elsewhere.address,
    `nobody@${foreign.name}`,
    domain.name,
    aliasDomain.name,
    pending.name,
    foreign.name,
    `full@`,
  ];
  const step = async (state: string, change?: () => Promise<unknown>) => {
    await change?.();
    await expectSameAsBefore(keys, state);
  };
  const ok = async (reply: Promise<{ code: number; message: string }>) => expect((await reply).code, (await reply).message).toBe(0);
  const manage = (path: string, body: Record<string, unknown>) => ok(t.post(`/api/manage/${path}`, body, { token: operator }));
  const admin = (path: string, body: Record<string, unknown>) => ok(t.post(`/api/admin/${path}`, body, { token: customer.token }));

  await step('all active');
  // The catch-all, the alias and the mailbox at the alias domain answer as before.
  expect(await answers(fill(postfixMaps.quotaFull, `nobody@${aliasDomain.name}`))).toEqual(['["552 5.2.2 Mailbox is full"]']);
  expect(await answers(fill(postfixMaps.quotaFull, `own@${aliasDomain.name}`))).toEqual(['["552 5.2.2 Mailbox is full"]']);
  expect(await answers(fill(postfixMaps.quotaFull, `roomy@${aliasDomain.name}`))).toEqual([]);
  await step('the full mailbox has room again', () => sql`update mailbox_usage set bytes = 0 where address = ${full.address}`.execute(db));
  await step('the full mailbox is full again', () => sql`update mailbox_usage set bytes = ${5 * MiB} where address = ${full.address}`.execute(db));
  await step('the mailbox has no quota', () => sql`update mailbox set quota = 0 where id = ${full.id}`.execute(db));
  await step('the mailbox has its quota back', () => sql`update mailbox set quota = ${MiB} where id = ${full.id}`.execute(db));
  await step('the mailbox is disabled', () => admin('email/update', { id: full.id, active: 0 }));
  await step('the mailbox is enabled', () => admin('email/update', { id: full.id, active: 1 }));
  await step('the alias is disabled', () => admin('alias/update', { id: team.id, active: 0 }));
  await step('the alias is enabled', () => admin('alias/update', { id: team.id, active: 1 }));
  await step('the alias domain mapping is disabled', () => admin('alias_domain/update', { id: mapping.id, active: 0 }));
  await step('the alias domain mapping is enabled', () => admin('alias_domain/update', { id: mapping.id, active: 1 }));
  await step('the target domain is suspended', () => manage('domain/update', { id: domain.id, status: 'suspended' }));
  await step('the target domain is active again', () => manage('domain/update', { id: domain.id, status: 'active' }));
  await step('the alias domain is suspended', () => manage('domain/update', { id: aliasDomain.id, status: 'suspended' }));
  await step('the alias domain is active again', () => manage('domain/update', { id: aliasDomain.id, status: 'active' }));
  await step('the target domain is unverified', () => manage('domain/update', { id: domain.id, status: 'pending' }));
  await step('the target domain is verified again', () => manage('domain/update', { id: domain.id, status: 'active' }));
  await step('the pending domain is verified', () => manage('domain/update', { id: pending.id, status: 'active' }));
  await step('the customer is disabled', () => manage('user/update', { id: customer.id, status: 'disabled' }));
  await step('the customer is enabled', () => manage('user/update', { id: customer.id, status: 'active' }));
  // (Disabling the customer ended their sessions: what follows is done by the operator, or in the database.)
  await step('verification is removed in the database', () => sql`update domain set verified_at = null where id = ${aliasDomain.id}`.execute(db));
  await step('verification is back in the database', () => sql`update domain set verified_at = ${new Date().toISOString()} where id = ${aliasDomain.id}`.execute(db));
  await step('the alias domain now points at the other customer’s domain', () => sql`update alias_domain set target_domain_id = ${foreign.id} where id = ${mapping.id}`.execute(db));
  await step('the other customer is disabled', () => manage('user/update', { id: other.id, status: 'disabled' }));
  await step('the target domain changes hands', () => sql`update domain set owner_id = ${customer.id} where id = ${foreign.id}`.execute(db));
  await step('a domain’s flags are written by hand', () => sql`update domain set receives_mail = 1 - receives_mail`.execute(db));
  await step('the alias domain points back', () => sql`update alias_domain set target_domain_id = ${domain.id} where id = ${mapping.id}`.execute(db));
  await step('the alias domain mapping is deleted', () => sql`delete from alias_domain where id = ${mapping.id}`.execute(db));
  await step('the mapping is made again in the database', () =>
    sql`insert into alias_domain (owner_id, alias_domain_id, target_domain_id, active, created_at, updated_at) values (${customer.id}, ${aliasDomain.id}, ${domain.id}, 1, '2026-01-01', '2026-01-01')`.execute(db),
  );
  await step('the mailbox is deleted', () => manage('email/delete', { id: roomy.id }));
  await step('the target domain is deleted', () => sql`delete from domain where id = ${domain.id}`.execute(db));
  await step('the other customer is deleted', () => sql`delete from "user" where id = ${other.id}`.execute(db));
}, 120_000);

it('When the mail server looks anything up, then every lookup reads through indexes, on either database (EXPLAIN)', async () => {
  const { db, dialect } = t.services;
  for (const statement of seedStatements(dialect, 2000)) await sql.raw(statement).execute(db);
  await sql.raw('analyze').execute(db);
  const sample = (await sql.raw<{ alias_domain: string; domain: string }>(seededSampleSql(2000)).execute(db)).rows[0];
  for (const query of lookupQueries({ domain: sample.domain, aliasDomain: sample.alias_domain, mailbox: 'm', alias: 'a' }, dialect)) {
    const plan =
      dialect === 'postgres'
        ? await db.transaction().execute(async (trx) => {
            // Tables this small are read whole when the planner may; at scale it must not need to.
            await sql`set local enable_seqscan = off`.execute(trx);
            return (await sql.raw<{ 'QUERY PLAN': string }>(`explain (costs off) ${query.sql}`).execute(trx)).rows.map((r) => r['QUERY PLAN']);
          })
        : (await sql.raw<{ detail: string }>(`explain query plan ${query.sql}`).execute(db)).rows.map((r) => r.detail);
    expect(tableScans(dialect, plan), `${query.name}:\n${plan.join('\n')}`).toEqual([]);
  }
});
