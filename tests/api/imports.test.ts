/**
 * Moving in through the API: a real PostfixAdmin 3.3 database (on MariaDB and on PostgreSQL)
 * with PostfixAdmin's own hash formats, looked at, dry-run and imported by an operator, then
 * imported again; CSV files checked, refused whole, imported, exported and imported back.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverMessages } from '../../resources/messages.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, someIp, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, MiB, mailFixtures } from '../helpers/mail-fixtures.js';
import { maildeskCommand } from '../helpers/installation.js';
import { freshPostfixAdmin, postfixAdminHashes, type SourceKind } from '../helpers/postfixadmin.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const hashes = postfixAdminHashes();

async function finished(t: TestApp, token: string, id: number, area: 'admin' | 'manage' = 'manage') {
  await t.services.jobs.drain();
  const run = await t.get(`/api/${area}/imports/get`, { id }, { token });
  expect(run.data).toMatchObject({ state: 'done' });
  return run.data;
}

describe.each(['mariadb', 'postgres'] as SourceKind[])('A PostfixAdmin installation on %s', (kind) => {
  let t: TestApp;
  let source: Awaited<ReturnType<typeof freshPostfixAdmin>>;
  let root: string;
  let a: CustomerSession;
  let b: CustomerSession;
  const sfx = crypto.randomBytes(3).toString('hex');
  const d = { a: `a${sfx}.example`, b: `b${sfx}.example`, c: `c${sfx}.example`, taken: `t${sfx}.example`, backup: `x${sfx}.example`, alias: `al${sfx}.example`, unchosen: `u${sfx}.example` };
  const shared = hashes[0].stored;

  beforeAll(async () => {
    t = await startTestApp();
    root = await operatorLogin(t);
    const mail = mailFixtures(t);
    [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
    await mail.grant(a.id, 20 * GiB);
    await mail.grant(b.id, 20 * GiB);
    // Already here: B's domain c with the mailbox here@c, and B's domain "taken".
    const c = await mail.activeDomain(b, d.c);
    await mail.mailbox(b.token, c.id, 'here');
    await mail.activeDomain(b, d.taken);
    source = await freshPostfixAdmin(kind);
    await source.fill({
      domains: [{ domain: 'ALL' }, { domain: d.a, mailboxes: 50, maxquota: 2048 }, { domain: d.b }, { domain: d.c }, { domain: d.taken }, { domain: d.backup, backupmx: 1 }, { domain: d.alias }, { domain: d.unchosen }],
      mailboxes: [
        ...hashes.map((h) => ({ username: `${h.local}@${d.a}`, password: h.stored, name: `Old ${h.local}`, quota: 200 * MiB })),
        { username: `nolimit@${d.b}`, password: shared, quota: 0 },
        { username: `odd@${d.b}`, password: 'not-a-hash-of-any-kind' },
        { username: `here@${d.c}`, password: shared, quota: MiB * 10 },
        { username: `new@${d.c}`, password: shared, quota: MiB * 10 },
        { username: `someone@${d.taken}`, password: shared, quota: MiB * 10 },
        { username: `left@${d.unchosen}`, password: shared, quota: MiB * 10 },
      ],
      aliases: [
        { address: `info@${d.a}`, goto: `md5crypt@${d.a},ext@elsewhere.org` },
        { address: `@${d.b}`, goto: `sha512@${d.a}` },
        { address: `sha256@${d.a}`, goto: `sha256@${d.a},outside@elsewhere.org` },
        { address: `md5crypt@${d.a}`, goto: `md5crypt@${d.a},md5crypt#${d.a}@autoreply.${d.a}` },
      ],
      aliasDomains: [{ alias_domain: d.alias, target_domain: d.a }],
      vacations: [{ email: `md5crypt@${d.a}`, subject: 'Away', body: 'Back on Monday.' }],
    });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const mapping = () => [
    { domain: d.a, customer_id: a.id },
    { domain: d.b, customer_id: a.id },
    { domain: d.alias, customer_id: a.id },
    { domain: d.c, customer_id: b.id },
    { domain: d.taken, customer_id: a.id },
    { domain: d.backup, customer_id: a.id },
    { domain: d.unchosen, customer_id: null },
  ];

  it('When the operator looks at the source, then its domains are listed with their mailboxes and aliases, and the password is shown nowhere', async () => {
    const reply = await t.post('/api/manage/imports/postfixadmin/inspect', { source: source.url }, { token: root });
    expect(reply.code).toBe(0);
    expect(reply.data.source).not.toContain('pfa-read-only');
    expect(reply.data.domains).toContainEqual(expect.objectContaining({ name: d.a, mailboxes: hashes.length, aliases: hashes.length + 1 }));
    expect(reply.data.domains.find((x: { name: string }) => x.name === d.backup).backup_mx).toBe(true);
    const wrong = await t.post('/api/manage/imports/postfixadmin/inspect', { source: source.url.replace('pfa-read-only', 'wrong-password').replace(/\/[^/]+$/, '/no_such_database') }, { token: root });
    // In our words (MariaDB refuses the password; the test PostgreSQL trusts local users and misses the database).
    expect(wrong).toMatchObject({ status: 400, code: 40000, message: kind === 'mariadb' ? 'error.import_source_login_refused' : 'error.import_source_no_database' });
    expect(JSON.stringify(wrong)).not.toContain('wrong-password');
  });

  it('When the dry run is asked, then it lists what would be created, every conflict and what is not carried, and changes nothing', async () => {
    const before = await t.post('/api/manage/email/list', { page_size: 1 }, { token: root });
    const reply = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: source.url, mapping: mapping() }, { token: root });
    expect(reply.code).toBe(0);
    const report = reply.data.report;
    expect(report.create).toEqual({ domain: 3, alias_domain: 1, mailbox: hashes.length + 2, alias: 2, rules: 2 });
    expect(report.conflicts).toEqual(
      expect.arrayContaining([
        { kind: 'mailbox', name: `here@${d.c}`, reason: 'already_here' },
        { kind: 'domain', name: d.taken, reason: 'domain_of_other_customer' },
        { kind: 'mailbox', name: `someone@${d.taken}`, reason: 'domain_skipped' },
      ]),
    );
    expect(report.conflicts).toHaveLength(3);
    expect(report.not_carried).toEqual(
      expect.arrayContaining([
        { kind: 'domain', name: d.backup, reason: 'backup_mx' },
        { kind: 'domain', name: d.unchosen, reason: 'not_chosen' },
        { kind: 'mailbox', name: `odd@${d.b}`, reason: 'unknown_hash' },
        { kind: 'quota', name: `nolimit@${d.b}`, reason: 'unlimited_quota' },
      ]),
    );
    expect(report.schemes).toEqual({ 'MD5-CRYPT': 3, 'SHA512-CRYPT': 2, 'SHA256-CRYPT': 1, 'BLF-CRYPT': 1, SSHA512: 1, 'PLAIN-MD5': 1 });
    expect(report.domains.find((x: { name: string }) => x.name === d.c)).toMatchObject({ customer_id: b.id, action: 'exists' });
    expect((await t.post('/api/manage/email/list', { page_size: 1 }, { token: root })).data.total).toBe(before.data.total);
    // A customer that is not one is refused before anything is read.
    const wrong = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: source.url, mapping: [{ domain: d.a, customer_id: 999_999 }] }, { token: root });
    expect(wrong).toMatchObject({ status: 400, code: 40000 });
  });

  it('When imported, then every mailbox takes its old password, the aliases, catch-all, alias domain, forwarding and out-of-office are there; a second import changes nothing', async () => {
    const started = await t.post('/api/manage/imports/postfixadmin/start', { source: source.url, mapping: mapping() }, { token: root });
    expect(started).toMatchObject({ code: 0, data: { state: 'queued', done: 0 } });
    const run = await finished(t, root, started.data.id);
    expect(run).toMatchObject({ done: run.total, created: { domain: 3, alias_domain: 1, mailbox: hashes.length + 2, alias: 2, rules: 2 } });

    // The weak hashes are there by scheme, with their prefix, before anyone signs in.
    const weak = await t.get('/api/manage/imports/weak_hashes', {}, { token: root });
    expect(weak.data.schemes).toEqual(expect.arrayContaining([{ scheme: 'MD5-CRYPT', count: 3 }, { scheme: 'PLAIN-MD5', count: 1 }, { scheme: 'SSHA512', count: 1 }]));
    const weakBefore = weak.data.total;

    for (const h of hashes) {
      const login = await t.post('/api/mail/login/login', { email: `${h.local}@${d.a}`, password: h.password }, { ip: someIp() });
      expect({ who: h.local, code: login.code }).toEqual({ who: h.local, code: 0 });
    }
    // Each sign-in replaced a weaker hash with argon2id.
    const weakAfter = await t.get('/api/manage/imports/weak_hashes', {}, { token: root });
    expect(weakAfter.data.total).toBe(weakBefore - hashes.filter((h) => h.scheme !== 'ARGON2ID').length);
    const boxes = await t.services.db.selectFrom('mailbox').select(['address', 'password_hash', 'quota', 'name', 'owner_id']).where('address', 'like', `%@${d.a}`).execute();
    expect(boxes.every((m) => m.password_hash.startsWith('{ARGON2ID}'))).toBe(true);
    expect(boxes.find((m) => m.address === `md5crypt@${d.a}`)).toMatchObject({ quota: 200 * MiB, name: 'Old md5crypt', owner_id: a.id });
    const nolimit = await t.services.db.selectFrom('mailbox').select(['quota', 'password_hash']).where('address', '=', `nolimit@${d.b}`).executeTakeFirstOrThrow();
    expect(nolimit.password_hash).toMatch(/^\{MD5-CRYPT\}\$1\$/);

    const aliases = await t.get('/api/manage/alias/list', { page_size: '100' }, { token: root });
    const byAddress = Object.fromEntries(aliases.data.list.map((x: { address: string; goto: string }) => [x.address, x.goto]));
    expect(byAddress[`info@${d.a}`]).toBe(`md5crypt@${d.a},ext@elsewhere.org`);
    expect(byAddress[`@${d.b}`]).toBe(`sha512@${d.a}`);
    expect(byAddress[`md5crypt@${d.a}`]).toBeUndefined();
    const domains = await t.post('/api/manage/domain/list', { page_size: 100 }, { token: root });
    const domainA = domains.data.list.find((x: { name: string }) => x.name === d.a);
    expect(domainA).toMatchObject({ owner_id: a.id, status: 'active', max_mailboxes: 50, max_quota: 2048 * MiB });
    const aliasDomains = await t.get('/api/manage/alias_domain/list', { page_size: '100' }, { token: root });
    expect(aliasDomains.data.total).toBe(1);

    const rules = async (local: string) => {
      const box = boxes.find((m) => m.address === `${local}@${d.a}`)!;
      const id = Number((await t.services.db.selectFrom('mailbox').select('id').where('address', '=', box.address).executeTakeFirstOrThrow()).id);
      return t.services.db.selectFrom('mailbox_rule').selectAll().where('mailbox_id', '=', id).executeTakeFirst();
    };
    expect(await rules('md5crypt')).toMatchObject({ out_of_office: 1, ooo_subject: 'Away', ooo_body: 'Back on Monday.', ooo_interval_days: 1, forwarding: 0 });
    expect(await rules('sha256')).toMatchObject({ out_of_office: 0, forwarding: 1, forward_to: JSON.stringify(['outside@elsewhere.org']), forward_keep_copy: 1 });

    // Customer A sees its new mailboxes; B keeps here@c as it was, and got new@c.
    const listA = await t.post('/api/admin/email/list', { page_size: 100 }, { token: a.token });
    expect(listA.data.total).toBe(hashes.length + 1);
    const listB = await t.post('/api/admin/email/list', { page_size: 100 }, { token: b.token });
    expect(listB.data.list.map((m: { address: string }) => m.address).sort()).toEqual([`here@${d.c}`, `new@${d.c}`]);

    // Again: the dry run finds everything here, and a second run creates nothing.
    const again = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: source.url, mapping: mapping() }, { token: root });
    expect(again.data.report.create).toEqual({ domain: 0, alias_domain: 0, mailbox: 0, alias: 0, rules: 0 });
    const second = await t.post('/api/manage/imports/postfixadmin/start', { source: source.url, mapping: mapping() }, { token: root });
    const secondRun = await finished(t, root, second.data.id);
    expect(secondRun.created).toEqual({ domain: 0, alias_domain: 0, mailbox: 0, alias: 0, rules: 0 });
    expect((await t.post('/api/admin/email/list', { page_size: 100 }, { token: a.token })).data.total).toBe(hashes.length + 1);
    expect((await t.services.db.selectFrom('mailbox').select('password_hash').where('address', '=', `md5crypt@${d.a}`).executeTakeFirstOrThrow()).password_hash).toMatch(/^\{ARGON2ID\}/);
    // The runs are listed; the log names the operator who imported.
    const runs = await t.get('/api/manage/imports/list', {}, { token: root });
    expect(runs.data.list.slice(0, 2).map((r: { id: number }) => r.id)).toEqual([second.data.id, started.data.id]);
    expect(JSON.stringify(runs.data)).not.toContain('pfa-read-only');
  });
});

describe.each(['mariadb', 'postgres'] as SourceKind[])('A PostfixAdmin installation\'s vacations and forwarding, on %s', (kind) => {
  let t: TestApp;
  let source: Awaited<ReturnType<typeof freshPostfixAdmin>>;
  let root: string;
  let owner: CustomerSession;
  const domain = `v${crypto.randomBytes(3).toString('hex')}.example`;
  beforeAll(async () => {
    t = await startTestApp();
    root = await operatorLogin(t);
    owner = await signUpCustomer(t);
    await mailFixtures(t).grant(owner.id, GiB);
    source = await freshPostfixAdmin(kind);
    const box = (local: string) => ({ username: `${local}@${domain}`, password: hashes[0].stored, quota: 10 * MiB });
    await source.fill({
      domains: [{ domain }],
      mailboxes: [box('away'), box('back'), box('onward'), box('both')],
      aliases: [
        // A mailbox's own row: itself and others is forwarding with a copy kept; others alone, forwarding without.
        { address: `onward@${domain}`, goto: `next@elsewhere.example` },
        { address: `both@${domain}`, goto: `both@${domain},next@elsewhere.example` },
      ],
      vacations: [
        { email: `away@${domain}`, subject: 'Away', body: 'Back in May.', active: 1 },
        { email: `back@${domain}`, subject: 'Away', body: 'Back in May.', active: 0 },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  it('When imported, then an active vacation is an out-of-office that is on and an inactive one is off; forwarding keeps a copy only where the mailbox was among its own row\'s destinations', async () => {
    const started = await t.post('/api/manage/imports/postfixadmin/start', { source: source.url, mapping: [{ domain, customer_id: owner.id }] }, { token: root });
    expect(started.code).toBe(0);
    await finished(t, root, started.data.id);
    const rules = async (local: string) => {
      const { id } = await t.services.db.selectFrom('mailbox').select('id').where('address', '=', `${local}@${domain}`).executeTakeFirstOrThrow();
      return (await t.get('/api/manage/email/rules', { id: Number(id) }, { token: root })).data;
    };
    expect(await rules('away')).toMatchObject({ out_of_office: { enabled: true, subject: 'Away', body: 'Back in May.' }, forwarding: { enabled: false } });
    expect(await rules('back')).toMatchObject({ out_of_office: { enabled: false, subject: 'Away', body: 'Back in May.' }, forwarding: { enabled: false } });
    expect(await rules('onward')).toMatchObject({ out_of_office: { enabled: false }, forwarding: { enabled: true, addresses: ['next@elsewhere.example'], keep_copy: false } });
    expect(await rules('both')).toMatchObject({ out_of_office: { enabled: false }, forwarding: { enabled: true, addresses: ['next@elsewhere.example'], keep_copy: true } });
    // What the mail server runs: no reply for the inactive vacation, and mail passed on without a copy where none was kept.
    const sieveOf = async (local: string) => {
      const { id } = await t.services.db.selectFrom('mailbox').select('id').where('address', '=', `${local}@${domain}`).executeTakeFirstOrThrow();
      return (await t.services.db.selectFrom('mailbox_sieve').select('script').where('mailbox_id', '=', Number(id)).executeTakeFirst())?.script;
    };
    expect(await sieveOf('back')).toBeUndefined();
    expect(await sieveOf('onward')).toContain('redirect "next@elsewhere.example";');
    expect(await sieveOf('onward')).not.toContain('keep;');
  });
});

describe.each(['mariadb', 'postgres'] as SourceKind[])('A PostfixAdmin installation whose tables have a prefix, on %s', (kind) => {
  let t: TestApp;
  let source: Awaited<ReturnType<typeof freshPostfixAdmin>>;
  let root: string;
  let owner: CustomerSession;
  const domain = `p${crypto.randomBytes(3).toString('hex')}.example`;
  beforeAll(async () => {
    t = await startTestApp();
    root = await operatorLogin(t);
    owner = await signUpCustomer(t);
    await mailFixtures(t).grant(owner.id, GiB);
    // $CONF['database_prefix'] = 'pfa_': pfa_domain, pfa_mailbox, …
    source = await freshPostfixAdmin(kind, 'pfa_');
    await source.fill({ domains: [{ domain }], mailboxes: [{ username: `kept@${domain}`, password: hashes[0].stored, quota: 10 * MiB }], aliases: [] });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });
  const withPrefix = (prefix: string) => `${source.url}?table_prefix=${prefix}`;

  /** `maildesk import postfixadmin …` on this app's database, as an operator types it. */
  const maildesk = (args: string[], lang = 'en_US.UTF-8') =>
    maildeskCommand(['import', 'postfixadmin', ...args], { DATA_DIR: t.config.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}), LANG: lang });

  it('When its tables are the only ones, then the prefix is found, and `maildesk import postfixadmin` dry-runs and imports them', async () => {
    const inspected = await t.post('/api/manage/imports/postfixadmin/inspect', { source: source.url }, { token: root });
    expect(inspected.data.domains).toEqual([expect.objectContaining({ name: domain, mailboxes: 1 })]);
    const dry = await maildesk(['--source', source.url, '--map', `${domain}=${owner.email}`, '--dry-run']);
    expect(dry.status).toBe(0);
    expect(JSON.parse(dry.out).report.create).toMatchObject({ domain: 1, mailbox: 1 });
    expect(await t.services.db.selectFrom('mailbox').select('id').where('address', '=', `kept@${domain}`).execute()).toEqual([]);
    const imported = await maildesk(['--source', source.url, '--map', `${domain}=${owner.id}`]);
    expect(imported.status).toBe(0);
    expect(imported.out).toContain('2/2');
    expect(JSON.parse(imported.out.slice(imported.out.lastIndexOf('\n{') + 1))).toMatchObject({ state: 'done', created: { domain: 1, mailbox: 1 } });
    expect(imported.out).not.toContain('pfa-read-only');
    expect(await t.post('/api/mail/login/login', { email: `kept@${domain}`, password: hashes[0].password }, { ip: someIp() })).toMatchObject({ code: 0 });
  });

  it('When the database holds two installations, then the operator is asked to choose one by its prefix, in either language, and the chosen one is read', async () => {
    await source.addTables('old_');
    const both = await t.post('/api/manage/imports/postfixadmin/inspect', { source: source.url }, { token: root });
    expect(both).toMatchObject({ status: 400, code: 40000, message: 'error.import_source_prefixes', params: { prefixes: 'old_, pfa_' } });
    // As the screens show it (the field's message with its parameters).
    expect(both.errors?.source).toEqual({ message: 'error.import_source_prefixes', params: { prefixes: 'old_, pfa_' } });
    expect(serverMessages.zh.error.import_source_prefixes.replace('%{prefixes}', String(both.params?.prefixes))).toBe('此数据库中有多套 PostfixAdmin（表前缀 old_, pfa_）：请在连接字符串后加上 ?table_prefix=… 选择其中一套。');
    expect((await t.post('/api/manage/imports/postfixadmin/inspect', { source: withPrefix('pfa_') }, { token: root })).data.domains).toEqual([expect.objectContaining({ name: domain })]);
    expect((await t.post('/api/manage/imports/postfixadmin/inspect', { source: withPrefix('old_') }, { token: root })).data.domains).toEqual([]);
    const none = await t.post('/api/manage/imports/postfixadmin/inspect', { source: withPrefix('nope_') }, { token: root });
    expect(none).toMatchObject({ status: 400, code: 40000, message: 'error.import_source_prefix_missing', params: { prefix: 'nope_' } });
    // The command line says the same, in the terminal's language.
    expect(await maildesk(['--source', source.url, '--map', `${domain}=${owner.email}`, '--dry-run'])).toMatchObject({ status: 1, out: expect.stringContaining('import failed: This database holds several PostfixAdmin installations (table prefixes old_, pfa_)') });
    expect((await maildesk(['--source', source.url, '--map', `${domain}=${owner.email}`, '--dry-run'], 'zh_CN.UTF-8')).out).toContain('导入失败：此数据库中有多套 PostfixAdmin（表前缀 old_, pfa_）');
    // The dry run of the chosen installation knows what is here already.
    const dry = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: withPrefix('pfa_'), mapping: [{ domain, customer_id: owner.id }] }, { token: root });
    expect(dry.data.report.create).toMatchObject({ domain: 0, mailbox: 0 });
  });
});

describe('CSV files', () => {
  let t: TestApp;
  let root: string;
  let customer: CustomerSession;
  let other: CustomerSession;
  let domain: { id: number; name: string };
  let second: { id: number; name: string };
  beforeAll(async () => {
    t = await startTestApp();
    root = await operatorLogin(t);
    const mail = mailFixtures(t);
    [customer, other] = [await signUpCustomer(t), await signUpCustomer(t)];
    await mail.grant(customer.id, 2 * GiB);
    domain = await mail.activeDomain(customer);
    second = await mail.activeDomain(customer);
  });
  afterAll(() => t?.close());

  const csv = (...rows: string[]) => ['type,address,name,password,password_hash,quota,active,destinations', ...rows].join('\n');

  it('When the template is downloaded, then it is a CSV file with the columns and an example of each row', async () => {
    const reply = await t.get('/api/admin/imports/csv_template', {}, { token: customer.token });
    expect(reply.status).toBe(200);
    expect(String(reply.headers?.['content-type'])).toContain('text/csv');
    const text = Buffer.from(reply.data as unknown as Buffer).toString('utf8');
    expect(text.replace(/^\ufeff/, '').split('\n')[0]).toBe('type,address,name,password,password_hash,quota,active,destinations');
    expect(text).toContain('alias,@example.org');
  });

  it('When a file has bad rows, then every error is named by line and column and nothing is imported', async () => {
    const file = csv(
      `mailbox,good@${domain.name},Good,good-password-1,,100M,1,`,
      `mailbox,not an address,,good-password-1,,,1,`,
      `mailbox,x@unknown-${crypto.randomBytes(3).toString('hex')}.example,,good-password-1,,,1,`,
      `mailbox,nopass@${domain.name},,,,,1,`,
      `mailbox,weak@${domain.name},,,not-a-hash,,1,`,
      `alias,list@${domain.name},,,,,maybe,not-an-address`,
      `mailbox,good@${domain.name},Again,good-password-1,,,1,`,
      `mailbox,big@${domain.name},,good-password-1,,5G,1,`,
      `robot,r@${domain.name},,,,,,`,
      `mailbox,plain@${domain.name},,,{PLAIN}plain-password-1,,1,`,
      `mailbox,clear@${domain.name},,,{CLEARTEXT}plain-password-1,,1,`,
    );
    const dry = await t.post('/api/admin/imports/csv_dry_run', { csv: file }, { token: customer.token });
    expect(dry.code).toBe(0);
    expect(dry.data.report).toBeNull();
    expect(dry.data.errors.map((e: { line: number; column: string; message: string }) => `${e.line}:${e.column}:${e.message}`)).toEqual([
      '3:address:validation.csv_address',
      '4:address:validation.csv_domain_unknown',
      '5:password:validation.csv_password_or_hash',
      '6:password_hash:validation.csv_hash_scheme',
      '7:active:validation.csv_flag',
      '7:destinations:validation.invalid_destination',
      '8:address:validation.csv_duplicate',
      '9:quota:validation.quota_above_storage_max',
      '10:type:validation.csv_type',
      '11:password_hash:validation.csv_hash_clear_text',
      '12:password_hash:validation.csv_hash_clear_text',
    ]);
    const refused = await t.post('/api/admin/imports/csv_start', { csv: file }, { token: customer.token, locale: 'zh' });
    expect(refused).toMatchObject({ status: 400, code: 40000, message: 'error.csv_invalid', params: { count: 11 } });
    expect(Object.keys(refused.errors!)).toContain('4:address');
    expect((await t.post('/api/admin/email/list', { page_size: 1 }, { token: customer.token })).data.total).toBe(0);
    const broken = await t.post('/api/admin/imports/csv_dry_run', { csv: 'type,address\n"unclosed,x\n' }, { token: customer.token });
    expect(broken.data.errors[0]).toMatchObject({ message: 'validation.csv_malformed' });
  });

  it('When a good file is imported, then its mailboxes (with a password or a hash) and aliases exist, with progress, and another customer sees nothing of it', async () => {
    const file = csv(
      `mailbox,anna@${domain.name},Anna,anna-password-1,,100M,1,`,
      `mailbox,ben@${domain.name},Ben,,${hashes[0].stored},50M,1,`,
      `mailbox,carl@${second.name},Carl,,{SHA512-CRYPT}${hashes[1].stored.replace(/^\{[^}]+\}/, '')},,0,`,
      `alias,sales@${domain.name},,,,,1,anna@${domain.name} ben@${domain.name}`,
      `alias,@${second.name},,,,,1,carl@${second.name}`,
    );
    const dry = await t.post('/api/admin/imports/csv_dry_run', { csv: file }, { token: customer.token });
    expect(dry.data).toMatchObject({ errors: [], report: { create: { mailbox: 3, alias: 2 }, conflicts: [] } });
    const started = await t.post('/api/admin/imports/csv_start', { csv: file }, { token: customer.token });
    expect(started).toMatchObject({ code: 0, data: { state: 'queued', total: 5 } });
    const run = await finished(t, customer.token, started.data.id, 'admin');
    expect(run.created).toMatchObject({ mailbox: 3, alias: 2 });
    expect((await t.post('/api/mail/login/login', { email: `anna@${domain.name}`, password: 'anna-password-1' }, { ip: someIp() })).code).toBe(0);
    expect((await t.post('/api/mail/login/login', { email: `ben@${domain.name}`, password: hashes[0].password }, { ip: someIp() })).code).toBe(0);
    const carl = await t.services.db.selectFrom('mailbox').select(['active', 'quota']).where('address', '=', `carl@${second.name}`).executeTakeFirstOrThrow();
    expect(carl).toMatchObject({ active: 0 });
    // The same file again: all of it is here already.
    const again = await t.post('/api/admin/imports/csv_dry_run', { csv: file }, { token: customer.token });
    expect(again.data.report.create).toMatchObject({ mailbox: 0, alias: 0 });
    expect(again.data.report.conflicts).toHaveLength(5);
    expect(again.data.report.conflicts[0]).toMatchObject({ reason: 'already_here', line: 2 });
    // Another customer: no such run, and the domain is not theirs.
    expect(await t.get('/api/admin/imports/get', { id: started.data.id }, { token: other.token })).toMatchObject({ code: 40400 });
    expect((await t.get('/api/admin/imports/list', {}, { token: other.token })).data.total).toBe(0);
    const foreign = await t.post('/api/admin/imports/csv_dry_run', { csv: csv(`alias,x@${domain.name},,,,,1,a@b.example`) }, { token: other.token });
    expect(foreign.data.errors[0]).toMatchObject({ line: 2, column: 'address', message: 'validation.csv_domain_unknown' });
  });

  it('When a row\'s password is seven characters, then it is refused; eight and 128 are taken, 129 refused', async () => {
    const sized = (n: number) => 'p'.repeat(n);
    const file = csv(
      `mailbox,seven@${second.name},,${sized(7)},,1M,1,`,
      `mailbox,eight@${second.name},,${sized(8)},,1M,1,`,
      `mailbox,long@${second.name},,${sized(128)},,1M,1,`,
      `mailbox,longer@${second.name},,${sized(129)},,1M,1,`,
    );
    const dry = await t.post('/api/admin/imports/csv_dry_run', { csv: file }, { token: customer.token });
    expect(dry.data.errors).toEqual([
      { line: 2, column: 'password', message: 'validation.csv_password_length', params: { min: 8, max: 128, smart_count: 128 } },
      { line: 5, column: 'password', message: 'validation.csv_password_length', params: { min: 8, max: 128, smart_count: 128 } },
    ]);
    const fine = await t.post('/api/admin/imports/csv_dry_run', { csv: csv(`mailbox,eight@${second.name},,${sized(8)},,1M,1,`, `mailbox,long@${second.name},,${sized(128)},,1M,1,`) }, { token: customer.token });
    expect(fine.data).toMatchObject({ errors: [], report: { create: { mailbox: 2 } } });
  });

  it('When a file brings a domain to its mailbox and alias limits, then it is taken; one more of each is refused on its own line', async () => {
    // A customer of its own: the export below is of the first customer's domains.
    const mail = mailFixtures(t);
    const limitedCustomer = await signUpCustomer(t);
    await mail.grant(limitedCustomer.id, GiB);
    const limited = await mail.activeDomain(limitedCustomer);
    expect((await t.post('/api/manage/domain/update', { id: limited.id, max_mailboxes: 3, max_aliases: 2 }, { token: root })).code).toBe(0);
    await mail.mailbox(limitedCustomer.token, limited.id, 'here', { quota: MiB });
    const rows = (mailboxes: number, aliases: number) => [
      ...Array.from({ length: mailboxes }, (_, i) => `mailbox,m${i}@${limited.name},,good-password-1,,1M,1,`),
      ...Array.from({ length: aliases }, (_, i) => `alias,a${i}@${limited.name},,,,,1,someone@elsewhere.example`),
    ];
    // One mailbox here: two more make three; two aliases make two.
    const atLimits = await t.post('/api/admin/imports/csv_dry_run', { csv: csv(...rows(2, 2)) }, { token: limitedCustomer.token });
    expect(atLimits.data).toMatchObject({ errors: [], report: { create: { mailbox: 2, alias: 2 } } });
    const over = await t.post('/api/admin/imports/csv_dry_run', { csv: csv(...rows(3, 3)) }, { token: limitedCustomer.token });
    expect(over.data.errors).toEqual([
      { line: 4, column: 'address', message: 'error.mailbox_limit', params: { limit: 3, smart_count: 3, domain: limited.name } },
      { line: 7, column: 'address', message: 'error.alias_limit', params: { limit: 2, smart_count: 2, domain: limited.name } },
    ]);
  });

  it('When a team member imports, then only the domains they manage are theirs', async () => {
    const member = await teamMemberOf(t, customer, { domain_ids: [domain.id] });
    const reply = await t.post('/api/admin/imports/csv_dry_run', { csv: csv(`alias,m1@${domain.name},,,,,1,a@b.example`, `alias,m2@${second.name},,,,,1,a@b.example`) }, { token: member.token });
    expect(reply.data.errors).toEqual([{ line: 3, column: 'address', message: 'validation.csv_domain_unknown', params: { domain: second.name } }]);
  });

  it('When exported, then customers get no hashes and operators do; the operator\'s export imports again elsewhere with the same passwords', async () => {
    const mine = await t.get('/api/admin/imports/csv_export', {}, { token: customer.token });
    const text = Buffer.from(mine.data as unknown as Buffer).toString('utf8');
    expect(text).toContain(`mailbox,ben@${domain.name},Ben,,,`);
    expect(text).not.toContain('$1$');
    expect(text).toContain(`alias,sales@${domain.name},,,,,1,anna@${domain.name} ben@${domain.name}`);
    const all = await t.get('/api/manage/imports/csv_export', { customer_id: String(customer.id) }, { token: root });
    const exported = Buffer.from(all.data as unknown as Buffer).toString('utf8');
    expect(exported).toContain(`mailbox,carl@${second.name},Carl,,{SHA512-CRYPT}$6$`);
    expect(exported).toContain(`domain,${domain.name}`);

    // Another installation with the same domains: the export is the import.
    const elsewhere = await startTestApp();
    try {
      const mail = mailFixtures(elsewhere);
      const moved = await signUpCustomer(elsewhere);
      await mail.grant(moved.id, 2 * GiB);
      await mail.activeDomain(moved, domain.name);
      await mail.activeDomain(moved, second.name);
      const token = await operatorLogin(elsewhere);
      const started = await elsewhere.post('/api/manage/imports/csv_start', { csv: exported }, { token });
      expect(started, JSON.stringify(started.errors)).toMatchObject({ code: 0 });
      await finished(elsewhere, token, started.data.id);
      const back = await elsewhere.get('/api/manage/imports/csv_export', { customer_id: String(moved.id) }, { token });
      expect(Buffer.from(back.data as unknown as Buffer).toString('utf8')).toBe(exported);
      expect((await elsewhere.post('/api/mail/login/login', { email: `anna@${domain.name}`, password: 'anna-password-1' }, { ip: someIp() })).code).toBe(0);
      expect((await elsewhere.post('/api/mail/login/login', { email: `ben@${domain.name}`, password: hashes[0].password }, { ip: someIp() })).code).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('When a mailbox name would run as a spreadsheet formula, then the export writes it as text behind an apostrophe, and importing the row gives back the name as it was', async () => {
    const formula = '=HYPERLINK("https://evil.example/","Invoice")';
    const made = await t.post('/api/admin/email/create', { domain_id: second.id, local_part: 'formula', name: formula, password: 'formula-pass-1', quota: 10 * MiB }, { token: customer.token });
    expect(made).toMatchObject({ code: 0 });
    const exported = Buffer.from((await t.get('/api/manage/imports/csv_export', { customer_id: String(customer.id) }, { token: root })).data as unknown as Buffer).toString('utf8');
    const row = exported.split('\n').find((line) => line.startsWith(`mailbox,formula@${second.name},`))!;
    expect(row).toContain(`,"'=HYPERLINK(""https://evil.example/"",""Invoice"")",`);
    const again = row.replace(`formula@${second.name}`, `formula2@${second.name}`);
    const started = await t.post('/api/manage/imports/csv_start', { csv: csv(again) }, { token: root });
    expect(started, JSON.stringify(started.errors)).toMatchObject({ code: 0 });
    await finished(t, root, started.data.id);
    const imported = await t.services.db.selectFrom('mailbox').select('name').where('address', '=', `formula2@${second.name}`).executeTakeFirstOrThrow();
    expect(imported.name).toBe(formula);
  });
});

describe('an import beside the mail people wait for', () => {
  let t: TestApp;
  let source: Awaited<ReturnType<typeof freshPostfixAdmin>>;
  const domain = `lane${crypto.randomBytes(3).toString('hex')}.example`;
  beforeAll(async () => {
    // Small batches and workers that poll often (on PostgreSQL nothing else wakes them).
    t = await startTestApp({ IMPORT_BATCH_SIZE: '2', JOB_POLL_MS: '200' });
    source = await freshPostfixAdmin('mariadb');
    const users = Array.from({ length: 1500 }, (_, i) => `user${i}@${domain}`);
    await source.fill({ domains: [{ domain }], mailboxes: users.map((username) => ({ username, password: hashes[0].stored, quota: MiB })), aliases: [] });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  it("When an import of 1,500 mailboxes runs, then another customer's password-reset mail goes out while it still runs, not after it", async () => {
    const root = await operatorLogin(t);
    const waiting = await signUpCustomer(t);
    const owner = await signUpCustomer(t);
    await mailFixtures(t).grant(owner.id, GiB);
    const started = await t.post('/api/manage/imports/postfixadmin/start', { source: source.url, mapping: [{ domain, customer_id: owner.id }] }, { token: root });
    expect(started.code).toBe(0);
    const progress = async () => (await t.get('/api/manage/imports/get', { id: started.data.id }, { token: root })).data as { state: string; done: number; total: number };
    const until = async (what: string, check: () => Promise<boolean>, ms: number) => {
      for (const end = Date.now() + ms; !(await check()); await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
      }
    };
    await until('the import running', async () => (await progress()).done > 0, 30_000);

    expect((await t.post('/api/admin/login/forgot_password_send_email', { email: waiting.email }, { ip: someIp() })).code).toBe(0);
    const sent = async () => (await t.services.db.selectFrom('email_send_log').select('status').where('recipient', '=', waiting.email).where('template_key', '=', 'password_reset').executeTakeFirst())?.status === 'sent';
    await until('the reset mail sent', sent, 30_000);
    const then = await progress();
    expect(then.state).toBe('running');
    expect(then.done).toBeLessThan(then.total);
    await until('the import done', async () => (await progress()).state === 'done', 90_000);
  });
});
