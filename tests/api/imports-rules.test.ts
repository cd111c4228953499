/**
 * CSV imports' rules through the API, at their boundaries: a customer's file held against the
 * largest quota, a domain's max quota, the storage left and the domain's limits (operators are not
 * held to them); what is already here (a mailbox, an alias, a deleted mailbox still held); the runs,
 * their progress and the activity log; the export's file; who may call what; the weak hashes left;
 * and starting mail copies (mail-copy/): what is refused, the default ports, an old server without
 * TLS, and copies abandoned for a day.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { closedPort, operatorLogin, operatorWithRole, signUpCustomer, someIp, teamMemberOf } from '../helpers/fixtures.js';
import { GiB, MiB, mailFixtures } from '../helpers/mail-fixtures.js';
import { doveadmHash } from '../helpers/postfixadmin.js';

let t: TestApp;
let root: string;
let mail: ReturnType<typeof mailFixtures>;

beforeAll(async () => {
  // Mail copy set up, allowed to reach this machine only (the old servers below).
  t = await startTestApp({ MAIL_COPY_IMAP: `imap://127.0.0.1:${await closedPort()}`, MAIL_COPY_MASTER_USER: 'maildesk-copy', MAIL_COPY_MASTER_PASSWORD: 'master-password-1', SECRET_KEY: crypto.randomBytes(32).toString('base64'), MAIL_COPY_ALLOW_NETWORKS: '127.0.0.1/32' });
  root = await operatorLogin(t);
  mail = mailFixtures(t);
});
afterAll(() => t?.close());

const HEADER = 'type,address,name,password,password_hash,quota,active,destinations';
const csv = (...rows: string[]) => [HEADER, ...rows].join('\n');
const box = (address: string, quota = '', extra = '') => `mailbox,${address},,good-password-1,,${quota},${extra},`;
const errorsOf = (reply: { data: { errors: { line: number; column: string; message: string; params?: unknown }[] } }) => reply.data.errors;
const zeros = { domain: 0, alias_domain: 0, mailbox: 0, alias: 0, rules: 0 };

async function customerWith(capacity: number) {
  const customer = await signUpCustomer(t);
  await mail.grant(customer.id, capacity);
  return customer;
}
const dryRun = (token: string, text: string, area: 'admin' | 'manage' = 'admin') => t.post(`/api/${area}/imports/csv_dry_run`, { csv: text }, { token });

describe("a customer's file held against their limits (csv-import.ts)", () => {
  it("When a row's quota is the largest a mailbox may have, or its domain's max, then it is taken; a byte more is refused, and a blank quota is the largest; an operator is held to neither", async () => {
    const customer = await customerWith(10 * GiB);
    const free = await mail.activeDomain(customer);
    const capped = await mail.activeDomain(customer);
    expect((await t.post('/api/manage/domain/update', { id: capped.id, max_quota: 100 * MiB }, { token: root })).code).toBe(0);
    const file = csv(
      box(`q1@${free.name}`, String(GiB)),
      box(`q2@${free.name}`, String(GiB + 1)),
      box(`q3@${capped.name}`, '100M'),
      box(`q4@${capped.name}`, String(100 * MiB + 1)),
      box(`q5@${capped.name}`, '2G'),
      box(`q6@${capped.name}`),
    );
    const reply = await dryRun(customer.token, file);
    expect(errorsOf(reply)).toEqual([
      { line: 3, column: 'quota', message: 'validation.quota_above_storage_max', params: { max: GiB, max_text: '1 GiB' } },
      { line: 5, column: 'quota', message: 'validation.quota_above_domain_max', params: { max: 100 * MiB, max_text: '100 MiB' } },
      { line: 6, column: 'quota', message: 'validation.quota_above_storage_max', params: { max: GiB, max_text: '1 GiB' } },
      { line: 7, column: 'quota', message: 'validation.quota_above_domain_max', params: { max: 100 * MiB, max_text: '100 MiB' } },
    ]);
    expect(reply.data.report).toBeNull();
    expect(messageText('en', 'validation.quota_above_storage_max', { max_text: '1 GiB' })).toMatch(/^At most 1 GiB per mailbox/);
    expect(messageText('zh', 'validation.quota_above_domain_max', { max_text: '100 MiB' })).toMatch(/^该域名下每个邮箱最多 100 MiB/);
    const asOperator = await dryRun(root, file, 'manage');
    expect(asOperator.data).toMatchObject({ errors: [], report: { create: { ...zeros, mailbox: 6 }, capacity: [] } });
  });

  it('When the mailboxes of a file fill the storage left exactly, then they are taken; the line that goes past it is named once, with what is left', async () => {
    const customer = await customerWith(3 * MiB);
    const domain = await mail.activeDomain(customer);
    const at = (i: number) => `c${i}@${domain.name}`;
    expect(errorsOf(await dryRun(customer.token, csv(box(at(1), '1M'), box(at(2), '2M'))))).toEqual([]);
    // A row refused for its own quota takes none of the storage.
    expect(errorsOf(await dryRun(customer.token, csv(box(at(1), '2G'), box(at(2), '3M'))))).toEqual([{ line: 2, column: 'quota', message: 'validation.quota_above_storage_max', params: { max: GiB, max_text: '1 GiB' } }]);
    const capacity = { line: 3, column: 'quota', message: 'validation.csv_capacity', params: { available_text: '3 MiB' } };
    expect(errorsOf(await dryRun(customer.token, csv(box(at(1), '3M'), box(at(2), '1M'))))).toEqual([capacity]);
    const past = csv(box(at(1), '1M'), box(at(2), '3M'), box(at(3), '1M'));
    expect(errorsOf(await dryRun(customer.token, past))).toEqual([capacity]);
    expect(messageText('en', 'validation.csv_capacity', { available_text: '3 MiB' })).toBe('The mailboxes up to this line need more storage than you have left (3 MiB)');
    expect(messageText('zh', 'validation.csv_capacity', { available_text: '3 MiB' })).toBe('到此行为止的邮箱所需存储空间超过您剩余的容量（3 MiB）');
    // An operator sees the shortfall as a warning, naming the customer as people know them.
    const me = await t.post('/api/admin/me/info', {}, { token: customer.token });
    const asOperator = await dryRun(root, past, 'manage');
    expect(asOperator.data).toMatchObject({ errors: [], report: { create: { mailbox: 3 } } });
    expect(asOperator.data.report.capacity).toEqual([{ customer_id: customer.id, customer_email: customer.email, customer_name: me.data.username, shortfall: 2 * MiB }]);
    expect((await dryRun(root, csv(box(at(1), '1M'), box(at(2), '2M')), 'manage')).data.report.capacity).toEqual([]);
  });

  it("When a file goes past a domain's limit by two, then only the first line past it is named, among the file's other errors in line order; a limit of 0 is none", async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    expect((await t.post('/api/manage/domain/update', { id: domain.id, max_mailboxes: 1, max_aliases: 0 }, { token: root })).code).toBe(0);
    const alias = (local: string) => `alias,${local}@${domain.name},,,,,,someone@elsewhere.example`;
    const reply = await dryRun(customer.token, csv(alias('a1'), box(`m1@${domain.name}`, '1M'), `robot,r1@${domain.name},,,,,,`, box(`m2@${domain.name}`, '1M'), box(`m3@${domain.name}`, '1M'), alias('a2'), alias('a3'), `robot,r2@${domain.name},,,,,,`));
    expect(errorsOf(reply)).toEqual([
      { line: 4, column: 'type', message: 'validation.csv_type' },
      { line: 5, column: 'address', message: 'error.mailbox_limit', params: { limit: 1, smart_count: 1, domain: domain.name } },
      { line: 9, column: 'type', message: 'validation.csv_type' },
    ]);
    expect(messageText('en', 'error.mailbox_limit', { domain: domain.name, smart_count: 1 })).toBe(`The domain ${domain.name} may have at most 1 mailbox.`);
    expect(messageText('zh', 'error.alias_limit', { domain: domain.name, smart_count: 2 })).toBe(`域名 ${domain.name} 最多可以有 2 个别名。`);
  });

  it('When a domain is suspended, then its customer may not import into it and an operator may; a domain row names a domain of the caller, or is refused with its name', async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    const unknown = `u${crypto.randomBytes(4).toString('hex')}.example`;
    expect((await t.post('/api/manage/domain/update', { id: domain.id, status: 'suspended' }, { token: root })).code).toBe(0);
    const file = csv(`domain,${domain.name},,,,,,`, box(`s1@${domain.name}`, '1M'), `domain,${unknown},,,,,,`);
    expect(errorsOf(await dryRun(customer.token, file))).toEqual([
      { line: 2, column: 'address', message: 'validation.csv_domain_suspended', params: { domain: domain.name } },
      { line: 3, column: 'address', message: 'validation.csv_domain_suspended', params: { domain: domain.name } },
      { line: 4, column: 'address', message: 'validation.csv_domain_unknown', params: { domain: unknown } },
    ]);
    expect(messageText('zh', 'validation.csv_domain_suspended', { domain: 'a.example' })).toBe('域名 a.example 已停用');
    expect(messageText('en', 'validation.csv_domain_unknown', { domain: 'a.example' })).toBe('The domain a.example is not one of yours here');
    const asOperator = await dryRun(root, csv(`domain,${domain.name},,,,,,`, box(`s1@${domain.name}`, '1M')), 'manage');
    expect(asOperator.data).toMatchObject({ errors: [], report: { create: { ...zeros, mailbox: 1 } } });
  });
});

describe('what is already here (against-here.ts)', () => {
  it('When a file names a mailbox, an alias or a deleted mailbox already here, then each is a conflict on its line and only the rest would be made; the weak hashes it brings are counted by scheme', async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    const at = (local: string) => `${local}@${domain.name}`;
    await mail.mailbox(customer.token, domain.id, 'box');
    await mail.alias(customer.token, domain.id, at('box'), 'list');
    const gone = await mail.mailbox(customer.token, domain.id, 'gone');
    expect((await t.post('/api/admin/email/delete', { id: gone.id }, { token: customer.token })).code).toBe(0);
    const hashRow = (local: string, hash: string) => `mailbox,${at(local)},,,"${hash}",1M,,`;
    const file = csv(
      box(at('box'), '1M'),
      `alias,${at('list')},,,,,,x@elsewhere.example`,
      box(at('gone'), '1M'),
      box(at('new'), '1M'),
      hashRow('weak1', doveadmHash('MD5-CRYPT', 'old-md5crypt-pass')),
      hashRow('weak2', doveadmHash('SSHA512', 'old-ssha512-pass')),
      hashRow('weak3', doveadmHash('MD5-CRYPT', 'old-md5crypt-pass')),
      hashRow('strong', doveadmHash('ARGON2ID', 'old-argon2-pass')),
      `alias,${at('new-list')},,,,,,${at('new')}`,
    );
    const reply = await dryRun(customer.token, file);
    expect(reply.data.errors).toEqual([]);
    expect(reply.data.report).toEqual({
      create: { ...zeros, mailbox: 5, alias: 1 },
      conflicts: [
        { kind: 'mailbox', name: at('box'), reason: 'already_here', line: 2 },
        { kind: 'alias', name: at('list'), reason: 'already_here', line: 3 },
        { kind: 'mailbox', name: at('gone'), reason: 'held', line: 4 },
      ],
      not_carried: [],
      capacity: [],
      schemes: { 'MD5-CRYPT': 2, SSHA512: 1 },
    });
    // A mailbox where an alias is, and the other way round.
    const crossed = await dryRun(customer.token, csv(`alias,${at('box')},,,,,,x@elsewhere.example`, box(at('list'), '1M')));
    expect(crossed.data.report).toMatchObject({
      create: zeros,
      conflicts: [
        { kind: 'alias', name: at('box'), reason: 'mailbox_here', line: 2 },
        { kind: 'mailbox', name: at('list'), reason: 'alias_here', line: 3 },
      ],
      schemes: {},
    });
  });
});

describe('import runs (runs.ts)', () => {
  it("When a customer imports, then the run says whose it is and how far it got, the log has its start and its end, and an operator sees it", async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    const file = csv(box(`r1@${domain.name}`, '1M'), `alias,r2@${domain.name},,,,,,r1@${domain.name}`);
    const started = await t.post('/api/admin/imports/csv_start', { csv: file }, { token: customer.token, ip: '10.20.30.40' });
    expect(started.data).toMatchObject({ kind: 'csv', area: 'admin', owner_id: customer.id, source: 'csv', started_by: `customer:${customer.email}`, state: 'queued', total: 2, done: 0, created: zeros, error: null, finished_at: null });
    expect(started.data.report).toMatchObject({ create: { ...zeros, mailbox: 1, alias: 1 } });
    expect(started.data).not.toHaveProperty('items');
    await t.services.jobs.drain();
    const run = (await t.get('/api/admin/imports/get', { id: started.data.id }, { token: customer.token })).data;
    expect(run).toMatchObject({ state: 'done', total: 2, done: 2, created: { ...zeros, mailbox: 1, alias: 1 }, error: null, finished_at: expect.any(String) });
    const log = await t.post('/api/admin/log/list', { filter: { target_type: 'import' }, page_size: 10, sort: 'id', order: 'asc' }, { token: customer.token });
    expect(log.data.list.map((e: { action: string }) => e.action)).toEqual(['import_start', 'import']);
    expect(log.data.list[0]).toMatchObject({ user_id: customer.id, actor_type: 'customer', actor_name: customer.email, target_id: started.data.id, ip: '10.20.30.40', after: { kind: 'csv', source: 'csv', items: 2, create: { mailbox: 1, alias: 1 } } });
    expect(log.data.list[1]).toMatchObject({ user_id: customer.id, actor_type: 'customer', target_id: started.data.id, ip: '10.20.30.40', after: { kind: 'csv', source: 'csv', created: { mailbox: 1, alias: 1 } } });
    // Operators see every customer's runs.
    expect((await t.get('/api/manage/imports/get', { id: started.data.id }, { token: root })).data).toMatchObject({ id: started.data.id, owner_id: customer.id });
    expect((await t.get('/api/manage/imports/list', {}, { token: root })).data.list.map((r: { id: number }) => r.id)).toContain(started.data.id);
    // An operator's own run is no customer's.
    const operators = await t.post('/api/manage/imports/csv_start', { csv: csv(box(`r3@${domain.name}`, '1M')) }, { token: root });
    expect(operators.data).toMatchObject({ area: 'manage', owner_id: null, started_by: 'operator:root', total: 1 });
    await t.services.jobs.drain();
    expect((await t.get('/api/admin/imports/list', {}, { token: customer.token })).data.list.map((r: { id: number }) => r.id)).toEqual([started.data.id]);
  });

  it("When a team member imports, then they see their own runs and not the customer's; the customer sees both", async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    const member = await teamMemberOf(t, customer, { domain_ids: [domain.id] });
    const own = await t.post('/api/admin/imports/csv_start', { csv: csv(box(`o1@${domain.name}`, '1M')) }, { token: customer.token });
    const theirs = await t.post('/api/admin/imports/csv_start', { csv: csv(box(`o2@${domain.name}`, '1M')) }, { token: member.token });
    expect(theirs.data).toMatchObject({ owner_id: customer.id, started_by: `team_member:${member.email}` });
    await t.services.jobs.drain();
    expect((await t.get('/api/admin/imports/list', {}, { token: member.token })).data).toMatchObject({ total: 1, list: [{ id: theirs.data.id }] });
    expect(await t.get('/api/admin/imports/get', { id: own.data.id }, { token: member.token })).toMatchObject({ status: 404, code: 40400 });
    expect((await t.get('/api/admin/imports/get', { id: theirs.data.id }, { token: member.token })).data).toMatchObject({ state: 'done' });
    expect((await t.get('/api/admin/imports/list', {}, { token: customer.token })).data.list.map((r: { id: number }) => r.id)).toEqual([theirs.data.id, own.data.id]);
  });

  it('When a file brings 65 clear passwords (one past a hashing round of 64), then every mailbox opens with its own', async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    const rows = Array.from({ length: 65 }, (_, i) => `mailbox,p${i + 1}@${domain.name},,password-of-${i + 1},,1M,,`);
    const started = await t.post('/api/manage/imports/csv_start', { csv: csv(...rows) }, { token: root });
    expect(started.code).toBe(0);
    await t.services.jobs.drain();
    expect((await t.get('/api/manage/imports/get', { id: started.data.id }, { token: root })).data).toMatchObject({ state: 'done', created: { mailbox: 65 } });
    // The clear passwords left the run when they were hashed.
    const kept = await t.services.db.selectFrom('import_run').select('items').where('id', '=', started.data.id).executeTakeFirstOrThrow();
    expect(kept.items).not.toContain('password-of-');
    for (const i of [1, 64, 65]) {
      const login = await t.post('/api/mail/login/login', { email: `p${i}@${domain.name}`, password: `password-of-${i}` }, { ip: someIp() });
      expect({ i, code: login.code }).toEqual({ i, code: 0 });
    }
  });

  it('When a customer has started 51 runs, then the list shows the newest 50, newest first', async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    await mail.alias(customer.token, domain.id, 'x@elsewhere.example', 'here');
    // Everything in it is here already: a run of nothing, quick to start.
    const file = csv(`alias,here@${domain.name},,,,,,x@elsewhere.example`);
    const ids: number[] = [];
    for (let i = 0; i < 51; i++) ids.push((await t.post('/api/admin/imports/csv_start', { csv: file }, { token: customer.token })).data.id);
    const list = (await t.get('/api/admin/imports/list', {}, { token: customer.token })).data;
    expect(list.total).toBe(50);
    expect(list.list.map((r: { id: number }) => r.id)).toEqual(ids.slice(1).reverse());
    await t.services.jobs.drain();
  });
});

describe('the CSV export (csv-export.ts)', () => {
  it('When a customer exports, then the file is named by the day, never cached, and lists their domains, then mailboxes and aliases by address, with names a spreadsheet would run written as text', async () => {
    const customer = await customerWith(GiB);
    const first = await mail.activeDomain(customer, `a${crypto.randomBytes(4).toString('hex')}.example`);
    const second = await mail.activeDomain(customer, `b${crypto.randomBytes(4).toString('hex')}.example`);
    const names: [string, string][] = [['plus', '+1 555'], ['minus', '-minus'], ['at', '@home'], ['plain', 'Plain Name'], ['inner', 'O=Brien']];
    for (const [local, name] of names) await mail.mailbox(customer.token, first.id, local, { name, quota: 2 * MiB });
    await mail.alias(customer.token, first.id, [`plain@${first.name}`, `at@${first.name}`], 'team');
    const catchAll = await t.post('/api/admin/alias/create', { domain_id: second.id, local_part: '', goto: `plain@${first.name}` }, { token: customer.token });
    expect(catchAll.code, JSON.stringify(catchAll)).toBe(0);
    expect((await t.post('/api/admin/alias/update', { id: catchAll.data.id, active: 0 }, { token: customer.token })).code).toBe(0);

    const reply = await t.get('/api/admin/imports/csv_export', {}, { token: customer.token });
    expect(reply.status).toBe(200);
    expect(reply.headers).toMatchObject({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="maildesk-export-${new Date().toISOString().slice(0, 10)}.csv"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
    const lines = Buffer.from(reply.data as unknown as Buffer).toString('utf8').trimEnd().split('\n');
    expect(lines).toEqual([
      HEADER,
      `domain,${first.name},,,,,,`,
      `domain,${second.name},,,,,,`,
      `mailbox,at@${first.name},'@home,,,${2 * MiB},1,`,
      `mailbox,inner@${first.name},O=Brien,,,${2 * MiB},1,`,
      `mailbox,minus@${first.name},'-minus,,,${2 * MiB},1,`,
      `mailbox,plain@${first.name},Plain Name,,,${2 * MiB},1,`,
      `mailbox,plus@${first.name},'+1 555,,,${2 * MiB},1,`,
      // Aliases by address: a catch-all's "@" comes before any letter.
      `alias,@${second.name},,,,,0,plain@${first.name}`,
      `alias,team@${first.name},,,,,1,plain@${first.name} at@${first.name}`,
    ]);
    const template = await t.get('/api/admin/imports/csv_template', {}, { token: customer.token });
    expect(template.headers).toMatchObject({ 'content-disposition': 'attachment; filename="maildesk-import-template.csv"', 'cache-control': 'private, no-store' });
    expect(Buffer.from(template.data as unknown as Buffer).toString('utf8').trimEnd().split('\n')).toEqual([
      HEADER,
      'mailbox,anna@example.org,Anna,a-new-password-1,,1G,1,',
      'mailbox,ben@example.org,Ben,,{SHA512-CRYPT}$6$salt$…,500M,1,',
      'alias,sales@example.org,,,,,1,anna@example.org ben@example.org',
      'alias,@example.org,,,,,1,anna@example.org',
    ]);
  });

  it("When a team member exports, then only their domains are in it (none: only the heading); an operator without a customer gets every customer's", async () => {
    const customer = await customerWith(GiB);
    const mine = await mail.activeDomain(customer);
    const notMine = await mail.activeDomain(customer);
    const member = await teamMemberOf(t, customer, { domain_ids: [mine.id] });
    const nobody = await teamMemberOf(t, customer, { domain_ids: [] });
    const text = async (token: string, area = 'admin', query = {}) => Buffer.from((await t.get(`/api/${area}/imports/csv_export`, query, { token })).data as unknown as Buffer).toString('utf8');
    expect(await text(member.token)).toContain(`domain,${mine.name}`);
    expect(await text(member.token)).not.toContain(notMine.name);
    expect((await text(nobody.token)).trimEnd()).toBe(HEADER);
    const other = await customerWith(GiB);
    const theirs = await mail.activeDomain(other);
    const all = await text(root, 'manage');
    for (const name of [mine.name, notMine.name, theirs.name]) expect(all).toContain(`domain,${name}`);
    const one = await text(root, 'manage', { customer_id: other.id });
    expect(one.trimEnd().split('\n')).toEqual([HEADER, `domain,${theirs.name},,,,,,`]);
  });
});

describe('who may import (import-calls.ts)', () => {
  it('When a billing operator calls, then they may follow runs, read the template and the weak hashes, but not check, start or export a file; support may not read a PostfixAdmin database', async () => {
    const billing = await operatorWithRole(t, 'billing');
    const support = await operatorWithRole(t, 'support');
    const file = csv(box(`x@unknown-${crypto.randomBytes(3).toString('hex')}.example`, '1M'));
    const anyRun = (await t.post('/api/manage/imports/csv_start', { csv: csv(`domain,${(await mail.activeDomain(await customerWith(GiB))).name},,,,,,`) }, { token: root })).data.id;
    for (const [path, query] of [['/api/manage/imports/list', {}], ['/api/manage/imports/get', { id: anyRun }], ['/api/manage/imports/csv_template', {}], ['/api/manage/imports/weak_hashes', {}]] as const) {
      expect((await t.get(path, query, { token: billing.token })).status, path).toBe(200);
    }
    expect(await t.post('/api/manage/imports/csv_dry_run', { csv: file }, { token: billing.token })).toMatchObject({ status: 403, code: 40300 });
    expect(await t.post('/api/manage/imports/csv_start', { csv: file }, { token: billing.token })).toMatchObject({ status: 403, code: 40300 });
    expect(await t.get('/api/manage/imports/csv_export', {}, { token: billing.token })).toMatchObject({ status: 403, code: 40300 });
    expect((await t.post('/api/manage/imports/csv_dry_run', { csv: file }, { token: support.token })).code).toBe(0);
    expect((await t.get('/api/manage/imports/csv_export', {}, { token: support.token })).status).toBe(200);
    const source = 'mysql://nobody@127.0.0.1:1/none';
    for (const path of ['/api/manage/imports/postfixadmin/inspect', '/api/manage/imports/postfixadmin/dry_run', '/api/manage/imports/postfixadmin/start']) {
      expect(await t.post(path, { source, mapping: [] }, { token: support.token }), path).toMatchObject({ status: 403, code: 40300 });
    }
    await t.services.jobs.drain();
  });

  it('When a PostfixAdmin source is 2,000 characters and its mapping 10,000 domains, then they are taken (and the server is tried); one more of either is refused unread', async () => {
    const sourceOf = (length: number) => { const head = 'mysql://pfa@127.0.0.1:1/'; return head + 'd'.repeat(length - head.length); };
    const mapping = (n: number) => Array.from({ length: n }, (_, i) => ({ domain: `m${i}.example`, customer_id: null }));
    const tried = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: sourceOf(2000), mapping: mapping(10_000) }, { token: root });
    expect(tried).toMatchObject({ status: 400, code: 40000, message: 'error.import_source_unreachable' });
    const longSource = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: sourceOf(2001), mapping: [] }, { token: root });
    expect(longSource).toMatchObject({ status: 400, code: 40000, errors: { source: { message: 'validation.too_long' } } });
    const longMapping = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: sourceOf(100), mapping: mapping(10_001) }, { token: root });
    expect(longMapping).toMatchObject({ status: 400, code: 40000, errors: { mapping: { message: 'validation.too_many' } } });
  });

  it('When a body carries more than the file, or an empty file, then it is refused before it is read', async () => {
    const customer = await customerWith(GiB);
    expect(await t.post('/api/admin/imports/csv_dry_run', { csv: HEADER, extra: 1 }, { token: customer.token })).toMatchObject({ status: 400, code: 40000 });
    expect(await t.post('/api/admin/imports/csv_start', { csv: '' }, { token: customer.token })).toMatchObject({ status: 400, code: 40000 });
    expect(await t.post('/api/admin/imports/csv_dry_run', { csv: HEADER }, { token: customer.token })).toMatchObject({ code: 0, data: { errors: [{ line: 1, message: 'validation.csv_empty' }], report: null } });
  });
});

describe('what is made, and the weak hashes left (apply.ts, weak-hashes.ts)', () => {
  it('When hashes of weaker schemes and inactive records are imported into a domain with a Unicode name, then they are stored so, and the weak hashes are counted by scheme, most first', async () => {
    const customer = await customerWith(GiB);
    const name = `bücher-${crypto.randomBytes(3).toString('hex')}.example`;
    const domain = await mail.activeDomain(customer, name);
    const ascii = domain.name as string;
    expect(ascii).toMatch(/^xn--/);
    const file = csv(
      `mailbox,md5a@${ascii},,,${doveadmHash('MD5-CRYPT', 'old-md5crypt-pass')},1M,0,`,
      `mailbox,md5b@${ascii},,,${doveadmHash('MD5-CRYPT', 'old-md5crypt-pass')},1M,1,`,
      `mailbox,ssha@${ascii},,,${doveadmHash('SSHA512', 'old-ssha512-pass')},1M,1,`,
      `mailbox,strong@${ascii},,,"${doveadmHash('ARGON2ID', 'old-argon2-pass')}",1M,1,`,
      `alias,off@${ascii},,,,,0,md5b@${ascii}`,
      `alias,@${ascii},,,,,1,md5b@${ascii}`,
    );
    const started = await t.post('/api/admin/imports/csv_start', { csv: file }, { token: customer.token });
    expect(started.code, JSON.stringify(started.errors)).toBe(0);
    await t.services.jobs.drain();
    const boxes = (await t.post('/api/admin/email/list', { filter: { domain_id: domain.id }, page_size: 10, sort: 'address', order: 'asc' }, { token: customer.token })).data.list;
    expect(boxes.map((b: { address: string; address_unicode: string; active: number }) => [b.address, b.address_unicode, b.active])).toEqual([
      [`md5a@${ascii}`, `md5a@${name}`, 0],
      [`md5b@${ascii}`, `md5b@${name}`, 1],
      [`ssha@${ascii}`, `ssha@${name}`, 1],
      [`strong@${ascii}`, `strong@${name}`, 1],
    ]);
    const aliases = (await t.get('/api/admin/alias/list', { filter: { domain_id: domain.id }, sort: 'address', order: 'asc' }, { token: customer.token })).data.list;
    expect(aliases.map((a: { address: string; address_unicode: string; active: number }) => [a.address, a.address_unicode, a.active])).toEqual([
      [`@${ascii}`, `@${name}`, 1],
      [`off@${ascii}`, `off@${name}`, 0],
    ]);
    expect((await t.get('/api/manage/imports/weak_hashes', {}, { token: root })).data).toEqual({ total: 3, schemes: [{ scheme: 'MD5-CRYPT', count: 2 }, { scheme: 'SSHA512', count: 1 }] });
    // The old password opens the mailbox, and the hash becomes argon2id.
    expect((await t.post('/api/mail/login/login', { email: `ssha@${ascii}`, password: 'old-ssha512-pass' }, { ip: someIp() })).code).toBe(0);
    expect((await t.get('/api/manage/imports/weak_hashes', {}, { token: root })).data).toEqual({ total: 2, schemes: [{ scheme: 'MD5-CRYPT', count: 2 }] });
  });
});


describe('starting mail copies (mail-copy/)', () => {
  const PASSWORD = `old-${crypto.randomBytes(6).toString('hex')}`;
  const server = (port: number) => ({ source_host: '127.0.0.1', source_port: port, source_tls: 'starttls' });

  it('When a copy is started without a port, then it is 993 with TLS and 143 with STARTTLS; the log records the start without the password', async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    const [one, two] = [await mail.mailbox(customer.token, domain.id), await mail.mailbox(customer.token, domain.id)];
    const tls = await t.post('/api/admin/mail_copy/create', { mailbox_id: one.id, source_host: '127.0.0.1', source_tls: 'tls', source_user: 'anna', password: PASSWORD }, { token: customer.token });
    expect(tls.data).toMatchObject({ source_port: 993, source_tls: 'tls', started_by: `customer:${customer.email}` });
    const starttls = await t.post('/api/admin/mail_copy/create', { mailbox_id: two.id, source_host: '127.0.0.1', source_tls: 'starttls', source_user: 'ben', password: PASSWORD }, { token: customer.token });
    expect(starttls.data).toMatchObject({ source_port: 143, source_tls: 'starttls' });
    const log = await t.post('/api/admin/log/list', { filter: { action: 'mail_copy.create' }, page_size: 10, sort: 'id', order: 'asc' }, { token: customer.token });
    expect(log.data.list).toMatchObject([
      { user_id: customer.id, target_type: 'mail_copy', target_id: tls.data.id, after: { address: one.address, source_host: '127.0.0.1', source_port: 993, source_user: 'anna', state: 'queued' } },
      { target_id: starttls.data.id, after: { address: two.address, source_port: 143, source_user: 'ben' } },
    ]);
    expect(JSON.stringify(log.data)).not.toContain(PASSWORD);
    await t.services.jobs.drain();
  });

  it('When copies are asked for wrongly (a mailbox twice, a host with no address, neither a pattern nor accounts, half a pattern, a pattern naming nothing, a domain without active mailboxes), then a 40000 names the field and nothing starts', async () => {
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    const boxOne = await mail.mailbox(customer.token, domain.id);
    const empty = await mail.activeDomain(customer);
    const port = await closedPort();
    const fieldOf = async (path: string, body: Record<string, unknown>) => {
      const reply = await t.post(`/api/admin/mail_copy/${path}`, body, { token: customer.token });
      expect(reply, JSON.stringify(body)).toMatchObject({ status: 400, code: 40000 });
      return reply.errors;
    };
    const account = { mailbox_id: boxOne.id, source_user: 'x', password: PASSWORD };
    expect(await fieldOf('create_for_domain', { domain_id: domain.id, ...server(port), accounts: [account, { ...account, source_user: 'y' }] })).toEqual({ accounts: { message: 'validation.mail_copy_mailbox_twice' } });
    expect(await fieldOf('create', { mailbox_id: boxOne.id, ...server(port), source_host: 'no-such-host.invalid', source_user: 'x', password: PASSWORD })).toEqual({ source_host: { message: 'validation.mail_copy_host_unknown' } });
    expect(await fieldOf('create_for_domain', { domain_id: domain.id, ...server(port) })).toMatchObject({ accounts: { message: 'validation.mail_copy_pattern_or_accounts' } });
    expect(await fieldOf('create_for_domain', { domain_id: domain.id, ...server(port), user_pattern: '%e' })).toMatchObject({ password: { message: 'validation.required' } });
    expect(await fieldOf('create_for_domain', { domain_id: domain.id, ...server(port), password: PASSWORD })).toMatchObject({ user_pattern: { message: 'validation.required' } });
    expect(await fieldOf('create_for_domain', { domain_id: domain.id, ...server(port), user_pattern: 'admin', password: PASSWORD })).toMatchObject({ user_pattern: { message: 'validation.mail_copy_user_pattern' } });
    expect(await fieldOf('create_for_domain', { domain_id: empty.id, ...server(port), user_pattern: '%u', password: PASSWORD })).toEqual({ domain_id: { message: 'validation.mail_copy_no_mailboxes' } });
    expect(messageText('en', 'validation.mail_copy_no_mailboxes')).not.toBe('validation.mail_copy_no_mailboxes');
    expect(messageText('zh', 'validation.mail_copy_mailbox_twice')).not.toBe('validation.mail_copy_mailbox_twice');
    expect((await t.get('/api/admin/mail_copy/list', {}, { token: customer.token })).data.total).toBe(0);
  });

  it('When the old server offers no STARTTLS, then the copy ends at once saying so, with the server\'s words, and its password is gone', async () => {
    const sockets = new Set<net.Socket>();
    const plain = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] Old server ready\r\n');
      socket.on('data', (chunk) => {
        for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
          const [tag, command] = line.split(' ');
          if (/^capability$/i.test(command)) socket.write(`* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n${tag} OK done\r\n`);
          else socket.write(`${tag} BAD not here\r\n`);
        }
      });
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const customer = await customerWith(GiB);
      const domain = await mail.activeDomain(customer);
      const target = await mail.mailbox(customer.token, domain.id);
      const started = await t.post('/api/admin/mail_copy/create', { mailbox_id: target.id, ...server((plain.address() as net.AddressInfo).port), source_user: 'anna', password: PASSWORD }, { token: customer.token });
      expect(started.code).toBe(0);
      await t.services.jobs.drain();
      const ended = await t.get('/api/admin/mail_copy/get', { id: started.data.id }, { token: customer.token });
      expect(ended.data).toMatchObject({ state: 'failed', error: 'error.mail_copy_no_tls', error_detail: expect.stringMatching(/STARTTLS/i), finished_at: expect.any(String) });
      expect(await t.services.db.selectFrom('mail_copy_secret').select('copy_id').where('copy_id', '=', started.data.id).executeTakeFirst()).toBeUndefined();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('When a copy has not moved for a day, then the hourly housekeeping ends it as interrupted and deletes its password; one that moved within the day goes on', async () => {
    // An old server that takes the connection and never greets: the copies wait on it.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket.on('error', () => undefined)));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const customer = await customerWith(GiB);
    const domain = await mail.activeDomain(customer);
    const [old, recent] = [await mail.mailbox(customer.token, domain.id), await mail.mailbox(customer.token, domain.id)];
    const start = (mailbox_id: number) => t.post('/api/admin/mail_copy/create', { mailbox_id, ...server((silent.address() as net.AddressInfo).port), source_user: 'x', password: PASSWORD }, { token: customer.token });
    const state = async (id: number) => t.services.db.selectFrom('mail_copy').select(['state', 'error']).where('id', '=', id).executeTakeFirstOrThrow();
    const secret = (id: number) => t.services.db.selectFrom('mail_copy_secret').select('copy_id').where('copy_id', '=', id).executeTakeFirst();
    try {
      const first = (await start(old.id)).data;
      await t.moveClock(3600_000);
      const second = (await start(recent.id)).data;
      // The first a day and a minute old, the second a minute short of a day.
      await t.moveClock(24 * 3600_000 - 3600_000 + 60_000);
      expect(await state(first.id)).toEqual({ state: 'queued', error: null });
      await t.services.jobs.runSchedule('housekeeping');
      expect(await state(first.id)).toEqual({ state: 'failed', error: 'error.mail_copy_interrupted' });
      expect(await secret(first.id)).toBeUndefined();
      expect(await state(second.id)).toEqual({ state: 'queued', error: null });
      expect(await secret(second.id)).toBeDefined();
    } finally {
      t.resetClock();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
    await t.services.jobs.drain();
  });
});
