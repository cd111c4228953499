/**
 * `maildesk backup FILE` and `maildesk restore FILE`: a consistent copy of the database taken
 * while the panel serves, and its return onto an empty installation. SQLite: an online copy in
 * one read transaction (VACUUM INTO; writers carry on); PostgreSQL: pg_dump's custom
 * format, and pg_restore onto an empty database. Files in the database (attachments) come
 * with it; the mail store, an S3 bucket and DKIM's copy on the mail server are the guide's
 * (docs/operations.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.js';
import { defineCommand, type CommandContext, type Words } from '../core/command.js';
import { migrationStatus } from '../db/migrate.js';
import { openDatabase } from '../db/index.js';

export const sqliteFileOf = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'maildesk.sqlite');
const isPostgres = (config: Pick<Config, 'databaseUrl'>) => !!config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl);

/** What a backup file holds, by its first bytes. */
function kindOf(file: string): 'sqlite' | 'postgres' | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    fs.readSync(fd, head, 0, 16, 0);
    if (head.toString('latin1') === 'SQLite format 3\u0000') return 'sqlite';
    if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'postgres';
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The PostgreSQL tools' arguments and environment for DATABASE_URL, its password out of the process list. */
function pgConnection(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ status: 127, stderr: error.message }));
    child.on('exit', (code) => resolve({ status: code ?? 1, stderr }));
  });
}

/** Writes the copy beside FILE first, and gives it its name only when it is whole. */
export async function backup(config: Config, file: string): Promise<{ kind: 'sqlite' | 'postgres'; bytes: number }> {
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  if (isPostgres(config)) {
    const { dbname, env } = pgConnection(config.databaseUrl!);
    const result = await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${dbname}`], env);
    if (result.status !== 0) {
      fs.rmSync(partial, { force: true });
      throw new Error(`pg_dump failed (${result.status}): ${result.stderr.trim()}`);
    }
    fs.renameSync(partial, file);
    return { kind: 'postgres', bytes: fs.statSync(file).size };
  }
  const source = sqliteFileOf(config);
  if (!fs.existsSync(source)) throw new Error(`No database at ${source} (DATA_DIR)`);
  const db = new SQLite(source, { fileMustExist: true, readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    // SQLite's online copy in one read transaction (VACUUM INTO): in WAL mode the panel's writes
    // go on meanwhile, and the copy is the database as it was when the copy began. (The page-by-page
    // backup API starts over whenever another connection writes, so a busy panel may never let it finish.)
    db.prepare('VACUUM INTO ?').run(partial);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  fs.renameSync(partial, file);
  return { kind: 'sqlite', bytes: fs.statSync(file).size };
}

/** Why a restore did not start, in the words of both languages (the command says it in the terminal's). */
export class RestoreRefused extends Error {
  constructor(readonly words: Words) {
    super(words.en);
  }
}

/** Restores FILE onto this installation's database, which must be empty (nothing is ever overwritten). */
export async function restore(config: Config, file: string): Promise<{ kind: 'sqlite' | 'postgres' }> {
  if (!fs.existsSync(file)) throw new RestoreRefused({ en: `No file ${file}`, zh: `没有文件 ${file}` });
  const kind = kindOf(file);
  if (!kind) throw new RestoreRefused({
      en: `${file} is not a Maildesk backup (neither a SQLite database nor a pg_dump custom-format archive)`,
      zh: `${file} 不是 Maildesk 备份（既不是 SQLite 数据库，也不是 pg_dump 自定义格式的归档）`,
    });
  const target = isPostgres(config) ? 'postgres' : 'sqlite';
  if (kind !== target) {
    const name = (k: 'sqlite' | 'postgres') => (k === 'sqlite' ? 'SQLite' : 'PostgreSQL');
    throw new RestoreRefused({
      en: `${file} is a ${name(kind)} backup, but this installation uses ${target === 'sqlite' ? 'SQLite (no DATABASE_URL)' : 'PostgreSQL (DATABASE_URL)'}`,
      zh: `${file} 是 ${name(kind)} 备份，而此安装使用 ${target === 'sqlite' ? 'SQLite（未设置 DATABASE_URL）' : 'PostgreSQL（DATABASE_URL）'}`,
    });
  }
  if (kind === 'postgres') {
    if (!(await postgresIsEmpty(config.databaseUrl!))) {
      throw new RestoreRefused({
        en: 'The database DATABASE_URL names is not empty: restore onto a new, empty database (createdb), so that nothing is overwritten',
        zh: 'DATABASE_URL 指向的数据库不是空的：请恢复到一个新的空数据库（createdb），以免覆盖任何数据',
      });
    }
    const { dbname, env } = pgConnection(config.databaseUrl!);
    const result = await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file], env);
    if (result.status !== 0) throw new Error(`pg_restore failed (${result.status}): ${result.stderr.trim()}`);
    return { kind };
  }
  const destination = sqliteFileOf(config);
  if (fs.existsSync(destination) && fs.statSync(destination).size > 0) {
    throw new RestoreRefused({
      en: `${config.dataDir} already has a database (${destination}): restore into an empty data directory (DATA_DIR), so that nothing is overwritten`,
      zh: `${config.dataDir} 中已有数据库（${destination}）：请恢复到一个空的数据目录（DATA_DIR），以免覆盖任何数据`,
    });
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check = source.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new RestoreRefused({ en: `${file} is damaged: ${String(check)}`, zh: `${file} 已损坏：${String(check)}` });
    await source.backup(destination);
  } finally {
    source.close();
  }
  return { kind };
}

/** No table outside PostgreSQL's own schemas. */
async function postgresIsEmpty(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_catalog.pg_class c join pg_catalog.pg_namespace s on s.oid = c.relnamespace
       where c.relkind in ('r', 'v', 'm', 'p') and s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg_toast%'`,
    );
    return rows[0].n === 0;
  } finally {
    await client.end();
  }
}

/** What else needs a copy: attachments not yet moved off this disk, a bucket. */
function remindOfFiles(ctx: CommandContext) {
  const dir = ctx.config.attachmentDir;
  const left = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => /^[0-9a-f]{32}$/.test(n)).length : 0;
  if (left) {
    ctx.warn({
      en: `${left} attachment(s) are still on disk in ${dir} (the panel moves them into the database at its next start): copy that directory too.`,
      zh: `${dir} 中仍有 ${left} 个附件在磁盘上（面板下次启动时会移入数据库）：请一并复制该目录。`,
    });
  }
  if (ctx.config.s3) {
    ctx.say({
      en: `Files are in the bucket ${ctx.config.s3.bucket}: back it up with the store's own tools (docs/operations.md).`,
      zh: `文件保存在存储桶 ${ctx.config.s3.bucket} 中：请用该存储自身的工具备份（见 docs/operations.md）。`,
    });
  }
}

export const backupCommands = [
  defineCommand({
    name: 'backup',
    usage: 'FILE',
    summary: { en: 'Copy the database to FILE while the panel serves (SQLite online backup, or pg_dump)', zh: '在面板运行时把数据库复制到 FILE（SQLite 在线备份，或 pg_dump）' },
    details: {
      en: 'A SQLite database is copied with its online backup; PostgreSQL with pg_dump --format=custom (pg_dump must be on PATH). Attachments kept in the database come with it. FILE must not exist.',
      zh: 'SQLite 用其在线备份复制；PostgreSQL 用 pg_dump --format=custom（PATH 中须有 pg_dump）。保存在数据库中的附件一并备份。FILE 不得已存在。',
    },
    async run(args, ctx) {
      const file = args.find((a) => !a.startsWith('--'));
      if (!file) {
        ctx.warn({ en: 'Name the file: maildesk backup FILE', zh: '请指明文件：maildesk backup 文件' });
        return 2;
      }
      if (fs.existsSync(file)) {
        ctx.warn({ en: `${file} exists already: name a new file.`, zh: `${file} 已存在：请指定一个新文件。` });
        return 1;
      }
      const started = Date.now();
      const made = await backup(ctx.config, path.resolve(file));
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      ctx.say({
        en: `Backup of the ${made.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database written to ${file} (${made.bytes} bytes, ${seconds} s).`,
        zh: `${made.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} 数据库的备份已写入 ${file}（${made.bytes} 字节，${seconds} 秒）。`,
      });
      remindOfFiles(ctx);
      return 0;
    },
  }),
  defineCommand({
    name: 'restore',
    usage: 'FILE',
    summary: { en: 'Restore a backup onto an empty data directory or an empty PostgreSQL database', zh: '把备份恢复到空的数据目录或空的 PostgreSQL 数据库' },
    details: {
      en: 'Refuses a target that already holds a database. Start Maildesk afterwards: a backup of an earlier release is migrated forward at that start.',
      zh: '目标已有数据库时拒绝恢复。恢复后启动 Maildesk：较早版本的备份会在启动时升级。',
    },
    async run(args, ctx) {
      const file = args.find((a) => !a.startsWith('--'));
      if (!file) {
        ctx.warn({ en: 'Name the file: maildesk restore FILE', zh: '请指明文件：maildesk restore 文件' });
        return 2;
      }
      try {
        const done = await restore(ctx.config, path.resolve(file));
        const database = openDatabase(ctx.config);
        const status = await migrationStatus(database).finally(() => database.close());
        ctx.say({
          en: `Restored ${file} onto ${done.kind === 'sqlite' ? sqliteFileOf(ctx.config) : 'the PostgreSQL database (DATABASE_URL)'}.`,
          zh: `已将 ${file} 恢复到${done.kind === 'sqlite' ? ` ${sqliteFileOf(ctx.config)}` : ' PostgreSQL 数据库（DATABASE_URL）'}。`,
        });
        if (status.unknown.length) {
          ctx.warn({ en: 'This backup was made by a newer Maildesk: start that release on it.', zh: '此备份由较新版本的 Maildesk 生成：请用该版本启动。' });
        } else if (status.pending.length) {
          ctx.say({ en: `It is from an earlier release: ${status.pending.length} migration(s) run at the next start.`, zh: `它来自较早的版本：下次启动时将运行 ${status.pending.length} 个迁移。` });
        }
        ctx.say({ en: 'Next: the mail store and the mail server (docs/operations.md#restoring), then start Maildesk.', zh: '下一步：恢复邮件存储和邮件服务器（见 docs/operations.md#restoring），然后启动 Maildesk。' });
        return 0;
      } catch (error) {
        if (!(error instanceof RestoreRefused)) throw error;
        ctx.warn({ en: `Not restored: ${error.words.en}.`, zh: `未恢复：${error.words.zh}。` });
        return 1;
      }
    },
  }),
];
