/**
 * The `maildesk` command line: its help in both languages, `doctor` on a healthy and on broken
 * setups, and the operator commands a locked-out provider needs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { maildeskCommand } from '../helpers/installation.js';
import { enrolTotp } from '../helpers/second-factor.js';
import { smtpSink } from '../helpers/smtp-sink.js';

let t: TestApp;
let dns: DnsServer;
let smtp: Awaited<ReturnType<typeof smtpSink>>;
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-empty-'));
beforeAll(async () => {
  t = await startTestApp();
  dns = await startDnsServer();
  smtp = await smtpSink();
  await smtp.up();
});
afterAll(async () => {
  await smtp?.close();
  await dns?.close();
  await t?.close();
  fs.rmSync(empty, { recursive: true, force: true });
});

/** The environment of the running test app, as its npm start would have it. */
const envOf = (more: Record<string, string> = {}) => ({ DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl ?? '', DNS_SERVERS: dns.address, SMTP_URL: smtp.url, ...more });

describe('help', () => {
  it('When `npx maildesk --help` is typed in the installation\'s folder after npm install, then the command runs and lists backup, restore and doctor', () => {
    // Through npm itself, as the operator types it (node_modules/.bin/maildesk, deploy/cli).
    const typed = spawnSync('npx', ['--no-install', 'maildesk', '--help'], { cwd: process.cwd(), encoding: 'utf8', env: { ...process.env, LANG: 'zh_CN.UTF-8' }, timeout: 60_000 });
    expect(typed.status).toBe(0);
    for (const name of ['backup FILE', 'restore FILE', 'doctor']) expect(typed.stdout).toContain(name);
    expect(typed.stdout).toContain('用法');
  });

  it('When asked for help, then it lists backup, restore, doctor and the operator commands, in English or Chinese', async () => {
    const en = await maildeskCommand(['--help'], {});
    expect(en.status).toBe(0);
    for (const name of ['backup FILE', 'restore FILE', 'doctor', 'operator create', 'operator reset-password', 'operator reset-second-factor']) expect(en.out).toContain(name);
    expect(en.out).toContain('Copy the database to FILE while the panel serves');
    const zh = await maildeskCommand(['--help'], { LANG: 'zh_CN.UTF-8' });
    expect(zh.out).toContain('在面板运行时把数据库复制到 FILE');
    expect((await maildeskCommand(['--lang', 'en', '--help'], { LANG: 'zh_CN.UTF-8' })).out).toContain('Commands:');
    expect(await maildeskCommand(['backup', '--help'], {})).toMatchObject({ status: 0, out: expect.stringContaining('pg_dump --format=custom') });
    expect(await maildeskCommand(['rebuild'], {})).toMatchObject({ status: 2, err: expect.stringContaining('Unknown command: rebuild') });
  });
});

describe('doctor', () => {
  it('When everything answers, then every check is ok and it exits 0', async () => {
    const healthy = await maildeskCommand(['doctor'], envOf());
    expect(healthy.err).toBe('');
    expect(healthy.status).toBe(0);
    for (const check of ['database', 'migrations', 'mail lookups', 'files', 'smtp', 'dns']) expect(healthy.out).toMatch(new RegExp(`^ok {4}${check} `, 'm'));
    expect(healthy.out).toContain('Nothing failed.');
  });

  it('When doctor reports, then each line says what answered, in the operator\'s language, and a password in an address is never shown', async () => {
    const closed = new URL((await smtpSink()).url); // a free port nobody listens on
    closed.username = 'mailer';
    closed.password = 'sekret-9';
    const english = await maildeskCommand(['doctor'], envOf({ SMTP_URL: closed.toString(), LANG: 'en_US.UTF-8' }));
    expect(english.out).toMatch(/^ok {4}database +\S+ answers \(\d+ ms\)$/m);
    expect(english.out).toMatch(/^ok {4}migrations +current$/m);
    expect(english.out).toMatch(/^ok {4}mail lookups +\d+ lookups answer$/m);
    expect(english.out).toMatch(/^ok {4}files +kept in the database$/m);
    expect(english.out).toMatch(/^ok {4}dns +\S+ answers$/m);
    expect(english.out).toContain(`FAIL  smtp          smtp://mailer:***@${closed.host}`);
    expect(english.out).not.toContain('sekret-9');
    expect(english.out).toMatch(/^1 check\(s\) failed\.$/m);
    const chinese = await maildeskCommand(['doctor'], envOf({ SMTP_URL: '', LANG: 'zh_CN.UTF-8' }));
    expect(chinese.status).toBe(0);
    expect(chinese.out).toMatch(/^ok {4}database +\S+ 有应答（\d+ 毫秒）$/m);
    expect(chinese.out).toMatch(/^ok {4}migrations +已是最新$/m);
    expect(chinese.out).toMatch(/^ok {4}mail lookups +\d+ 个查询均有应答$/m);
    expect(chinese.out).toMatch(/^ok {4}files +保存在数据库中$/m);
    expect(chinese.out).toContain(`warn  smtp          未设置 SMTP_URL：邮件写入 ${t.config.dataDir}/outbox，不会发出`);
    expect(chinese.out).toMatch(/^没有失败项。$/m);
    const unset = await maildeskCommand(['doctor'], envOf({ SMTP_URL: '' }));
    expect(unset.out).toContain(`warn  smtp          SMTP_URL is not set: messages are written to ${t.config.dataDir}/outbox, not sent`);
    expect(unset.status).toBe(0);
  });

  it('When SMTP and DNS do not answer, then it names each and exits 1', async () => {
    const closed = await smtpSink(); // a free port nobody listens on
    const broken = await maildeskCommand(['doctor'], envOf({ SMTP_URL: closed.url, DNS_SERVERS: '127.0.0.1:9' }));
    expect(broken.status).toBe(1);
    expect(broken.out).toMatch(/^FAIL {2}smtp .*ECONNREFUSED/m);
    expect(broken.out).toMatch(/^FAIL {2}dns /m);
    expect(broken.out).toMatch(/^ok {4}database /m);
    expect(broken.out).toContain('2 check(s) failed.');
  });

  it('When the database is newer than this code, then the migrations check fails and it exits 1; with a migration still to run, it only warns and exits 0', async () => {
    const migrations = 'kysely_migration' as never;
    await t.services.db.insertInto(migrations).values({ name: '0999_from_the_future', timestamp: new Date().toISOString() } as never).execute();
    try {
      const newer = await maildeskCommand(['doctor'], envOf());
      expect(newer.status).toBe(1);
      expect(newer.out).toMatch(/^FAIL {2}migrations +the database is newer than this code \(0999_from_the_future\)/m);
      expect(newer.out).toContain('1 check(s) failed.');
    } finally {
      await t.services.db.deleteFrom(migrations).where('name' as never, '=', '0999_from_the_future' as never).execute();
    }

    const last = (await t.services.db.selectFrom(migrations).selectAll().orderBy('name' as never, 'desc').executeTakeFirstOrThrow()) as { name: string; timestamp: string };
    await t.services.db.deleteFrom(migrations).where('name' as never, '=', last.name as never).execute();
    try {
      const pending = await maildeskCommand(['doctor'], envOf());
      expect(pending.out).toMatch(new RegExp(`^warn {2}migrations +1 to run at the next start \\(${last.name}\\)`, 'm'));
      expect(pending.status).toBe(0);
      expect(pending.out).toContain('Nothing failed.');
    } finally {
      await t.services.db.insertInto(migrations).values(last as never).execute();
    }
  });

  it('When there is no database, then it says so and exits 1', async () => {
    const url = t.config.databaseUrl ? Object.assign(new URL(t.config.databaseUrl), { pathname: '/maildesk_no_such_database' }).toString() : '';
    const broken = await maildeskCommand(['doctor', '--lang', 'zh'], { DATA_DIR: empty, DATABASE_URL: url, SMTP_URL: smtp.url, DNS_SERVERS: dns.address });
    expect(broken.status).toBe(1);
    expect(broken.out).toMatch(url ? /^FAIL {2}database .*无应答/m : /^FAIL {2}database .*没有数据库/m);
    expect(broken.out).toContain('1 项检查失败。');
  });
});

describe('operator commands', () => {
  it('When an operator is created, then the shown password signs in; a second with the same name is refused', async () => {
    const made = await maildeskCommand(['operator', 'create', 'night-shift', '--role', 'support'], envOf());
    expect(made.status).toBe(0);
    const password = /\(shown only once\): (\S+)/.exec(made.out)?.[1];
    expect(password).toBeTruthy();
    expect(await t.post('/api/manage/login/login', { username: 'night-shift', password })).toMatchObject({ code: 0, data: { role: 'support' } });
    expect(await maildeskCommand(['operator', 'create', 'night-shift'], envOf())).toMatchObject({ status: 1, err: expect.stringContaining('already exists') });
    expect(await maildeskCommand(['operator', 'create', 'someone', '--role', 'owner'], envOf())).toMatchObject({ status: 2, err: expect.stringContaining('Unknown role') });
  });

  it('When the operator\'s name is missing, or 2 or 65 characters long, then nothing is made (2); 3 and 64 are; a --role value is not taken for the name', async () => {
    expect(await maildeskCommand(['operator', 'create', '--role', 'support'], envOf())).toMatchObject({ status: 2, err: 'Name the operator: maildesk operator … USERNAME' });
    expect(await maildeskCommand(['operator', 'reset-password'], envOf({ LANG: 'zh_CN.UTF-8' }))).toMatchObject({ status: 2, err: '请指明操作员：maildesk operator … 用户名' });
    for (const name of ['ab', 'x'.repeat(65)]) {
      expect(await maildeskCommand(['operator', 'create', name], envOf()), name).toMatchObject({ status: 2, err: 'A username has 3 to 64 characters.' });
    }
    const made = await maildeskCommand(['operator', 'create', '--role', 'billing', 'abc'], envOf());
    expect(made.status).toBe(0);
    expect(made.out).toMatch(/^Password of "abc" \(shown only once\): [\w-]{16}$/m);
    expect((await t.post('/api/manage/login/login', { username: 'abc', password: /: (\S+)$/m.exec(made.out)![1] })).data.role).toBe('billing');
    const long = await maildeskCommand(['operator', 'create', 'y'.repeat(64)], envOf({ LANG: 'zh_CN.UTF-8' }));
    expect(long.status).toBe(0);
    expect(long.out).toMatch(new RegExp(`^“${'y'.repeat(64)}”的密码（仅显示这一次）：[\\w-]{16}$`, 'm'));
  });

  it('When a password is reset, then the old one and the sessions stop working and the new one signs in', async () => {
    const session = (await t.post('/api/manage/login/login', ROOT)).data.token;
    const reset = await maildeskCommand(['operator', 'reset-password', ROOT.username], envOf());
    expect(reset.status).toBe(0);
    const password = /\(shown only once\): (\S+)/.exec(reset.out)![1];
    expect((await t.post('/api/manage/me/info', {}, { token: session })).code).toBe(20000);
    expect((await t.post('/api/manage/login/login', ROOT)).code).not.toBe(0);
    expect((await t.post('/api/manage/login/login', { username: ROOT.username, password })).code).toBe(0);
    const log = await t.services.db.selectFrom('log').select(['action', 'actor_type']).where('action', '=', 'password_reset').execute();
    expect(log).toEqual([expect.objectContaining({ action: 'password_reset' })]);
    expect(await maildeskCommand(['operator', 'reset-password', 'nobody'], envOf())).toMatchObject({ status: 1, err: 'No operator "nobody".' });
  });

  it('When a second factor is reset, then the operator signs in with the password alone', async () => {
    const made = await maildeskCommand(['operator', 'create', 'lost-phone'], envOf());
    const password = /\(shown only once\): (\S+)/.exec(made.out)![1];
    const token = (await t.post('/api/manage/login/login', { username: 'lost-phone', password })).data.token;
    await enrolTotp(t, 'manage', token);
    const step = await t.post('/api/manage/login/login', { username: 'lost-phone', password });
    expect(step).toMatchObject({ code: 40103, params: { methods: ['totp', 'recovery_code'] } });
    const reset = await maildeskCommand(['operator', 'reset-second-factor', 'lost-phone'], envOf());
    expect(reset).toMatchObject({ status: 0, out: expect.stringContaining('authenticator app: yes') });
    expect(await t.post('/api/manage/login/login', { username: 'lost-phone', password })).toMatchObject({ code: 0, data: { token: expect.any(String) } });
  });
});
