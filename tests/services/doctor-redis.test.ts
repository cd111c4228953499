/**
 * `maildesk doctor` against a real Redis (REDIS_URL): it answers, in both languages, with the
 * password of the URL hidden; a user its ACL does not allow to PING fails with Redis's own words.
 * (Refused, silent and dropping ones: tests/api/operations-rules.test.ts and operations-rules-4.test.ts.)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { diagnose } from '../../server/operations/doctor.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-doctor-redis-'));
const admin = createClient({ url: redisUrl });
// Two ACL users of this run: one may do what a connection does (PING too), one all of that but PING.
const tag = crypto.randomBytes(3).toString('hex');
const users = { answers: `maildesk-doctor-ok-${tag}`, noPing: `maildesk-doctor-noping-${tag}` };
beforeAll(async () => {
  await admin.connect();
  await admin.sendCommand(['ACL', 'SETUSER', users.answers, 'reset', 'on', '>redis-secret-8', '+@connection']);
  await admin.sendCommand(['ACL', 'SETUSER', users.noPing, 'reset', 'on', '>acl-secret-2', '+@connection', '-ping']);
});
afterAll(async () => {
  await admin.sendCommand(['ACL', 'DELUSER', users.answers, users.noPing]).catch(() => undefined);
  await admin.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const redisFinding = async (url: string) => {
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: url };
  return (await diagnose({ config: loadConfig(env), env, locale: 'en', say() {}, warn() {} })).filter((f) => f.check === 'redis');
};
/** REDIS_URL with a user and password, and as doctor shows it. */
const withUser = (user: string, password: string) => {
  const url = new URL(redisUrl);
  url.username = user;
  url.password = password;
  return { url: url.toString(), shown: url.toString().replace(`:${password}@`, ':***@') };
};

it('When REDIS_URL names a Redis that answers, then doctor says so with its address, in English and in Chinese', async () => {
  expect(await redisFinding(redisUrl)).toEqual([{ check: 'redis', outcome: 'ok', words: { en: `${redisUrl} answers`, zh: `${redisUrl} 有应答` } }]);
});

it('When REDIS_URL carries a user and password, then doctor signs in with them and shows the address with the password hidden', async () => {
  const { url, shown } = withUser(users.answers, 'redis-secret-8');
  expect(shown).not.toContain('redis-secret-8');
  expect(await redisFinding(url)).toEqual([{ check: 'redis', outcome: 'ok', words: { en: `${shown} answers`, zh: `${shown} 有应答` } }]);
});

it('When Redis takes the sign-in but its ACL does not let the user PING, then Redis fails with its own words', async () => {
  const { url, shown } = withUser(users.noPing, 'acl-secret-2');
  const [found] = await redisFinding(url);
  expect(found).toMatchObject({ check: 'redis', outcome: 'fail' });
  expect(found.words.en).toMatch(new RegExp(`^${shown.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: NOPERM .*'ping'`));
  expect(found.words.zh.startsWith(`${shown}：NOPERM`)).toBe(true);
});
