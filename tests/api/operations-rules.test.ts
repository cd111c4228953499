/**
 * `maildesk doctor` and the operator commands at each of their rules (found by reading
 * server/operations/doctor.ts, operator-commands.ts, command-line.ts and command-database.ts
 * for what Stryker would change): every finding's exact words in both languages, its outcome at
 * each boundary (a lookup slower than 500 ms, a DNS answer that is "no such name" or "no such
 * record", a store or server that does not answer), passwords never shown, and each operator
 * command's messages, limits and activity-log entries. On PostgreSQL too when DATABASE_URL is set.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import dnsPacket from 'dns-packet';
import { sql } from 'kysely';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postfixMaps } from '../../deploy/queries.js';
import { loadConfig } from '../../server/config.js';
import { diagnose, type Finding } from '../../server/operations/doctor.js';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { maildeskCommand } from '../helpers/installation.js';
import { doctorNeighbours } from '../helpers/operations.js';
import { enrolTotp } from '../helpers/second-factor.js';
import { freePort } from '../helpers/smtp-sink.js';

const postgresServer = process.env.DATABASE_URL;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-operations-rules-'));
const zh = { LANG: 'zh_CN.UTF-8' };
let t: TestApp;
let root: string;
let neighbours: Awaited<ReturnType<typeof doctorNeighbours>>;
let dns: DnsServer;
let smtp: Awaited<ReturnType<typeof doctorNeighbours>>['smtp'];
const emptyDir = () => fs.mkdtempSync(path.join(work, 'empty-'));
/** Every lookup the mail server makes: the Postfix maps, Dovecot's two and OpenDKIM's. */
const lookupCount = Object.keys(postfixMaps).length + 3;

beforeAll(async () => {
  t = await startTestApp();
  root = (await t.post('/api/manage/login/login', ROOT)).data.token;
  neighbours = await doctorNeighbours();
  ({ dns, smtp } = neighbours);
  dns.txt('txt-only.doctor.test', 'v=spf1 -all');
});
afterAll(async () => {
  await neighbours?.close();
  await t?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The environment of the running test app, as its npm start would have it. */
const envOf = (more: Record<string, string> = {}) => neighbours.env(t, more);

/** What doctor finds with this environment: each finding's words in both languages. */
async function findings(env: Record<string, string>): Promise<Finding[]> {
  return diagnose({ config: loadConfig(env), env, locale: 'en', say() {}, warn() {} });
}
const finding = async (env: Record<string, string>, check: string) => (await findings(env)).filter((f) => f.check === check);

/** A DNS server on loopback that answers every question with `rcode`, or never answers. */
async function oddDnsServer(answer: 'SERVFAIL' | 'silent') {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, remote) => {
    if (answer === 'silent') return;
    const query = dnsPacket.decode(message);
    socket.send(dnsPacket.encode({ id: query.id, type: 'response', flags: 2, questions: query.questions }), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(socket.address() as net.AddressInfo).port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

/** A server that takes connections and never answers (a stuck Redis, as a client sees it). */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Runs `work` with `input` as standard input (what `echo … | maildesk … --password-stdin` gives the command). */
async function withStdin<T>(input: string, run: () => Promise<T>): Promise<T> {
  const spy = vi.spyOn(process, 'stdin', 'get').mockReturnValue(Readable.from([Buffer.from(input, 'utf8')]) as unknown as typeof process.stdin);
  try {
    return await run();
  } finally {
    spy.mockRestore();
  }
}

/** The operators' activity log entries of one kind of change to an operator. */
async function logOf(action: string, targetId: number) {
  const reply = await t.post('/api/manage/log/list', { filter: { action, target_type: 'admin', target_id: targetId }, page_size: 100 }, { token: root });
  expect(reply.code).toBe(0);
  const entries = reply.data.list as { id: number }[];
  return Promise.all(entries.map(async (e) => (await t.get('/api/manage/log/get', { id: e.id }, { token: root })).data));
}
const operatorId = async (username: string) => Number((await t.services.db.selectFrom('admin').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id);
const signIn = (username: string, password: string) => t.post('/api/manage/login/login', { username, password });

describe('doctor: what it says when everything answers', () => {
  it('When every check answers, then each line says exactly what answered, aligned, in English and in Chinese, and it exits 0', async () => {
    const where = t.config.databaseUrl ?? `${t.config.dataDir}/maildesk.sqlite`;
    const en = await maildeskCommand(['doctor'], envOf());
    expect(en.err).toBe('');
    expect(en.status).toBe(0);
    const lines = en.out.split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^ok {4}database {6}\S+ answers \(\d+ ms\)$/),
      'ok    migrations    current',
      `ok    mail lookups  ${lookupCount} lookups answer`,
      'ok    files         kept in the database',
      `ok    smtp          ${smtp.url} answers`,
      `ok    dns           ${dns.address} answers`,
      'Nothing failed.',
    ]);
    const [, shownWhere, ms] = /^ok {4}database {6}(\S+) answers \((\d+) ms\)$/.exec(lines[0])!;
    expect(shownWhere).toBe(where);
    expect(Number(ms)).toBeLessThan(5000);

    const chinese = await maildeskCommand(['doctor'], envOf(zh));
    expect(chinese.status).toBe(0);
    const zhLines = chinese.out.split('\n');
    expect(zhLines).toEqual([
      expect.stringMatching(/^ok {4}database {6}\S+ 有应答（\d+ 毫秒）$/),
      'ok    migrations    已是最新',
      `ok    mail lookups  ${lookupCount} 个查询均有应答`,
      'ok    files         保存在数据库中',
      `ok    smtp          ${smtp.url} 有应答`,
      `ok    dns           ${dns.address} 有应答`,
      '没有失败项。',
    ]);
    const [, zhWhere, zhMs] = /^ok {4}database {6}(\S+) 有应答（(\d+) 毫秒）$/.exec(zhLines[0])!;
    expect(zhWhere).toBe(where);
    expect(Number(zhMs)).toBeLessThan(5000);
  });

  it('When doctor is asked for its help, then it says what it checks and how it exits, in both languages', async () => {
    expect(await maildeskCommand(['doctor', '--help'], {})).toEqual({
      status: 0,
      out: ['maildesk doctor', '', 'Check the database, migrations, SMTP, DNS, the mail server’s lookups, files and Redis', '', 'Exits 0 when nothing failed (warnings allowed), 1 otherwise.', ''].join('\n'),
      err: '',
    });
    expect((await maildeskCommand(['doctor', '--help'], zh)).out).toBe(['maildesk doctor', '', '检查数据库、迁移、SMTP、DNS、邮件服务器的查询、文件存储和 Redis', '', '没有失败项时退出码为 0（允许警告），否则为 1。', ''].join('\n'));
  });
});

describe('doctor: the database', () => {
  it('When there is no SQLite database in DATA_DIR, then it says where it looked and what to do, checks no lookups or files, and exits 1', async () => {
    const dir = emptyDir();
    const env = { DATA_DIR: dir, SMTP_URL: smtp.url, DNS_SERVERS: dns.address, MAIL_HOSTNAME: 'mx.doctor.test' };
    expect(await findings(env)).toEqual([
      { check: 'database', outcome: 'fail', words: { en: `no database at ${dir}/maildesk.sqlite (DATA_DIR): start Maildesk once, or restore a backup`, zh: `${dir}/maildesk.sqlite（DATA_DIR）处没有数据库：请先启动一次 Maildesk，或恢复备份` } },
      { check: 'smtp', outcome: 'ok', words: { en: `${smtp.url} answers`, zh: `${smtp.url} 有应答` } },
      { check: 'dns', outcome: 'ok', words: { en: `${dns.address} answers`, zh: `${dns.address} 有应答` } },
    ]);
    // Nothing was made in DATA_DIR by looking.
    expect(fs.readdirSync(dir)).toEqual([]);
    const said = await maildeskCommand(['doctor'], env);
    expect(said.status).toBe(1);
    expect(said.out.split('\n')).toEqual([
      `FAIL  database      no database at ${dir}/maildesk.sqlite (DATA_DIR): start Maildesk once, or restore a backup`,
      `ok    smtp          ${smtp.url} answers`,
      `ok    dns           ${dns.address} answers`,
      '1 check(s) failed.',
    ]);
  });

  it('When DATABASE_URL names a PostgreSQL server that does not answer, then it says so without the password (whatever DATA_DIR holds), and exits 1', async () => {
    const env = { DATA_DIR: emptyDir(), DATABASE_URL: 'postgres://maildesk:pg-secret-41@127.0.0.1:1/none', SMTP_URL: smtp.url, DNS_SERVERS: dns.address, MAIL_HOSTNAME: 'mx.doctor.test' };
    const [database] = await finding(env, 'database');
    expect(database).toEqual({
      check: 'database',
      outcome: 'fail',
      words: { en: 'postgres://maildesk:***@127.0.0.1:1/none does not answer: connect ECONNREFUSED 127.0.0.1:1', zh: 'postgres://maildesk:***@127.0.0.1:1/none 无应答：connect ECONNREFUSED 127.0.0.1:1' },
    });
    const said = await maildeskCommand(['doctor', '--lang', 'zh'], env);
    expect(said.status).toBe(1);
    expect(said.out).not.toContain('pg-secret-41');
    expect(said.out.split('\n').at(-1)).toBe('1 项检查失败。');
  });

  if (postgresServer) {
    it('When the PostgreSQL database answers, then the line names its address with the password hidden', async () => {
      const url = new URL(t.config.databaseUrl!);
      url.password = 'trusted-anyway-7';
      const [database] = await finding(envOf({ DATABASE_URL: url.toString() }), 'database');
      url.password = '***';
      const shown = url.toString().replace('%2A%2A%2A', '***');
      expect(database.outcome).toBe('ok');
      expect(database.words.en).toMatch(new RegExp(`^${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} answers \\(\\d+ ms\\)$`));
      expect(database.words.zh).toMatch(new RegExp(`^${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} 有应答（\\d+ 毫秒）$`));
    });
  }

  it('When the database has two migrations of a newer release, then both are named, in both languages; with two of this code still to run, both are named with their count', async () => {
    const migrations = 'kysely_migration' as never;
    const future = ['0998_from_the_future', '0999_from_further_on'];
    for (const name of future) await t.services.db.insertInto(migrations).values({ name, timestamp: new Date().toISOString() } as never).execute();
    try {
      expect(await finding(envOf(), 'migrations')).toEqual([
        { check: 'migrations', outcome: 'fail', words: { en: 'the database is newer than this code (0998_from_the_future, 0999_from_further_on): run the newer release', zh: '数据库比此版本新（0998_from_the_future、0999_from_further_on）：请运行较新的版本' } },
      ]);
    } finally {
      await t.services.db.deleteFrom(migrations).where('name' as never, 'in', future as never).execute();
    }

    const last = (await t.services.db.selectFrom(migrations).selectAll().orderBy('name' as never, 'desc').limit(2).execute()) as { name: string; timestamp: string }[];
    await t.services.db.deleteFrom(migrations).where('name' as never, 'in', last.map((m) => m.name) as never).execute();
    try {
      const [older, newer] = [last[1].name, last[0].name];
      expect(await finding(envOf(), 'migrations')).toEqual([
        { check: 'migrations', outcome: 'warn', words: { en: `2 to run at the next start (${older}, ${newer})`, zh: `下次启动时将运行 2 个（${older}、${newer}）` } },
      ]);
    } finally {
      await t.services.db.insertInto(migrations).values(last as never).execute();
    }
  });
});

describe('doctor: the mail server\'s lookups', () => {
  let scratch: TestApp;
  beforeAll(async () => {
    scratch = await startTestApp();
  });
  afterAll(() => scratch?.close());
  const scratchEnv = () => ({ DATA_DIR: scratch.config.dataDir, DATABASE_URL: scratch.config.databaseUrl ?? '', DNS_SERVERS: dns.address, SMTP_URL: smtp.url, MAIL_HOSTNAME: 'mx.doctor.test' });
  const run = (text: string) => sql.raw(text).execute(scratch.services.db);

  /** Replaces a mail view with one answering the same columns, `slowly` after some work; its old self stays as <view>_fast. */
  /** Makes a lookup's view take `ms` before any row (PostgreSQL's pg_sleep: exact on a machine however busy). */
  async function slowView(view: string, ms: number) {
    await run(`ALTER VIEW ${view} RENAME TO ${view}_fast`);
    // A one-time filter: the sleep comes before any row, whether or not the lookup finds one.
    await run(`CREATE VIEW ${view} AS SELECT * FROM ${view}_fast WHERE (SELECT pg_sleep(${ms / 1000})::text) IS NOT NULL`);
  }

  it('When a lookup fails, then the check fails naming that lookup and why, in both languages, once; the other checks still run', async () => {
    await run(scratch.dialect === 'postgres' ? 'ALTER VIEW mail_dkim_key RENAME TO mail_dkim_key_gone' : 'DROP VIEW mail_dkim_key');
    try {
      const found = await findings(scratchEnv());
      expect(found.map((f) => `${f.outcome} ${f.check}`)).toEqual(['ok database', 'ok migrations', 'fail mail lookups', 'ok files', 'ok smtp', 'ok dns']);
      const why = scratch.dialect === 'postgres' ? 'relation "mail_dkim_key" does not exist' : 'no such table: mail_dkim_key';
      expect(found[2].words).toEqual({ en: `dkim fails: ${why}`, zh: `dkim 出错：${why}` });
    } finally {
      if (scratch.dialect === 'postgres') await run('ALTER VIEW mail_dkim_key_gone RENAME TO mail_dkim_key');
    }
  });

  // PostgreSQL only: SQLite has no sleep, and a query counted to take 900 ms took under 500 or over 5,000 as other work came and went.
  if (postgresServer) {
    it('When lookups take longer than half a second, then the check warns naming each slow one with its time, in both languages, and doctor still exits 0', async () => {
      await slowView('mail_mailbox_login', 900);
      await slowView('mail_dkim_key', 900);
      const [lookups] = await finding(scratchEnv(), 'mail lookups');
      expect(lookups.outcome).toBe('warn');
      const en = /^slow: dovecot password (\d+) ms, dkim (\d+) ms$/.exec(lookups.words.en);
      expect(en, lookups.words.en).not.toBeNull();
      for (const ms of en!.slice(1)) expect(Number(ms)).toBeGreaterThan(500);
      for (const ms of en!.slice(1)) expect(Number(ms)).toBeLessThan(5000);
      expect(lookups.words.zh).toMatch(/^较慢：dovecot password \d+ ms、dkim \d+ ms$/);
      const said = await maildeskCommand(['doctor'], scratchEnv());
      expect(said.status).toBe(0);
      expect(said.out).toMatch(/^warn {2}mail lookups {2}slow: dovecot password \d+ ms, dkim \d+ ms$/m);
    });
  }
});

describe('doctor: SMTP, DNS, files and Redis', () => {
  it('When the SMTP server does not answer, then the line names it without its password and says why, in both languages', async () => {
    const port = await freePort();
    const [check] = await finding(envOf({ SMTP_URL: `smtp://mailer:smtp-secret-3@127.0.0.1:${port}` }), 'smtp');
    expect(check).toEqual({ check: 'smtp', outcome: 'fail', words: { en: `smtp://mailer:***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`, zh: `smtp://mailer:***@127.0.0.1:${port}：connect ECONNREFUSED 127.0.0.1:${port}` } });
  });

  it('When the resolver answers "no such name" or "no such record", then DNS is ok; when it fails (SERVFAIL), it is not, said with the servers DNS_SERVERS names', async () => {
    for (const name of ['mx.doctor.test', 'nowhere.doctor.test', 'txt-only.doctor.test']) {
      expect(await finding(envOf({ MAIL_HOSTNAME: name }), 'dns'), name).toEqual([{ check: 'dns', outcome: 'ok', words: { en: `${dns.address} answers`, zh: `${dns.address} 有应答` } }]);
    }
    const failing = await oddDnsServer('SERVFAIL');
    try {
      const servers = `${failing.address}, ${dns.address}`;
      const [check] = await finding(envOf({ DNS_SERVERS: `${failing.address},${dns.address}`, MAIL_HOSTNAME: 'mx.doctor.test' }), 'dns');
      expect(check).toEqual({ check: 'dns', outcome: 'fail', words: { en: `${servers}: queryMx ESERVFAIL mx.doctor.test (DNS_SERVERS)`, zh: `${servers}：queryMx ESERVFAIL mx.doctor.test（DNS_SERVERS）` } });
    } finally {
      await failing.close();
    }
  });

  it('When files are kept in an S3 bucket, then the check names the bucket; when the bucket\'s server does not answer, it says the store does not answer, in both languages', async () => {
    const storeDir = fs.mkdtempSync(path.join(work, 's3-'));
    const store = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: storeDir, configureBuckets: [{ name: 'doctor-files' }] });
    const { port } = (await store.run()) as net.AddressInfo;
    const s3 = { S3_BUCKET: 'doctor-files', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };
    try {
      expect(await finding(envOf({ ...s3, S3_ENDPOINT: `http://127.0.0.1:${port}` }), 'files')).toEqual([{ check: 'files', outcome: 'ok', words: { en: 'kept in the S3 bucket doctor-files', zh: '保存在存储桶 doctor-files中' } }]);
    } finally {
      await store.close();
    }
    const [gone] = await finding(envOf({ ...s3, S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` }), 'files');
    expect(gone.outcome).toBe('fail');
    const why = /^the file store does not answer: (.+)$/.exec(gone.words.en)?.[1];
    expect(why).toBeTruthy();
    expect(gone.words.zh).toBe(`文件存储无应答：${why}`);
  });

  // A Redis that answers: tests/services/doctor-redis.test.ts (a real one).
  it('When REDIS_URL names a Redis that refuses, then Redis fails with its address (password hidden) in both languages, and doctor exits 1; without REDIS_URL there is no Redis line', async () => {
    expect((await findings(envOf())).map((f) => f.check)).toEqual(['database', 'migrations', 'mail lookups', 'files', 'smtp', 'dns']);
    const port = await freePort();
    expect(await finding(envOf({ REDIS_URL: `redis://:redis-secret-5@127.0.0.1:${port}` }), 'redis')).toEqual([
      { check: 'redis', outcome: 'fail', words: { en: `redis://:***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`, zh: `redis://:***@127.0.0.1:${port}：connect ECONNREFUSED 127.0.0.1:${port}` } },
    ]);
    const said = await maildeskCommand(['doctor'], envOf({ REDIS_URL: `redis://127.0.0.1:${port}` }));
    expect(said.status).toBe(1);
    expect(said.out.split('\n').slice(-2)).toEqual([`FAIL  redis         redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`, '1 check(s) failed.']);
  });

  it('When a server takes the connection but never answers, then doctor gives up after 5 seconds and says so', async () => {
    const silent = await silentServer();
    try {
      const started = Date.now();
      expect(await finding(envOf({ REDIS_URL: `redis://127.0.0.1:${silent.port}` }), 'redis')).toEqual([
        { check: 'redis', outcome: 'fail', words: { en: `redis://127.0.0.1:${silent.port}: no answer within 5 s`, zh: `redis://127.0.0.1:${silent.port}：5 秒内无应答` } },
      ]);
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      await silent.close();
    }
  }, 20_000);
});

describe('operator create', () => {
  it('When an operator is made without --role, then it is a superadmin, said in both languages, and the activity log has it as the command line\'s work', async () => {
    const made = await maildeskCommand(['operator', 'create', 'chief-one'], envOf());
    expect(made.status).toBe(0);
    expect(made.err).toBe('');
    const [said, shown] = made.out.split('\n');
    expect(said).toBe('Operator "chief-one" created (superadmin).');
    const password = /^Password of "chief-one" \(shown only once\): ([\w-]{16})$/.exec(shown)![1];
    expect((await signIn('chief-one', password)).data.role).toBe('superadmin');
    const id = await operatorId('chief-one');
    expect(await logOf('create', id)).toEqual([
      expect.objectContaining({ actor_type: 'system', actor_name: 'command line', action: 'create', target_type: 'admin', target_id: id, after: { username: 'chief-one', role: 'superadmin' } }),
    ]);
    const inChinese = await maildeskCommand(['operator', 'create', 'chief-two', '--role', 'support'], envOf(zh));
    expect(inChinese.out.split('\n')[0]).toBe('已创建操作员“chief-two”（support）。');
  });

  it('When the role is unknown or the name is taken, then it says which roles there are, or that nothing was changed, in both languages', async () => {
    expect(await maildeskCommand(['operator', 'create', 'someone', '--role', 'owner'], envOf())).toEqual({ status: 2, out: '', err: 'Unknown role "owner": superadmin, support, billing' });
    expect(await maildeskCommand(['operator', 'create', 'someone', '--role', 'owner'], envOf(zh))).toEqual({ status: 2, out: '', err: '未知角色“owner”：superadmin、support、billing' });
    expect(await maildeskCommand(['operator', 'create', ROOT.username], envOf())).toEqual({ status: 1, out: '', err: `An operator "${ROOT.username}" already exists; nothing was changed.` });
    expect(await maildeskCommand(['operator', 'create', ROOT.username], envOf(zh))).toEqual({ status: 1, out: '', err: `操作员“${ROOT.username}”已存在，未做任何更改。` });
    // A --role given last, without a value: the default role.
    const last = await maildeskCommand(['operator', 'create', 'role-last', '--role'], envOf());
    expect(last.out.split('\n')[0]).toBe('Operator "role-last" created (superadmin).');
  });

  it('When the password comes on standard input, then 8 and 128 characters are taken (the line\'s end is not part of it) and not shown; 7 and 129 are refused in both languages', async () => {
    for (const [name, input] of [['seven-chars', 'abcdefg\n'], ['seven-crlf', 'abcdefg\r\n'], ['long-129', `${'p'.repeat(129)}\n`]]) {
      expect(await withStdin(input, () => maildeskCommand(['operator', 'create', name, '--password-stdin'], envOf())), name).toEqual({ status: 2, out: '', err: 'The password must have 8 to 128 characters.' });
      expect((await t.services.db.selectFrom('admin').select('id').where('username', '=', name).execute()).length, name).toBe(0);
    }
    expect(await withStdin('abcdefg', () => maildeskCommand(['operator', 'create', 'seven-zh', '--password-stdin'], envOf(zh)))).toEqual({ status: 2, out: '', err: '密码须为 8 至 128 个字符。' });

    const cases: [string, string, string][] = [
      ['eight-lf', 'abcdefgh\n', 'abcdefgh'],
      ['eight-crlf', 'abcdefgh\r\n', 'abcdefgh'],
      ['eight-bare', 'abcdefgh', 'abcdefgh'],
      ['long-128', `${'q'.repeat(128)}\n`, 'q'.repeat(128)],
      ['two-lines', 'first-line\nsecond-line\n', 'first-line\nsecond-line'],
      ['not-ascii', 'pässwörd-密码\n', 'pässwörd-密码'],
    ];
    for (const [name, input, password] of cases) {
      const made = await withStdin(input, () => maildeskCommand(['operator', 'create', name, '--password-stdin'], envOf()));
      expect(made, name).toEqual({ status: 0, out: `Operator "${name}" created (superadmin).`, err: '' });
      expect((await signIn(name, password)).code, name).toBe(0);
    }
  });
});

describe('operator reset-password', () => {
  it('When a password is reset from standard input, then it is not shown, the sessions end, the log has it, and it is said in both languages', async () => {
    const made = await maildeskCommand(['operator', 'create', 'reset-me'], envOf());
    const first = /\(shown only once\): (\S+)/.exec(made.out)![1];
    const session = (await signIn('reset-me', first)).data.token;
    const reset = await withStdin('a-new-password-9\n', () => maildeskCommand(['operator', 'reset-password', 'reset-me', '--password-stdin'], envOf()));
    expect(reset).toEqual({ status: 0, out: 'New password set for "reset-me"; their sessions have ended.', err: '' });
    expect((await t.post('/api/manage/me/info', {}, { token: session })).code).toBe(20000);
    expect((await signIn('reset-me', first)).code).not.toBe(0);
    expect((await signIn('reset-me', 'a-new-password-9')).code).toBe(0);
    const id = await operatorId('reset-me');
    expect(await logOf('password_reset', id)).toEqual([expect.objectContaining({ actor_type: 'system', actor_name: 'command line', target_type: 'admin', target_id: id, after: { username: 'reset-me' } })]);

    const inChinese = await maildeskCommand(['operator', 'reset-password', 'reset-me'], envOf(zh));
    expect(inChinese.out.split('\n')[0]).toBe('已为“reset-me”设置新密码，其会话均已结束。');
    expect(inChinese.out.split('\n')[1]).toMatch(/^“reset-me”的密码（仅显示这一次）：[\w-]{16}$/);
    expect(await withStdin('short\n', () => maildeskCommand(['operator', 'reset-password', 'reset-me', '--password-stdin'], envOf()))).toMatchObject({ status: 2, err: 'The password must have 8 to 128 characters.' });
    expect(await maildeskCommand(['operator', 'reset-password', 'nobody'], envOf(zh))).toEqual({ status: 1, out: '', err: '没有操作员“nobody”。' });
  });
});

describe('operator reset-second-factor', () => {
  it('When the name is missing or unknown, then nothing is done, said in both languages', async () => {
    expect(await maildeskCommand(['operator', 'reset-second-factor'], envOf())).toEqual({ status: 2, out: '', err: 'Name the operator: maildesk operator … USERNAME' });
    expect(await maildeskCommand(['operator', 'reset-second-factor', 'nobody'], envOf())).toEqual({ status: 1, out: '', err: 'No operator "nobody".' });
    expect(await maildeskCommand(['operator', 'reset-second-factor', 'nobody'], envOf(zh))).toEqual({ status: 1, out: '', err: '没有操作员“nobody”。' });
  });

  it('When an operator without a second factor is reset, then it says none was there; with an authenticator app, that one was, in both languages; the sessions end and the log has it', async () => {
    const made = await maildeskCommand(['operator', 'create', 'no-phone'], envOf());
    const password = /\(shown only once\): (\S+)/.exec(made.out)![1];
    const session = (await signIn('no-phone', password)).data.token;
    expect(await maildeskCommand(['operator', 'reset-second-factor', 'no-phone'], envOf())).toEqual({
      status: 0,
      out: 'Second factors of "no-phone" removed (authenticator app: none, passkeys: 0); their sessions have ended.',
      err: '',
    });
    expect((await t.post('/api/manage/me/info', {}, { token: session })).code).toBe(20000);
    const id = await operatorId('no-phone');
    expect(await logOf('second_factor_reset', id)).toEqual([
      expect.objectContaining({ actor_type: 'system', actor_name: 'command line', target_type: 'admin', target_id: id, after: { username: 'no-phone', totp_removed: false, passkeys_removed: 0 } }),
    ]);
    expect((await maildeskCommand(['operator', 'reset-second-factor', 'no-phone'], envOf(zh))).out).toBe('已移除“no-phone”的第二因素（验证器应用：无，通行密钥：0 个），其会话均已结束。');

    const token = (await signIn('no-phone', password)).data.token;
    const { recoveryCodes } = await enrolTotp(t, 'manage', token);
    expect((await maildeskCommand(['operator', 'reset-second-factor', 'no-phone'], envOf(zh))).out).toBe('已移除“no-phone”的第二因素（验证器应用：有，通行密钥：0 个），其会话均已结束。');
    expect((await logOf('second_factor_reset', id))[0].after).toEqual({ username: 'no-phone', totp_removed: true, passkeys_removed: 0 });
    // The recovery codes went with the app: the password alone signs in, and a recovery code is nothing now.
    expect((await signIn('no-phone', password)).code).toBe(0);
    expect(recoveryCodes).toHaveLength(10);
  });
});

describe('the operator commands\' help and the command line around them', () => {
  it('When each operator command is asked for its help, then it shows its usage, summary and details, in both languages', async () => {
    const help = async (name: string, env: Record<string, string> = {}) => (await maildeskCommand(['operator', name, '--help'], env)).out;
    expect(await help('create')).toBe(
      ['maildesk operator create USERNAME [--role superadmin|support|billing] [--password-stdin]', '', 'Create an operator (superadmin unless --role says otherwise)', '', 'Without --password-stdin a password is generated and shown once.', ''].join('\n'),
    );
    expect(await help('create', zh)).toBe(['maildesk operator create USERNAME [--role superadmin|support|billing] [--password-stdin]', '', '创建操作员（默认超级管理员，可用 --role 指定角色）', '', '不带 --password-stdin 时生成一个密码并只显示一次。', ''].join('\n'));
    expect(await help('reset-password')).toBe(['maildesk operator reset-password USERNAME [--password-stdin]', '', "Give an operator a new password and end all of the operator's sessions", ''].join('\n'));
    expect(await help('reset-password', zh)).toBe(['maildesk operator reset-password USERNAME [--password-stdin]', '', '为操作员设置新密码，并结束其所有会话', ''].join('\n'));
    expect(await help('reset-second-factor')).toBe(
      [
        'maildesk operator reset-second-factor USERNAME',
        '',
        "Remove an operator's authenticator app, recovery codes and passkeys (a lost phone)",
        '',
        'The operator then signs in with the password alone, or enrols again if operators must have a second factor.',
        '',
      ].join('\n'),
    );
    expect(await help('reset-second-factor', zh)).toBe(
      ['maildesk operator reset-second-factor USERNAME', '', '移除操作员的验证器应用、恢复码和通行密钥（手机丢失时）', '', '之后该操作员仅凭密码登录；若要求操作员使用第二因素，则须重新绑定。', ''].join('\n'),
    );
  });

  it('When the help is shown in Chinese, then its usage, environment and command headings are Chinese, and it ends with an empty line', async () => {
    const { out, status } = await maildeskCommand(['--lang=zh', 'help'], {});
    expect(status).toBe(0);
    const lines = out.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'maildesk —— Maildesk 命令行',
      '',
      '用法：maildesk <命令> [参数]   （任何命令均可加 --help；--lang en|zh 选择语言）',
      '它读取与 npm start 相同的环境变量：DATA_DIR、DATABASE_URL、SMTP_URL、REDIS_URL、S3_* 等（见 docs/configuration.md）。',
      '',
      '命令：',
    ]);
    expect(lines.at(-1)).toBe('');
    expect(lines.find((l) => l.startsWith('  doctor '))).toMatch(/^ {2}doctor +检查数据库、迁移/);
    // --lang=… before the command, upper case: neither is taken for the command.
    expect((await maildeskCommand(['--lang=ZH', 'doctor', '--help'], {})).out.split('\n')[2]).toBe('检查数据库、迁移、SMTP、DNS、邮件服务器的查询、文件存储和 Redis');
    // --lang with its value, anywhere, and --lang=…, are taken out of the arguments; --lang wins over --lang=.
    expect(await maildeskCommand(['--lang', 'zh', 'operator', 'reset-second-factor', '--lang=en', 'nobody'], envOf())).toEqual({ status: 1, out: '', err: '没有操作员“nobody”。' });
    expect(await maildeskCommand(['--lang=en', 'operator', 'reset-second-factor', 'nobody', '--lang', 'en'], envOf(zh))).toEqual({ status: 1, out: '', err: 'No operator "nobody".' });
  });

  it('When the help lists every command, then the summaries start in one column, 48 past the indent (the widest usage is longer), and a usage too long for it gets a line of its own', async () => {
    const lines = (await maildeskCommand(['help'], {})).out.split('\n');
    const pad = ' '.repeat(50);
    const at = (head: string) => lines.findIndex((l) => l.startsWith(`  ${head}`));
    expect(lines[at('doctor')]).toBe(`  ${'doctor'.padEnd(48)}Check the database, migrations, SMTP, DNS, the mail server’s lookups, files and Redis`);
    expect(lines[at('operator reset-second-factor')]).toBe(`  ${'operator reset-second-factor USERNAME'.padEnd(48)}Remove an operator's authenticator app, recovery codes and passkeys (a lost phone)`);
    expect(lines.slice(at('operator reset-password'), at('operator reset-password') + 2)).toEqual(['  operator reset-password USERNAME [--password-stdin]', `${pad}Give an operator a new password and end all of the operator's sessions`]);
    expect(lines.slice(at('operator create'), at('operator create') + 2)).toEqual(['  operator create USERNAME [--role superadmin|support|billing] [--password-stdin]', `${pad}Create an operator (superadmin unless --role says otherwise)`]);
  });

  it('When a command starts Maildesk (an import), then it does not start the jobs: files left on disk stay there, no job is queued', async () => {
    const attachments = emptyDir();
    fs.writeFileSync(path.join(attachments, '0123456789abcdef0123456789abcdef'), 'left by an earlier release');
    const before = (await t.services.jobs.counts()).find((c) => c.name === 'files.move_from_disk');
    const env = envOf({ ATTACHMENT_DIR: attachments, JOB_POLL_MS: '50' });
    const ran = await maildeskCommand(['import', 'postfixadmin', '--source', 'postgres://nobody@127.0.0.1:1/none', '--map', 'moved.example=nobody@nowhere.test', '--dry-run'], env);
    expect(ran).toEqual({ status: 1, out: 'import failed: no customer "nobody@nowhere.test" (for moved.example)', err: '' });
    expect(fs.readdirSync(attachments)).toEqual(['0123456789abcdef0123456789abcdef']);
    expect((await t.services.jobs.counts()).find((c) => c.name === 'files.move_from_disk')).toEqual(before);
  });
});

describe('commands on a database of a newer release', () => {
  it('When the database has a newer release\'s migration, then an operator command refuses it and changes nothing', async () => {
    const migrations = 'kysely_migration' as never;
    await t.services.db.insertInto(migrations).values({ name: '0999_from_the_future', timestamp: new Date().toISOString() } as never).execute();
    try {
      expect(await maildeskCommand(['operator', 'create', 'too-late'], envOf())).toEqual({
        status: 1,
        out: '',
        err: 'Failed: This database was upgraded by a newer Maildesk: it has migrations this version does not know (0999_from_the_future). Start the newer release again, or restore the backup taken before the upgrade (docs/operations.md#upgrades). Nothing was changed.',
      });
      expect(await t.services.db.selectFrom('admin').select('id').where('username', '=', 'too-late').execute()).toEqual([]);
    } finally {
      await t.services.db.deleteFrom(migrations).where('name' as never, '=', '0999_from_the_future' as never).execute();
    }
  });
});

