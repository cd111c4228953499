/**
 * Maildesk on an installation the test made itself (a restored backup, a fixture of an earlier
 * release): the real start-up on that DATA_DIR and DATABASE_URL, and calls through app.inject.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../server/config.js';
import { runCommandLine } from '../../server/operations/command-line.js';
import { capabilities } from '../../server/capabilities.js';
import { startMaildesk } from '../../server/start.js';

export async function startOn(env: Record<string, string>) {
  const config = loadConfig({ JOB_SCHEDULES: '0', JOB_POLL_MS: '600000', WEB_ROOT: '/nonexistent', PUBLIC_URL: 'http://maildesk.test', ...env });
  const maildesk = await startMaildesk(config);
  const call = async (method: 'GET' | 'POST', url: string, body?: Record<string, unknown>, token = '') => {
    const reply = await maildesk.app.inject({
      method,
      url,
      headers: { authentication: token, 'accept-language': 'en', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'GET' ? { query: body as Record<string, string> } : { payload: JSON.stringify(body ?? {}) }),
    });
    return reply;
  };
  return {
    ...maildesk,
    config,
    post: async (url: string, body?: Record<string, unknown>, token = '') => (await call('POST', url, body, token)).json(),
    get: (url: string, query?: Record<string, string>, token = '') => call('GET', url, query, token),
    signIn: async (username: string, password: string) => (await call('POST', '/api/manage/login/login', { username, password })).json(),
  };
}

/** Runs `maildesk <args>` in this process, as the bin does; returns its status and what it printed. */
export async function maildeskCommand(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCommandLine(capabilities, args, { LANG: 'en_US.UTF-8', ...env }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { status, out: out.join('\n'), err: err.join('\n') };
}

/** Loads a plain pg_dump into a database (psql, stopping at the first error). */
export function loadSqlDump(databaseUrl: string, file: string) {
  const result = spawnSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', databaseUrl, '-f', path.resolve(file)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`psql: ${result.stderr}`);
}
