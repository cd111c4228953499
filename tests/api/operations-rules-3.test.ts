/**
 * `maildesk backup` and `maildesk restore` at the rules operations-backup-rules.test.ts leaves
 * open (found by reading server/operations/backup.ts for what Stryker would change): a partial
 * file an interrupted backup left, a folder that is not there, the seconds a backup took, pg_dump
 * missing from PATH, a DATABASE_URL that is no PostgreSQL address, which stored attachments are
 * counted, an empty database file, a data directory still to make, every refusal in Chinese,
 * both commands' help; and the `maildesk` bin itself (server/operations/cli.ts). On PostgreSQL
 * too when DATABASE_URL is set (pg_restore's words and a restore in Chinese: operations-backup-rules.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { capabilities } from '../../server/capabilities.js';
import { runCommandLine } from '../../server/operations/command-line.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { workFolder } from '../helpers/operations.js';
import { maildeskCommand } from '../helpers/installation.js';
import { sqliteFromTemplate } from '../helpers/template-database.js';

const { work, fresh, emptyDir, envOfApp: envOf, remove } = workFolder('operations-rules-3');
const zh = { LANG: 'zh_CN.UTF-8' };
let t: TestApp;
const envOfApp = () => envOf(t);
const kindOfApp = () => (t.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL');

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
  remove();
});

/** A SQLite backup of this release's database (the tests' up-to-date template). */
async function sqliteBackup() {
  const dir = emptyDir();
  await sqliteFromTemplate(dir);
  const file = fresh('sqlite-backup');
  fs.copyFileSync(path.join(dir, 'maildesk.sqlite'), file);
  return file;
}

describe('backup', () => {
  it('When an interrupted backup left FILE.partial behind, then the next backup replaces it and leaves only FILE', async () => {
    const file = fresh();
    fs.writeFileSync(`${file}.partial`, 'half of an earlier copy');
    const made = await maildeskCommand(['backup', file], envOfApp());
    expect(made).toMatchObject({ status: 0, err: '' });
    expect(made.out).toMatch(new RegExp(`^Backup of the ${kindOfApp()} database written to `));
    expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).toBe(t.dialect === 'sqlite' ? 'SQLit' : 'PGDMP');
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });

  it('When FILE is in a folder that does not exist, then the backup fails with the words of the tool that wrote it, and writes nothing', async () => {
    const folder = path.join(work, 'never-made-folder');
    const file = path.join(folder, 'maildesk.backup');
    const failed = await maildeskCommand(['backup', file], envOfApp());
    expect(failed.status).toBe(1);
    expect(failed.out).toBe('');
    expect(failed.err).toBe(
      t.dialect === 'sqlite'
        ? `Failed: unable to open database: ${file}.partial`
        : `Failed: pg_dump failed (1): pg_dump: error: could not open output file "${file}.partial": No such file or directory`,
    );
    expect(fs.existsSync(folder)).toBe(false);
  });

  it('When a backup is written, then the seconds it says it took are the time it took, not more', async () => {
    const file = fresh();
    const before = Date.now();
    const made = await maildeskCommand(['backup', file], envOfApp());
    const took = (Date.now() - before) / 1000;
    expect(made.status).toBe(0);
    const seconds = Number(/, (\d+\.\d) s\)\.$/.exec(made.out.split('\n')[0])![1]);
    expect(seconds).toBeGreaterThanOrEqual(0);
    expect(seconds).toBeLessThanOrEqual(took + 0.05);
  });

  it('When FILE exists already, then it is said in Chinese too, and FILE is left as it was', async () => {
    const file = fresh();
    fs.writeFileSync(file, 'kept');
    expect(await maildeskCommand(['backup', file], { ...envOfApp(), ...zh })).toEqual({ status: 1, out: '', err: `${file} 已存在：请指定一个新文件。` });
    expect(fs.readFileSync(file, 'utf8')).toBe('kept');
  });

  it('When pg_dump is not on PATH, then the backup fails saying it could not be started (127), and writes nothing', async () => {
    const file = fresh();
    const searched = process.env.PATH;
    process.env.PATH = emptyDir();
    let failed: Awaited<ReturnType<typeof maildeskCommand>>;
    try {
      failed = await maildeskCommand(['backup', file], { DATA_DIR: emptyDir(), DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/postgres' });
    } finally {
      process.env.PATH = searched;
    }
    expect(failed).toEqual({ status: 1, out: '', err: 'Failed: pg_dump failed (127): spawn pg_dump ENOENT' });
    expect([fs.existsSync(file), fs.existsSync(`${file}.partial`)]).toEqual([false, false]);
  });

  it('When pg_dump fails, then its words end the line as it wrote them, without its trailing line break', async () => {
    const failed = await maildeskCommand(['backup', fresh()], { DATA_DIR: emptyDir(), DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/maildesk_never_made' });
    expect(failed.status).toBe(1);
    expect(failed.err).toMatch(/^Failed: pg_dump failed \(1\): pg_dump: error: [\s\S]*\S$/);
  });

  it('When DATABASE_URL is no PostgreSQL address (jdbc:postgresql://…), then backup and restore use the SQLite database in DATA_DIR, as the panel does', async () => {
    const notPostgres = 'jdbc:postgresql://127.0.0.1:5432/maildesk';
    const dir = emptyDir();
    await sqliteFromTemplate(dir);
    const file = fresh();
    const made = await maildeskCommand(['backup', file], { DATA_DIR: dir, DATABASE_URL: notPostgres, ATTACHMENT_DIR: emptyDir() });
    expect(made).toMatchObject({ status: 0, err: '' });
    expect(made.out).toMatch(/^Backup of the SQLite database written to /);
    const target = emptyDir();
    const restored = await maildeskCommand(['restore', file], { DATA_DIR: target, DATABASE_URL: notPostgres });
    expect(restored).toMatchObject({ status: 0, err: '' });
    expect(restored.out.split('\n')[0]).toBe(`Restored ${file} onto ${path.join(target, 'maildesk.sqlite')}.`);
  });

  it('When files in the attachment directory only look like stored attachments (a letter before or after the 32 hex digits), then they are not counted', async () => {
    const attachments = emptyDir();
    const hex = '0123456789abcdef0123456789abcdef';
    for (const name of [hex, `x${hex}`, `${hex}x`, `${hex}0`]) fs.writeFileSync(path.join(attachments, name), 'x');
    const made = await maildeskCommand(['backup', fresh()], { ...envOfApp(), ATTACHMENT_DIR: attachments });
    expect(made.status).toBe(0);
    expect(made.err).toBe(`1 attachment(s) are still on disk in ${attachments} (the panel moves them into the database at its next start): copy that directory too.`);
  });
});

describe('restore', () => {
  it('When DATA_DIR holds an empty database file (0 bytes), then the backup is restored onto it', async () => {
    const backup = await sqliteBackup();
    const dir = emptyDir();
    fs.writeFileSync(path.join(dir, 'maildesk.sqlite'), '');
    const restored = await maildeskCommand(['restore', backup], { DATA_DIR: dir });
    expect(restored).toMatchObject({ status: 0, err: '' });
    expect(fs.readFileSync(path.join(dir, 'maildesk.sqlite')).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
  });

  it('When DATA_DIR does not exist yet (nor its parent), then it is made and the backup restored into it', async () => {
    const backup = await sqliteBackup();
    const dir = path.join(work, 'new-installation', 'data');
    const restored = await maildeskCommand(['restore', backup], { DATA_DIR: dir });
    expect(restored).toMatchObject({ status: 0, err: '' });
    expect(restored.out.split('\n')[0]).toBe(`Restored ${backup} onto ${path.join(dir, 'maildesk.sqlite')}.`);
    expect(fs.statSync(path.join(dir, 'maildesk.sqlite')).size).toBe(fs.statSync(backup).size);
  });

  it('When DATA_DIR already has a database, then the refusal says where, in English and in Chinese, and the database is untouched', async () => {
    const backup = await sqliteBackup();
    const dir = emptyDir();
    const destination = path.join(dir, 'maildesk.sqlite');
    fs.writeFileSync(destination, 'an installation in use');
    expect(await maildeskCommand(['restore', backup], { DATA_DIR: dir })).toEqual({
      status: 1,
      out: '',
      err: `Not restored: ${dir} already has a database (${destination}): restore into an empty data directory (DATA_DIR), so that nothing is overwritten.`,
    });
    expect(await maildeskCommand(['restore', backup], { DATA_DIR: dir, ...zh })).toEqual({
      status: 1,
      out: '',
      err: `未恢复：${dir} 中已有数据库（${destination}）：请恢复到一个空的数据目录（DATA_DIR），以免覆盖任何数据。`,
    });
    expect(fs.readFileSync(destination, 'utf8')).toBe('an installation in use');
  });

  it('When an option comes before FILE, then it is not taken for the file', async () => {
    const backup = await sqliteBackup();
    const dir = emptyDir();
    const restored = await maildeskCommand(['restore', '--quiet', backup], { DATA_DIR: dir });
    expect(restored).toMatchObject({ status: 0, err: '' });
    expect(restored.out.split('\n')[0]).toBe(`Restored ${backup} onto ${path.join(dir, 'maildesk.sqlite')}.`);
  });

  it('When DATA_DIR is a file, then the restore fails with the system\'s words (not a refusal), and the file is untouched', async () => {
    const backup = await sqliteBackup();
    const notADir = fresh('not-a-directory');
    fs.writeFileSync(notADir, 'a file');
    expect(await maildeskCommand(['restore', backup], { DATA_DIR: notADir })).toEqual({ status: 1, out: '', err: `Failed: EEXIST: file already exists, mkdir '${notADir}'` });
    expect(fs.readFileSync(notADir, 'utf8')).toBe('a file');
  });
});

describe('help', () => {
  it('When backup and restore are asked for their help, then each shows its usage, summary and details, in English and in Chinese', async () => {
    const help = async (name: string, env: Record<string, string> = {}) => maildeskCommand([name, '--help'], env);
    expect(await help('backup')).toEqual({
      status: 0,
      err: '',
      out: [
        'maildesk backup FILE',
        '',
        'Copy the database to FILE while the panel serves (SQLite online backup, or pg_dump)',
        '',
        'A SQLite database is copied with its online backup; PostgreSQL with pg_dump --format=custom (pg_dump must be on PATH). Attachments kept in the database come with it. FILE must not exist.',
        '',
      ].join('\n'),
    });
    expect((await help('backup', zh)).out).toBe(
      ['maildesk backup FILE', '', '在面板运行时把数据库复制到 FILE（SQLite 在线备份，或 pg_dump）', '', 'SQLite 用其在线备份复制；PostgreSQL 用 pg_dump --format=custom（PATH 中须有 pg_dump）。保存在数据库中的附件一并备份。FILE 不得已存在。', ''].join('\n'),
    );
    expect((await help('restore')).out).toBe(
      [
        'maildesk restore FILE',
        '',
        'Restore a backup onto an empty data directory or an empty PostgreSQL database',
        '',
        'Refuses a target that already holds a database. Start Maildesk afterwards: a backup of an earlier release is migrated forward at that start.',
        '',
      ].join('\n'),
    );
    expect((await help('restore', zh)).out).toBe(['maildesk restore FILE', '', '把备份恢复到空的数据目录或空的 PostgreSQL 数据库', '', '目标已有数据库时拒绝恢复。恢复后启动 Maildesk：较早版本的备份会在启动时升级。', ''].join('\n'));
  });

  it('When the help lists the commands, then backup and restore have their usage and summary, in English and in Chinese', async () => {
    const line = async (head: string, env: Record<string, string> = {}) => (await maildeskCommand(['help'], env)).out.split('\n').find((l) => l.startsWith(`  ${head} `));
    expect(await line('backup')).toBe(`  ${'backup FILE'.padEnd(48)}Copy the database to FILE while the panel serves (SQLite online backup, or pg_dump)`);
    expect(await line('restore')).toBe(`  ${'restore FILE'.padEnd(48)}Restore a backup onto an empty data directory or an empty PostgreSQL database`);
    expect(await line('backup', zh)).toBe(`  ${'backup FILE'.padEnd(48)}在面板运行时把数据库复制到 FILE（SQLite 在线备份，或 pg_dump）`);
    expect(await line('restore', zh)).toBe(`  ${'restore FILE'.padEnd(48)}把备份恢复到空的数据目录或空的 PostgreSQL 数据库`);
  });
});

describe('the maildesk bin (server/operations/cli.ts)', () => {
  let runs = 0;
  /** Runs the bin as `maildesk <args>` would: its own module, this process's arguments and environment; what it printed and the status it exited with. */
  async function runBin(args: string[]) {
    const argv = process.argv;
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    process.argv = [argv[0], 'maildesk', ...args];
    try {
      // A module of its own each time (the query), so that the bin runs again.
      await import(/* @vite-ignore */ `${path.resolve('server/operations/cli.ts')}?run=${++runs}`);
      return { out: out.mock.calls.map((c) => c.join(' ')), err: err.mock.calls.map((c) => c.join(' ')), exits: exit.mock.calls.map((c) => c[0]) };
    } finally {
      process.argv = argv;
      out.mockRestore();
      err.mockRestore();
      exit.mockRestore();
    }
  }
  /** What the command line prints for `args` with this process's environment. */
  async function expected(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runCommandLine(capabilities, args, process.env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { out, err, exits: [status] };
  }

  it('When `maildesk help` is typed, then the bin prints the help on standard output and exits 0', async () => {
    const ran = await runBin(['help']);
    expect(ran).toEqual(await expected(['help']));
    expect(ran.exits).toEqual([0]);
    expect(ran.out).toHaveLength(1);
    expect(ran.err).toEqual([]);
  });

  it('When an unknown command is typed, then the bin says so on standard error and exits 2', async () => {
    const ran = await runBin(['frobnicate']);
    expect(ran).toEqual(await expected(['frobnicate']));
    expect(ran.exits).toEqual([2]);
    expect(ran.out).toEqual([]);
    expect(ran.err).toHaveLength(2);
  });
});
