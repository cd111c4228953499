/**
 * `maildesk backup` and `maildesk restore` at each of their rules (found by Stryker on
 * server/operations/backup.ts): a file to name, what a backup says it wrote and what else needs a
 * copy, every reason a restore is refused in both languages (no file, the other database's
 * backup, a damaged copy), what a restore says of an earlier or a newer release's backup, and a
 * failing pg_dump or pg_restore leaving nothing behind. On PostgreSQL too when DATABASE_URL is set.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { workFolder } from '../helpers/operations.js';
import { maildeskCommand } from '../helpers/installation.js';
import { freshPostgresDatabase } from '../helpers/postgres.js';
import { sqliteFromTemplate } from '../helpers/template-database.js';

const postgresServer = process.env.DATABASE_URL;
const { work, fresh, emptyDir, envOfApp: envOf, remove } = workFolder('backup-rules');
const zh = { LANG: 'zh_CN.UTF-8' };
let t: TestApp;
const envOfApp = () => envOf(t);

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
  remove();
});

/** A SQLite backup of this release's database (the tests' up-to-date template), with a migration of a newer release if named. */
async function sqliteBackup(extraMigration?: string) {
  const dir = emptyDir();
  await sqliteFromTemplate(dir);
  const file = fresh('sqlite-backup');
  fs.copyFileSync(path.join(dir, 'maildesk.sqlite'), file);
  if (extraMigration) {
    const db = new SQLite(file);
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(extraMigration, new Date().toISOString());
    db.close();
  }
  return file;
}

describe('naming the file', () => {
  it('When backup or restore is run without a file, then it says to name one, in the terminal\'s language (exit 2)', async () => {
    expect(await maildeskCommand(['backup'], { DATA_DIR: emptyDir() })).toMatchObject({ status: 2, err: 'Name the file: maildesk backup FILE' });
    expect(await maildeskCommand(['backup', '--quiet'], { DATA_DIR: emptyDir(), ...zh })).toMatchObject({ status: 2, err: '请指明文件：maildesk backup 文件' });
    expect(await maildeskCommand(['restore'], { DATA_DIR: emptyDir() })).toMatchObject({ status: 2, err: 'Name the file: maildesk restore FILE' });
    expect(await maildeskCommand(['restore'], { DATA_DIR: emptyDir(), ...zh })).toMatchObject({ status: 2, err: '请指明文件：maildesk restore 文件' });
  });
});

describe('backup', () => {
  it('When a backup is written, then it says which database, where, its size in bytes and seconds, and leaves no partial file', async () => {
    const file = fresh();
    const made = await maildeskCommand(['backup', file], envOfApp());
    expect(made.status).toBe(0);
    const kind = t.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    expect(made.out).toBe(`Backup of the ${kind} database written to ${file} (${fs.statSync(file).size} bytes, ${made.out.match(/bytes, (\d+\.\d) s\)/)?.[1]} s).`);
    expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).toBe(t.dialect === 'sqlite' ? 'SQLit' : 'PGDMP');
    expect(made.err).toBe('');
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    const inChinese = await maildeskCommand(['backup', fresh()], { ...envOfApp(), ...zh });
    expect(inChinese.out).toMatch(new RegExp(`^${kind} 数据库的备份已写入 .+（\\d+ 字节，\\d+\\.\\d 秒）。$`));
  });

  it('When attachments are still on disk or files are in a bucket, then the backup says they need a copy of their own', async () => {
    const attachments = emptyDir();
    for (const name of ['0123456789abcdef0123456789abcdef', 'fedcba9876543210fedcba9876543210', 'notes.txt', '0123456789abcdef0123456789abcde']) fs.writeFileSync(path.join(attachments, name), 'x');
    const made = await maildeskCommand(['backup', fresh()], { ...envOfApp(), ATTACHMENT_DIR: attachments, S3_BUCKET: 'maildesk-files' });
    expect(made.status).toBe(0);
    expect(made.err).toBe(`2 attachment(s) are still on disk in ${attachments} (the panel moves them into the database at its next start): copy that directory too.`);
    expect(made.out.split('\n')[1]).toBe('Files are in the bucket maildesk-files: back it up with the store\'s own tools (docs/operations.md).');
    const inChinese = await maildeskCommand(['backup', fresh()], { ...envOfApp(), ATTACHMENT_DIR: attachments, S3_BUCKET: 'maildesk-files', ...zh });
    expect(inChinese.err).toBe(`${attachments} 中仍有 2 个附件在磁盘上（面板下次启动时会移入数据库）：请一并复制该目录。`);
    expect(inChinese.out.split('\n')[1]).toBe('文件保存在存储桶 maildesk-files 中：请用该存储自身的工具备份（见 docs/operations.md）。');
    // A directory that is not there yet needs nothing.
    const none = await maildeskCommand(['backup', fresh()], { ...envOfApp(), ATTACHMENT_DIR: path.join(work, 'never-made') });
    expect([none.status, none.err, none.out.split('\n').length]).toEqual([0, '', 1]);
  });

  it('When there is no SQLite database in DATA_DIR, then the backup fails saying where it looked, and writes nothing', async () => {
    const dir = emptyDir();
    const file = fresh();
    expect(await maildeskCommand(['backup', file], { DATA_DIR: dir })).toMatchObject({ status: 1, err: `Failed: No database at ${path.join(dir, 'maildesk.sqlite')} (DATA_DIR)` });
    expect([fs.existsSync(file), fs.existsSync(`${file}.partial`)]).toEqual([false, false]);
  });

  it('When pg_dump fails (a database that does not exist), then the backup fails with pg_dump\'s words and leaves no file, not even a partial one', async () => {
    const file = fresh();
    const failed = await maildeskCommand(['backup', file], { DATA_DIR: emptyDir(), DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/maildesk_never_made' });
    expect(failed.status).toBe(1);
    expect(failed.err).toMatch(/^Failed: pg_dump failed \(\d+\): \S/);
    expect([fs.existsSync(file), fs.existsSync(`${file}.partial`)]).toEqual([false, false]);
  });
});

describe('restore refused', () => {
  it('When the file is not there, then nothing is restored, said in both languages (exit 1)', async () => {
    const file = fresh('missing');
    expect(await maildeskCommand(['restore', file], { DATA_DIR: emptyDir() })).toMatchObject({ status: 1, err: `Not restored: No file ${file}.` });
    expect(await maildeskCommand(['restore', file], { DATA_DIR: emptyDir(), ...zh })).toMatchObject({ status: 1, err: `未恢复：没有文件 ${file}。` });
  });

  it('When the backup is of the other database, then it says which it is and which this installation uses', async () => {
    const pgFile = fresh('pg');
    fs.writeFileSync(pgFile, 'PGDMP');
    const dir = emptyDir();
    expect(await maildeskCommand(['restore', pgFile], { DATA_DIR: dir })).toMatchObject({ status: 1, err: `Not restored: ${pgFile} is a PostgreSQL backup, but this installation uses SQLite (no DATABASE_URL).` });
    expect(await maildeskCommand(['restore', pgFile], { DATA_DIR: dir, ...zh })).toMatchObject({ status: 1, err: `未恢复：${pgFile} 是 PostgreSQL 备份，而此安装使用 SQLite（未设置 DATABASE_URL）。` });
    const sqliteFile = await sqliteBackup();
    for (const url of ['postgres://nobody@127.0.0.1:1/none', 'postgresql://nobody@127.0.0.1:1/none']) {
      expect(await maildeskCommand(['restore', sqliteFile], { DATA_DIR: dir, DATABASE_URL: url }), url).toMatchObject({ status: 1, err: `Not restored: ${sqliteFile} is a SQLite backup, but this installation uses PostgreSQL (DATABASE_URL).` });
    }
    expect(await maildeskCommand(['restore', sqliteFile], { DATA_DIR: dir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', ...zh })).toMatchObject({ err: `未恢复：${sqliteFile} 是 SQLite 备份，而此安装使用 PostgreSQL（DATABASE_URL）。` });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('When a SQLite backup is damaged, then it is refused with what SQLite found, and nothing is written', async () => {
    const file = fresh('damaged');
    const db = new SQLite(file);
    db.exec('create table note (id integer primary key, body text); create index note_body on note (body);');
    const insert = db.prepare('insert into note (body) values (?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`note number ${i} ${'x'.repeat(40)}`);
    })();
    db.close();
    // Scribble over the middle of the index's pages.
    const bytes = fs.readFileSync(file);
    bytes.fill(0x7f, Math.floor(bytes.length * 0.75) + 100, Math.floor(bytes.length * 0.75) + 900);
    fs.writeFileSync(file, bytes);
    const dir = emptyDir();
    const refused = await maildeskCommand(['restore', file], { DATA_DIR: dir });
    expect(refused.status).toBe(1);
    expect(refused.err).toMatch(new RegExp(`^Not restored: ${file.replaceAll('.', '\\.')} is damaged: \\S`));
    expect((await maildeskCommand(['restore', file], { DATA_DIR: dir, ...zh })).err).toMatch(/^未恢复：.+ 已损坏：\S/);
    expect(fs.existsSync(path.join(dir, 'maildesk.sqlite'))).toBe(false);
  });
});

describe('restore', () => {
  it('When a backup of this release is restored, then it says where, and what to do next; of an earlier release, how many migrations the next start runs; of a newer one, to start that release', async () => {
    const current = await sqliteBackup();
    const dir = emptyDir();
    const restored = await maildeskCommand(['restore', current], { DATA_DIR: dir });
    expect(restored).toMatchObject({ status: 0, err: '' });
    expect(restored.out.split('\n')).toEqual([`Restored ${current} onto ${path.join(dir, 'maildesk.sqlite')}.`, 'Next: the mail store and the mail server (docs/operations.md#restoring), then start Maildesk.']);
    const zhDir = emptyDir();
    expect((await maildeskCommand(['restore', current], { DATA_DIR: zhDir, ...zh })).out.split('\n')).toEqual([`已将 ${current} 恢复到 ${path.join(zhDir, 'maildesk.sqlite')}。`, '下一步：恢复邮件存储和邮件服务器（见 docs/operations.md#restoring），然后启动 Maildesk。']);

    // An earlier release's database: the migrations it lacks run at the next start.
    const earlier = path.resolve('tests/fixtures/releases/0022_spam/data/maildesk.sqlite');
    const applied = new SQLite(earlier, { readonly: true }).prepare('select count(*) as n from kysely_migration').get() as { n: number };
    const latest = new SQLite(current, { readonly: true }).prepare('select count(*) as n from kysely_migration').get() as { n: number };
    const old = await maildeskCommand(['restore', earlier], { DATA_DIR: emptyDir() });
    expect(old.status).toBe(0);
    expect(old.out.split('\n')[1]).toBe(`It is from an earlier release: ${latest.n - applied.n} migration(s) run at the next start.`);
    expect((await maildeskCommand(['restore', earlier], { DATA_DIR: emptyDir(), ...zh })).out.split('\n')[1]).toBe(`它来自较早的版本：下次启动时将运行 ${latest.n - applied.n} 个迁移。`);

    // A newer release's: said as a warning, the restore itself done.
    const newer = await sqliteBackup('0999_from_the_future');
    const told = await maildeskCommand(['restore', newer], { DATA_DIR: emptyDir() });
    expect(told).toMatchObject({ status: 0, err: 'This backup was made by a newer Maildesk: start that release on it.' });
    expect(told.out.split('\n')).toHaveLength(2);
    expect((await maildeskCommand(['restore', newer], { DATA_DIR: emptyDir(), ...zh })).err).toBe('此备份由较新版本的 Maildesk 生成：请用该版本启动。');
  });
});

// PostgreSQL's own tools, with the PostgreSQL run (npm run test:pg).
if (postgresServer) describe('restore on PostgreSQL', () => {
  it('When pg_restore fails on a broken archive, then the restore fails with its words (no line break after them); a good one says it went to the PostgreSQL database, in Chinese too', async () => {
    const target = await freshPostgresDatabase(postgresServer!);
    try {
      const broken = fresh('broken-dump');
      fs.writeFileSync(broken, Buffer.concat([Buffer.from('PGDMP'), Buffer.alloc(200, 0x41)]));
      const failed = await maildeskCommand(['restore', broken], { DATA_DIR: emptyDir(), DATABASE_URL: target.url });
      expect(failed.status).toBe(1);
      expect(failed.err).toMatch(/^Failed: pg_restore failed \(1\): pg_restore: [\s\S]*\S$/);

      const dump = fresh('dump');
      expect((await maildeskCommand(['backup', dump], envOfApp())).status).toBe(0);
      const restored = await maildeskCommand(['restore', dump], { DATA_DIR: emptyDir(), DATABASE_URL: target.url });
      expect(restored).toMatchObject({ status: 0, err: '' });
      expect(restored.out.split('\n')[0]).toBe(`Restored ${dump} onto the PostgreSQL database (DATABASE_URL).`);
      expect((await maildeskCommand(['restore', dump], { DATA_DIR: emptyDir(), DATABASE_URL: target.url, ...zh })).err).toBe('未恢复：DATABASE_URL 指向的数据库不是空的：请恢复到一个新的空数据库（createdb），以免覆盖任何数据。');
      const another = await freshPostgresDatabase(postgresServer!);
      try {
        expect(await maildeskCommand(['restore', dump], { DATA_DIR: emptyDir(), DATABASE_URL: another.url, ...zh })).toEqual({
          status: 0,
          err: '',
          out: [`已将 ${dump} 恢复到 PostgreSQL 数据库（DATABASE_URL）。`, '下一步：恢复邮件存储和邮件服务器（见 docs/operations.md#restoring），然后启动 Maildesk。'].join('\n'),
        });
      } finally {
        await another.drop();
      }
    } finally {
      await target.drop();
    }
  });
});
