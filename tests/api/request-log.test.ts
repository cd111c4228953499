/**
 * The request log (server/core/logging.ts): one flat line per request once it is answered, with
 * the request id its answer carries; no query secret, body or header in it; errors with the
 * error and not the credentials around it; every line written out by the time the app has closed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openLog } from '../../server/core/logging.js';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';

const lines: string[] = [];
const entries = () => lines.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line) as Record<string, unknown>);
/** The lines of one request, once its line has been written (after the answer has gone). */
async function linesOf(requestId: unknown) {
  await vi.waitFor(() => expect(entries().some((e) => e.reqId === requestId && e.msg === 'request')).toBe(true));
  return entries().filter((e) => e.reqId === requestId);
}

let t: TestApp;
let operator: string;
beforeAll(async () => {
  t = await startTestApp({}, process.env.DATABASE_URL, { logger: { level: 'info', stream: { write: (line) => void lines.push(line) } } });
  operator = (await t.post('/api/manage/login/login', ROOT)).data.token;
});
afterAll(() => t?.close());

describe('the request line', () => {
  it('When a call is answered, then exactly one line names it, flat: method, URL, route, status, time, request id, address and caller', async () => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/manage/me/info', headers: { authentication: operator, 'content-type': 'application/json' }, payload: '{}', remoteAddress: '10.1.2.3' });
    expect(answer.statusCode).toBe(200);
    const operatorId = answer.json().data.id;
    const found = await linesOf(answer.headers['x-request-id']);
    expect(found).toHaveLength(1);
    const [line] = found;
    expect(line).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'POST',
      url: '/api/manage/me/info',
      route: '/api/manage/me/info',
      statusCode: 200,
      remoteAddress: '10.1.2.3',
      actor: `operator:${operatorId}`,
    });
    expect(typeof line.responseTime).toBe('number');
    // As every other line of the log: pino's time, process and host.
    expect(line).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    expect(Math.abs(Number(line.time) - Date.now())).toBeLessThan(60_000);
    // Flat: no nested request or answer objects to serialise.
    expect(Object.values(line).filter((value) => value !== null && typeof value === 'object')).toEqual([]);
  });

  it('When the URL holds quotes and backslashes, then the line is still one JSON line naming it', async () => {
    // Sent raw: the HTTP parser lets them through, inject() would have encoded them.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const head = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /api/no"such\\call HTTP/1.1\r\nHost: maildesk.test\r\nConnection: close\r\n\r\n'));
      socket.on('data', (chunk) => (received += chunk));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(head).toMatch(/^HTTP\/1\.1 404/);
    const id = /x-request-id: (\S+)/i.exec(head)?.[1];
    expect(await linesOf(id)).toMatchObject([{ msg: 'request', method: 'GET', url: '/api/no"such\\call', statusCode: 404 }]);
  });

  it('When a proxy sends X-Request-Id, then the answer and the line carry it', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'proxy-7f3a.42' } });
    expect(answer.headers['x-request-id']).toBe('proxy-7f3a.42');
    expect(await linesOf('proxy-7f3a.42')).toMatchObject([{ msg: 'request', method: 'GET', url: '/health', statusCode: 200 }]);
  });

  it('When a secret is in the query string or a password in the body, then neither is in the log, and the secret query value is censored', async () => {
    const query = await t.app.inject({ method: 'GET', url: '/api/manage/email_send_log/list?access_token=query-secret-8c7d6e&page=2', headers: { authentication: operator } });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login/login',
      headers: { 'content-type': 'application/json', authentication: 'header-token-3b2a1f', cookie: 'session=cookie-secret-5e4d' },
      payload: JSON.stringify({ email: 'nobody@example.com', password: 'body-password-9f8e7d' }),
    });
    const [queryLine] = await linesOf(query.headers['x-request-id']);
    expect(queryLine.url).toBe('/api/manage/email_send_log/list?access_token=%5BRedacted%5D&page=2');
    expect(await linesOf(signIn.headers['x-request-id'])).toMatchObject([{ url: '/api/admin/login/login', statusCode: signIn.statusCode }]);
    const log = lines.join('');
    for (const secret of ['query-secret-8c7d6e', 'body-password-9f8e7d', 'header-token-3b2a1f', 'cookie-secret-5e4d', operator]) {
      expect(log, `a secret is in the log: ${secret.slice(0, 4)}…`).not.toContain(secret);
    }
  });

  it('When an error is logged, then its line carries the error, not the credentials a library hung on it', async () => {
    // An HTTP client's error carries the request it made (e.g. a payment provider's), headers included.
    const error = Object.assign(new Error('the provider did not answer'), {
      code: 'ECONNRESET',
      config: { url: 'https://api.example.com/v1/charges', headers: { Authorization: 'Bearer provider-key-6a5b4c' } },
    });
    t.services.logger.error({ err: error }, 'payment provider');
    const line = entries().find((e) => e.msg === 'payment provider');
    expect(line).toMatchObject({ level: 50, err: { type: 'Error', message: 'the provider did not answer', code: 'ECONNRESET', stack: expect.stringContaining('request-log.test.ts') } });
    expect(lines.join('')).not.toContain('provider-key-6a5b4c');
  });
});

describe('an unexpected error during a call', () => {
  it('When a call fails (the database is gone), then the error is logged under the request id, without the Authentication header', async () => {
    const own: string[] = [];
    const app = await startTestApp({}, process.env.DATABASE_URL, { logger: { level: 'info', stream: { write: (line) => void own.push(line) } } });
    try {
      const token = (await app.post('/api/manage/login/login', ROOT)).data.token as string;
      await app.services.database.close();
      const failed = await app.app.inject({ method: 'POST', url: '/api/manage/me/info', headers: { authentication: token, 'content-type': 'application/json' }, payload: '{}' });
      expect(failed.statusCode).toBe(500);
      const id = failed.headers['x-request-id'];
      const ownEntries = () => own.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line));
      await vi.waitFor(() => expect(ownEntries().some((e) => e.reqId === id && e.msg === 'request')).toBe(true));
      const ofRequest = ownEntries().filter((e) => e.reqId === id);
      expect(ofRequest).toMatchObject([
        { level: 50, msg: 'unexpected error', err: { message: expect.any(String), stack: expect.any(String) } },
        { msg: 'request', statusCode: 500 },
      ]);
      expect(own.join('')).not.toContain(token);
      expect(own.join('')).not.toMatch(/authentication/i);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});

describe('closing', () => {
  it('When the process exits without closing the app (a crash), then the lines gathered so far are written as it exits', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-log-'));
    const file = path.join(dir, 'maildesk.log');
    try {
      const script = `import { openLog } from './server/core/logging.ts';
        const log = openLog({ level: 'info', destination: ${JSON.stringify(file)} });
        for (let i = 0; i < 50; i++) log.logger.info({ n: i }, 'before the crash');
        process.exit(3);`;
      const exit = await new Promise<number | null>((resolve) => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore' }).on('exit', resolve));
      expect(exit).toBe(3);
      const written = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
      expect(written.map((e) => e.n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('When far more than a batch is logged at once, in Chinese and with a line longer than a batch, then the file holds every line whole and in order', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-log-'));
    const file = path.join(dir, 'maildesk.log');
    try {
      const log = openLog({ level: 'info', destination: file })!;
      const long = '长'.repeat(40_000);
      for (let i = 0; i < 3000; i++) log.logger.info({ n: i, text: i === 1500 ? long : `第 ${i} 行：邮箱 anna@例子.cn` }, 'batch');
      await log.close();
      const written = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
      expect(written.map((e) => e.n)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
      expect(written[1500].text).toBe(long);
      expect(written[2999].text).toBe('第 2999 行：邮箱 anna@例子.cn');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('When the app closes right after answering, then every request has its line in the log file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-log-'));
    const file = path.join(dir, 'maildesk.log');
    const app = await startTestApp({}, process.env.DATABASE_URL, { logger: { level: 'info', destination: file } });
    try {
      const answers = await Promise.all(Array.from({ length: 200 }, () => app.app.inject({ method: 'GET', url: '/health' })));
      await app.close();
      const written = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
      const ids = new Set(written.filter((e) => e.msg === 'request').map((e) => e.reqId));
      expect(answers.filter((a) => !ids.has(a.headers['x-request-id']))).toHaveLength(0);
    } finally {
      await app.close().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
