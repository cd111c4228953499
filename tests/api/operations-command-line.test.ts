/**
 * The `maildesk` command line as an operator meets it (found untested by Stryker on
 * server/operations): its language, its help and exit statuses, an unknown command, a command's
 * own help, a failing command; and the health and metrics routes' answers to a client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { maildeskCommand } from '../helpers/installation.js';

const english = "maildesk — Maildesk's command line";
const chinese = 'maildesk —— Maildesk 命令行';

describe('the command line', () => {
  it('When the operator chooses a language, then --lang (either form) wins over LC_ALL, which wins over LANG; zh* is Chinese, anything else English', async () => {
    const title = async (args: string[], env: Record<string, string>) => (await maildeskCommand(['help', ...args], env)).out.split('\n')[0];
    expect(await title([], { LANG: 'zh_CN.UTF-8' })).toBe(chinese);
    expect(await title([], { LANG: 'de_DE.UTF-8' })).toBe(english);
    expect(await title([], { LANG: 'en_US.UTF-8', LC_ALL: 'zh_TW.UTF-8' })).toBe(chinese);
    expect(await title([], { LANG: 'zh_CN.UTF-8', LC_MESSAGES: 'en_GB.UTF-8' })).toBe(english);
    expect(await title(['--lang', 'zh'], { LANG: 'en_US.UTF-8' })).toBe(chinese);
    expect(await title(['--lang=zh'], { LANG: 'en_US.UTF-8' })).toBe(chinese);
    expect(await title(['--lang=en'], { LANG: 'zh_CN.UTF-8' })).toBe(english);
    // Only a language that starts with zh: not one that merely has it inside.
    expect(await title(['--lang=en-zh'], {})).toBe(english);
  });

  it('When maildesk is run with nothing, then it shows its help and fails (2); asked for help (help, --help, -h), it shows it and succeeds', async () => {
    const none = await maildeskCommand([], {});
    expect(none.status).toBe(2);
    expect(none.out.split('\n')[0]).toBe(english);
    for (const ask of ['help', '--help', '-h']) {
      const help = await maildeskCommand([ask], {});
      expect(help, ask).toMatchObject({ status: 0, out: none.out });
    }
    // --lang and its value are not taken for the command.
    expect(await maildeskCommand(['--lang', 'en', '--help'], {})).toMatchObject({ status: 0, out: none.out });
  });

  it('When the help lists the commands, then each has its usage and its summary, the summaries aligned in one column (a usage too long for it gets a line of its own)', async () => {
    const { out } = await maildeskCommand(['help'], {});
    const lines = out.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      english,
      '',
      'Usage: maildesk <command> [arguments]   (--help on any command; --lang en|zh)',
      'It reads the environment npm start reads: DATA_DIR, DATABASE_URL, SMTP_URL, REDIS_URL, S3_*, … (docs/configuration.md).',
      '',
      'Commands:',
    ]);
    const doctor = lines.find((l) => l.startsWith('  doctor '))!;
    const backup = lines.find((l) => l.startsWith('  backup FILE '))!;
    const column = doctor.indexOf('Check the database');
    expect(column).toBeGreaterThan(10);
    expect(backup.indexOf('Copy the database')).toBe(column);
    const long = lines.findIndex((l) => l.startsWith('  import postfixadmin --source URL'));
    expect(lines[long + 1].indexOf('Move a PostfixAdmin installation')).toBe(column);
    expect(lines[long + 1].slice(0, column).trim()).toBe('');
  });

  it('When a command is unknown, then it says so in the operator\'s language on standard error with the help, and fails (2)', async () => {
    const unknown = await maildeskCommand(['frobnicate', 'now'], { LANG: 'en_US.UTF-8' });
    expect(unknown.status).toBe(2);
    expect(unknown.out).toBe('');
    expect(unknown.err.split('\n')[0]).toBe('Unknown command: frobnicate now');
    expect(unknown.err).toContain(english);
    expect((await maildeskCommand(['frobnicate'], { LANG: 'zh_CN.UTF-8' })).err.split('\n')[0]).toBe('未知命令: frobnicate');
  });

  it('When a command is asked for its help (--help or -h), then it shows its usage, summary and details and runs nothing', async () => {
    for (const ask of ['--help', '-h']) {
      const help = await maildeskCommand(['backup', ask], { DATA_DIR: '/nonexistent/never-made' });
      expect(help.status, ask).toBe(0);
      const lines = help.out.split('\n');
      expect(lines.slice(0, 3), ask).toEqual(['maildesk backup FILE', '', 'Copy the database to FILE while the panel serves (SQLite online backup, or pg_dump)']);
      expect(lines[4], ask).toMatch(/^A SQLite database is copied with its online backup/);
    }
    // The longest name is the command: "operator create", not "operator".
    expect((await maildeskCommand(['operator', 'create', '--help'], {})).out.split('\n')[0]).toBe('maildesk operator create USERNAME [--role superadmin|support|billing] [--password-stdin]');
  });

  it('When a command fails, then it says "Failed" and why, in the operator\'s language, and exits 1', async () => {
    const env = { DATA_DIR: '/nonexistent/never-made', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const failed = await maildeskCommand(['operator', 'reset-second-factor', 'someone'], { ...env, LANG: 'en_US.UTF-8' });
    expect(failed.status).toBe(1);
    expect(failed.err).toMatch(/^Failed: \S/);
    expect((await maildeskCommand(['operator', 'reset-second-factor', 'someone'], { ...env, LANG: 'zh_CN.UTF-8' })).err).toMatch(/^失败: \S/);
  });
});

describe('health and metrics, as a client reads them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: 'metrics-token-0123456789' });
  });
  afterAll(() => t.close());

  it('When a monitor asks /health and /ready, then the answers are never cached', async () => {
    for (const url of ['/health', '/ready']) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['cache-control'], url).toBe('no-store');
    }
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toMatchObject({ status: 'ok' });
  });

  it('When /metrics is asked without the token, then it is refused with a bearer challenge; with it (spaces around), it answers', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789x' } });
    expect(wrong.statusCode).toBe(401);
    const taken = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: '  bearer   metrics-token-0123456789  ' } });
    expect(taken.statusCode).toBe(200);
    expect(taken.body).toMatch(/^# HELP /m);
  });

  it('When metrics are off (no token, no allowed address), then /metrics is not there', async () => {
    const off = await startTestApp();
    try {
      const answer = await off.app.inject({ method: 'GET', url: '/metrics' });
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      expect(answer.body).toBe('Not found\n');
    } finally {
      await off.close();
    }
  });
});
