/** `maildesk doctor` against a real Redis (REDIS_URL): it answers, in both languages. (Refused and silent ones: tests/api/operations-rules.test.ts.) */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { diagnose } from '../../server/operations/doctor.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-doctor-redis-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it('When REDIS_URL names a Redis that answers, then doctor says so with its address, in English and in Chinese', async () => {
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: redisUrl };
  const findings = await diagnose({ config: loadConfig(env), env, locale: 'en', say() {}, warn() {} });
  expect(findings.filter((f) => f.check === 'redis')).toEqual([{ check: 'redis', outcome: 'ok', words: { en: `${redisUrl} answers`, zh: `${redisUrl} 有应答` } }]);
});
