/**
 * `maildesk doctor`: whether this installation can run, checked from its own environment —
 * the database answers, its migrations are this code's, outgoing mail's SMTP server answers, the
 * DNS resolver answers, the mail server's lookups answer quickly, files can be kept, Redis answers.
 * Exit 0 when nothing failed (warnings allowed), 1 otherwise.
 */
import { Resolver } from 'node:dns/promises';
import fs from 'node:fs';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import { createClient } from 'redis';
import { dkimKeys, dovecotQueries, postfixMaps } from '../../deploy/queries.js';
import { defineCommand, type CommandContext, type Words } from '../core/command.js';
import { createFileStore } from '../core/files.js';
import { openDatabase, type DatabaseHandle } from '../db/index.js';
import { migrationStatus } from '../db/migrate.js';

/** The doctor never starts Maildesk: it checks what starting it needs. */
type DoctorContext = Omit<CommandContext, 'startMaildesk'>;

type Outcome = 'ok' | 'warn' | 'fail';
export interface Finding {
  check: string;
  outcome: Outcome;
  words: Words;
}

const TIMEOUT_MS = 5000;
/** A mail-server lookup slower than this would hold up every message (they are index reads: a few ms). */
const SLOW_LOOKUP_MS = 500;

/** What a check that waited in vain says, in either language. */
class NoAnswer extends Error {
  constructor(readonly seconds: number) {
    super(`no answer within ${seconds} s`);
  }
}

const within = <T>(promise: Promise<T>, ms = TIMEOUT_MS) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new NoAnswer(ms / 1000)), ms).unref())]);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];
/** The same in Chinese: our own time-out translated; a library's or the system's message is shown as it came. */
const messageZh = (error: unknown) => (error instanceof NoAnswer ? `${error.seconds} 秒内无应答` : message(error));
/** A URL as shown: without its password. */
const shown = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

async function databaseChecks(ctx: DoctorContext, findings: Finding[]): Promise<DatabaseHandle | undefined> {
  const where = ctx.config.databaseUrl ? shown(ctx.config.databaseUrl) : `${ctx.config.dataDir}/maildesk.sqlite`;
  if (!ctx.config.databaseUrl && !fs.existsSync(`${ctx.config.dataDir}/maildesk.sqlite`)) {
    findings.push({ check: 'database', outcome: 'fail', words: { en: `no database at ${where} (DATA_DIR): start Maildesk once, or restore a backup`, zh: `${where}（DATA_DIR）处没有数据库：请先启动一次 Maildesk，或恢复备份` } });
    return undefined;
  }
  const database = openDatabase(ctx.config);
  const started = Date.now();
  try {
    await within(sql`select 1`.execute(database.db));
  } catch (error) {
    findings.push({ check: 'database', outcome: 'fail', words: { en: `${where} does not answer: ${message(error)}`, zh: `${where} 无应答：${messageZh(error)}` } });
    await database.close().catch(() => undefined);
    return undefined;
  }
  findings.push({ check: 'database', outcome: 'ok', words: { en: `${where} answers (${Date.now() - started} ms)`, zh: `${where} 有应答（${Date.now() - started} 毫秒）` } });
  const status = await migrationStatus(database);
  if (status.unknown.length) {
    findings.push({ check: 'migrations', outcome: 'fail', words: { en: `the database is newer than this code (${status.unknown.join(', ')}): run the newer release`, zh: `数据库比此版本新（${status.unknown.join('、')}）：请运行较新的版本` } });
  } else if (status.pending.length) {
    findings.push({ check: 'migrations', outcome: 'warn', words: { en: `${status.pending.length} to run at the next start (${status.pending.join(', ')})`, zh: `下次启动时将运行 ${status.pending.length} 个（${status.pending.join('、')}）` } });
  } else {
    findings.push({ check: 'migrations', outcome: 'ok', words: { en: 'current', zh: '已是最新' } });
  }
  return database;
}

/** Every lookup Postfix, Dovecot and OpenDKIM make, for an address that does not exist: each must answer, quickly. */
async function mailLookupChecks(ctx: DoctorContext, database: DatabaseHandle, findings: Finding[]) {
  const fill = (query: string) => query.replaceAll('%s', 'doctor@doctor.invalid').replaceAll('%u', 'doctor').replaceAll('%d', 'doctor.invalid').replaceAll('%4w', 'doct');
  const dovecot = dovecotQueries(ctx.config.mailDir, database.dialect);
  const queries: [string, string][] = [
    ...Object.entries(postfixMaps),
    ['dovecot password', dovecot.password],
    ['dovecot user', dovecot.user.replaceAll('%%', '%')],
    ['dkim', `SELECT ${dkimKeys.data.join(', ')} FROM ${dkimKeys.view} WHERE ${dkimKeys.key} = 'doctor.invalid'`],
  ];
  const slow: string[] = [];
  for (const [name, query] of queries) {
    const started = Date.now();
    try {
      await within(sql.raw(fill(query)).execute(database.db));
    } catch (error) {
      findings.push({ check: 'mail lookups', outcome: 'fail', words: { en: `${name} fails: ${message(error)}`, zh: `${name} 出错：${messageZh(error)}` } });
      return;
    }
    if (Date.now() - started > SLOW_LOOKUP_MS) slow.push(`${name} ${Date.now() - started} ms`);
  }
  if (slow.length) findings.push({ check: 'mail lookups', outcome: 'warn', words: { en: `slow: ${slow.join(', ')}`, zh: `较慢：${slow.join('、')}` } });
  else findings.push({ check: 'mail lookups', outcome: 'ok', words: { en: `${queries.length} lookups answer`, zh: `${queries.length} 个查询均有应答` } });
}

async function smtpCheck(ctx: DoctorContext, findings: Finding[]) {
  if (!ctx.config.smtpUrl) {
    findings.push({ check: 'smtp', outcome: 'warn', words: { en: `SMTP_URL is not set: messages are written to ${ctx.config.dataDir}/outbox, not sent`, zh: `未设置 SMTP_URL：邮件写入 ${ctx.config.dataDir}/outbox，不会发出` } });
    return;
  }
  const transport = nodemailer.createTransport(ctx.config.smtpUrl);
  try {
    await within(transport.verify());
    findings.push({ check: 'smtp', outcome: 'ok', words: { en: `${shown(ctx.config.smtpUrl)} answers`, zh: `${shown(ctx.config.smtpUrl)} 有应答` } });
  } catch (error) {
    findings.push({ check: 'smtp', outcome: 'fail', words: { en: `${shown(ctx.config.smtpUrl)}: ${message(error)}`, zh: `${shown(ctx.config.smtpUrl)}：${messageZh(error)}` } });
  } finally {
    transport.close();
  }
}

/** The resolver domain checks use must answer; "no such name" is an answer. */
async function dnsCheck(ctx: DoctorContext, findings: Finding[]) {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (ctx.config.dnsServers.length) resolver.setServers(ctx.config.dnsServers);
  const servers = resolver.getServers().join(', ');
  try {
    await within(resolver.resolveMx(ctx.config.mailHostname)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTFOUND' || error.code === 'ENODATA') return [];
      throw error;
    });
    findings.push({ check: 'dns', outcome: 'ok', words: { en: `${servers} answers`, zh: `${servers} 有应答` } });
  } catch (error) {
    findings.push({ check: 'dns', outcome: 'fail', words: { en: `${servers}: ${message(error)} (DNS_SERVERS)`, zh: `${servers}：${messageZh(error)}（DNS_SERVERS）` } });
  }
}

async function filesCheck(ctx: DoctorContext, database: DatabaseHandle, findings: Finding[]) {
  try {
    const files = await createFileStore(ctx.config, database.db);
    await within(files.has('doctor-check'));
    const where = ctx.config.s3 ? `S3 bucket ${ctx.config.s3.bucket}` : 'database';
    findings.push({ check: 'files', outcome: 'ok', words: { en: `kept in the ${where}`, zh: `保存在${ctx.config.s3 ? `存储桶 ${ctx.config.s3.bucket}` : '数据库'}中` } });
  } catch (error) {
    findings.push({ check: 'files', outcome: 'fail', words: { en: `the file store does not answer: ${message(error)}`, zh: `文件存储无应答：${messageZh(error)}` } });
  }
}

async function redisCheck(ctx: DoctorContext, findings: Finding[]) {
  if (!ctx.config.redisUrl) return;
  const client = createClient({ url: ctx.config.redisUrl, socket: { connectTimeout: 3000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await within(client.connect().then(() => client.ping()));
    findings.push({ check: 'redis', outcome: 'ok', words: { en: `${shown(ctx.config.redisUrl)} answers`, zh: `${shown(ctx.config.redisUrl)} 有应答` } });
  } catch (error) {
    findings.push({ check: 'redis', outcome: 'fail', words: { en: `${shown(ctx.config.redisUrl)}: ${message(error)}`, zh: `${shown(ctx.config.redisUrl)}：${messageZh(error)}` } });
  } finally {
    // When the connection never opened, disconnect() throws at once (not a rejected promise): the finding stands.
    try {
      await client.disconnect();
    } catch {
      // nothing to close
    }
  }
}

export async function diagnose(ctx: DoctorContext): Promise<Finding[]> {
  const findings: Finding[] = [];
  const database = await databaseChecks(ctx, findings);
  if (database) {
    try {
      await mailLookupChecks(ctx, database, findings);
      await filesCheck(ctx, database, findings);
    } finally {
      await database.close();
    }
  }
  await smtpCheck(ctx, findings);
  await dnsCheck(ctx, findings);
  await redisCheck(ctx, findings);
  return findings;
}

const marks: Record<Outcome, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

export const doctorCommand = defineCommand({
  name: 'doctor',
  summary: { en: 'Check the database, migrations, SMTP, DNS, the mail server’s lookups, files and Redis', zh: '检查数据库、迁移、SMTP、DNS、邮件服务器的查询、文件存储和 Redis' },
  details: { en: 'Exits 0 when nothing failed (warnings allowed), 1 otherwise.', zh: '没有失败项时退出码为 0（允许警告），否则为 1。' },
  async run(_args, ctx) {
    const findings = await diagnose(ctx);
    for (const f of findings) ctx.say(`${marks[f.outcome]}  ${f.check.padEnd(13)} ${f.words[ctx.locale]}`);
    const failed = findings.filter((f) => f.outcome === 'fail').length;
    ctx.say(failed ? { en: `${failed} check(s) failed.`, zh: `${failed} 项检查失败。` } : { en: 'Nothing failed.', zh: '没有失败项。' });
    return failed ? 1 : 0;
  },
});
