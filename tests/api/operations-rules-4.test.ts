/**
 * `maildesk doctor`, /metrics and the command line at the rules operations-rules.test.ts and
 * operations-rules-2.test.ts leave open (found by reading server/operations/doctor.ts,
 * metrics.ts and command-line.ts for what Stryker would change): something at REDIS_URL that drops
 * every connection, Dovecot's user lookup failing alone, the system's resolvers when
 * DNS_SERVERS is empty; what each metric says it is, scrapes by address only, figures of a
 * quiet day and of a job name gone quiet; and how the command line lays out and finds the
 * commands of any capability. On PostgreSQL too when DATABASE_URL is set.
 */
import { Resolver } from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postfixMaps } from '../../deploy/queries.js';
import { loadConfig } from '../../server/config.js';
import { defineCapability } from '../../server/core/capability.js';
import { defineCommand, type Command } from '../../server/core/command.js';
import { diagnose, type Finding } from '../../server/operations/doctor.js';
import { runCommandLine } from '../../server/operations/command-line.js';
import { moveFilesJob } from '../../server/operations/move-files.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { sample } from '../helpers/metrics.js';
import { doctorNeighbours } from '../helpers/operations.js';

const postgresServer = process.env.DATABASE_URL;
const METRICS_TOKEN = 'metrics-rules-4-token-9f8e7d';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-operations-rules-4-'));
let t: TestApp;
let neighbours: Awaited<ReturnType<typeof doctorNeighbours>>;
let dns: DnsServer;
let smtp: Awaited<ReturnType<typeof doctorNeighbours>>['smtp'];
/** Every lookup the mail server makes: the Postfix maps, Dovecot's two and OpenDKIM's. */
const lookupCount = Object.keys(postfixMaps).length + 3;

beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN });
  neighbours = await doctorNeighbours();
  ({ dns, smtp } = neighbours);
});
afterAll(async () => {
  await neighbours?.close();
  await t?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The environment of the running test app, as its npm start would have it. */
const envOf = (more: Record<string, string> = {}) => neighbours.env(t, more);
const findings = (env: Record<string, string>): Promise<Finding[]> => diagnose({ config: loadConfig(env), env, locale: 'en', say() {}, warn() {} });
const finding = async (env: Record<string, string>, check: string) => (await findings(env)).filter((f) => f.check === check);

describe('doctor: Redis', () => {
  // A Redis that answers, and one whose user may not PING: tests/services/doctor-redis.test.ts, against the real one.
  it('When something at REDIS_URL drops every connection at once, then Redis fails with the client\'s words, not with the wait\'s (no answer within 5 s)', async () => {
    const dropping = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const { port } = dropping.address() as net.AddressInfo;
    try {
      expect(await finding(envOf({ REDIS_URL: `redis://127.0.0.1:${port}` }), 'redis')).toEqual([
        { check: 'redis', outcome: 'fail', words: { en: `redis://127.0.0.1:${port}: Socket closed unexpectedly`, zh: `redis://127.0.0.1:${port}：Socket closed unexpectedly` } },
      ]);
    } finally {
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});

describe('doctor: the mail server\'s lookups and DNS', () => {
  const run = (text: string) => sql.raw(text).execute(t.services.db);

  it('When only Dovecot\'s user lookup fails, then the check names that lookup and why, in both languages', async () => {
    // mail_mailbox without its quota column: Postfix's lookups and Dovecot's password lookup still answer.
    let restore: () => Promise<void>;
    if (t.dialect === 'postgres') {
      await run('ALTER VIEW mail_mailbox RENAME TO mail_mailbox_whole');
      restore = async () => {
        await run('DROP VIEW mail_mailbox');
        await run('ALTER VIEW mail_mailbox_whole RENAME TO mail_mailbox');
      };
    } else {
      const original = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'view' and name = 'mail_mailbox'`.execute(t.services.db)).rows[0].sql;
      await run(original.replace('CREATE VIEW mail_mailbox AS', 'CREATE VIEW mail_mailbox_whole AS'));
      await run('DROP VIEW mail_mailbox');
      restore = async () => {
        await run('DROP VIEW mail_mailbox');
        await run('DROP VIEW mail_mailbox_whole');
        await run(original);
      };
    }
    await run('CREATE VIEW mail_mailbox AS SELECT address, password_hash, local_part, domain FROM mail_mailbox_whole');
    try {
      const found = await findings(envOf());
      expect(found.map((f) => `${f.outcome} ${f.check}`)).toEqual(['ok database', 'ok migrations', 'fail mail lookups', 'ok files', 'ok smtp', 'ok dns']);
      const why = t.dialect === 'postgres' ? 'column "quota" does not exist' : 'no such column: quota';
      expect(found[2].words).toEqual({ en: `dovecot user fails: ${why}`, zh: `dovecot user 出错：${why}` });
    } finally {
      await restore();
    }
    expect(await finding(envOf(), 'mail lookups')).toEqual([{ check: 'mail lookups', outcome: 'ok', words: { en: `${lookupCount} lookups answer`, zh: `${lookupCount} 个查询均有应答` } }]);
  });

  it('When DNS_SERVERS is empty, then the DNS line names the system\'s resolvers', async () => {
    const system = new Resolver().getServers().join(', ');
    expect(system).not.toBe('');
    const [check] = await finding(envOf({ DNS_SERVERS: '', MAIL_HOSTNAME: 'localhost' }), 'dns');
    expect(check.words.en.startsWith(check.outcome === 'ok' ? `${system} answers` : `${system}: `), check.words.en).toBe(true);
  });
});

describe('/metrics', () => {
  const scrape = async (app = t, headers: Record<string, string> = { authorization: `Bearer ${METRICS_TOKEN}` }, remoteAddress = '127.0.0.1') =>
    app.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
  const figures = async () => {
    const answer = await scrape();
    expect(answer.statusCode).toBe(200);
    return answer.body;
  };
  const linesOf = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

  it('When a monitor reads the figures, then each says what it counts in its HELP line', async () => {
    const help = (await figures()).split('\n').filter((l) => l.startsWith('# HELP ')).sort();
    expect(help).toEqual(
      [
        '# HELP maildesk_db_pool_connections Database connections of this instance: in_use, idle, waiting (requests waiting for one) and max. SQLite: one writer and one reader, always open.',
        '# HELP maildesk_http_request_duration_seconds Time to answer, by call (route pattern), method and status.',
        '# HELP maildesk_http_requests_total Requests answered, by call (route pattern), method and status.',
        '# HELP maildesk_jobs Jobs by name and state: queued (waiting, or due later), active (running), failed (kept after their last try).',
        '# HELP maildesk_jobs_oldest_waiting_seconds How long the job that has waited longest since it was due has waited (0: none waits).',
        '# HELP maildesk_mail_messages_last_day Outgoing messages of the last 24 hours in the send log, by status (sent, failed, pending).',
        '# HELP maildesk_mail_store_bytes Bytes in use on each mail store, as Dovecot wrote them back (measured every five minutes), by store and state (active, draining, down).',
        '# HELP maildesk_mail_store_mailboxes Mailboxes on each mail store (measured every five minutes), by store and state (active, draining, down).',
        '# HELP maildesk_sign_in_failures_total Sign-ins refused (wrong password or code, throttled, …), by area.',
      ].sort(),
    );
  });

  it('When only METRICS_ALLOW is set, then a listed address reads the figures, and any other is refused 401 whatever token it brings; a quiet day\'s mail figures are 0', async () => {
    const allowOnly = await startTestApp({ METRICS_ALLOW: '10.7.7.7' });
    try {
      const listed = await scrape(allowOnly, {}, '10.7.7.7');
      expect(listed.statusCode).toBe(200);
      expect(linesOf(listed.body, 'maildesk_mail_messages_last_day')).toEqual([
        'maildesk_mail_messages_last_day{status="sent"} 0',
        'maildesk_mail_messages_last_day{status="failed"} 0',
        'maildesk_mail_messages_last_day{status="pending"} 0',
      ]);
      for (const headers of [{ authorization: 'Bearer some-token' }, {}] as Record<string, string>[]) {
        const refused = await scrape(allowOnly, headers, '10.7.7.8');
        expect(refused.statusCode, JSON.stringify(headers)).toBe(401);
        expect(refused.body).toBe('Unauthorized\n');
      }
    } finally {
      await allowOnly.close();
    }
  });

  // SQLite's queue counts the last day by the app's clock, which a test can move; pg-boss counts by the database's.
  if (!postgresServer) {
    it('When a job name\'s last run is more than a day old, then the name leaves the job figures', async () => {
      await t.services.jobs.enqueue(t.services.db, moveFilesJob, {}, { uniqueKey: 'metrics-rules-4' });
      await t.services.jobs.drain();
      const name = { name: 'files.move_from_disk' };
      expect([sample(await figures(), 'maildesk_jobs', { ...name, state: 'queued' }), sample(await figures(), 'maildesk_jobs', { ...name, state: 'failed' })]).toEqual([0, 0]);
      await t.moveClock(25 * 3600_000);
      try {
        expect(linesOf(await figures(), 'maildesk_jobs').filter((l) => l.includes('name="files.move_from_disk"'))).toEqual([]);
      } finally {
        t.resetClock();
      }
    });
  }
});

describe('the command line, for any capability\'s commands', () => {
  /** A capability's commands that say what they were given. */
  const command = (name: string, summary: string, usage?: string): Command =>
    defineCommand({
      name,
      usage,
      summary: { en: summary, zh: `${summary}（中文）` },
      async run(args, ctx) {
        ctx.say(`${name}: ${args.join(' ')}`);
        return 0;
      },
    });
  async function maildesk(commands: Command[], args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runCommandLine([defineCapability({ name: 'queues', commands })], args, { LANG: 'en_US.UTF-8' }, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { status, out: out.join('\n'), err: err.join('\n') };
  }
  const commandLines = (help: string) => help.split('\n').slice(6);

  it('When the usages are short, then the summaries start two spaces past the longest', async () => {
    const { out } = await maildesk([command('queue', 'Show the queue'), command('queue clear', 'Empty a queue', 'NAME')], ['help']);
    expect(commandLines(out)).toEqual(['  queue             Show the queue', '  queue clear NAME  Empty a queue', '']);
  });

  it('When a usage is longer, then the column stops at 48: a usage of 46 characters still has its summary beside it, one of 47 gets a line of its own', async () => {
    const at46 = command('queue move', 'Move jobs', 'FROM TO [--limit COUNT] [--dry-run]');
    const at47 = command('queue merge', 'Merge queues', 'FROM TO [--limit COUNT] [--dry-run]');
    const longer = command('queue import', 'Import jobs', '--source URL [--map NAME=QUEUE ...] [--dry-run]');
    expect(['queue move FROM TO [--limit COUNT] [--dry-run]'.length, 'queue merge FROM TO [--limit COUNT] [--dry-run]'.length]).toEqual([46, 47]);
    const { out } = await maildesk([at46, at47, longer], ['help']);
    expect(commandLines(out)).toEqual([
      `  ${'queue move FROM TO [--limit COUNT] [--dry-run]'.padEnd(48)}Move jobs`,
      '  queue merge FROM TO [--limit COUNT] [--dry-run]',
      `${' '.repeat(50)}Merge queues`,
      '  queue import --source URL [--map NAME=QUEUE ...] [--dry-run]',
      `${' '.repeat(50)}Import jobs`,
      '',
    ]);
  });

  it('When one command\'s words begin another\'s, then the longer one is run, whichever the capability lists first', async () => {
    const short = command('queue', 'Show the queue');
    const long = command('queue clear', 'Empty a queue', 'NAME');
    for (const commands of [[short, long], [long, short]]) {
      const order = commands.map((c) => c.name).join(', ');
      expect(await maildesk(commands, ['queue', 'clear', 'mail']), order).toEqual({ status: 0, out: 'queue clear: mail', err: '' });
      expect(await maildesk(commands, ['queue', 'mail']), order).toEqual({ status: 0, out: 'queue: mail', err: '' });
    }
  });
});
