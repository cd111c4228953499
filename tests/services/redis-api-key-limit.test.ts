/** With REDIS_URL, two instances of the app on one database count an API key's calls together (API_KEY_RATE_LIMIT). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin } from '../helpers/fixtures.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PER_MINUTE = 6;
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await startTestApp({ REDIS_URL: redisUrl, API_KEY_RATE_LIMIT: String(PER_MINUTE) });
  // The second instance serves the first one's database (on PostgreSQL; DATA_DIR on SQLite).
  const shared: Record<string, string> = first.config.databaseUrl ? { DATABASE_URL: first.config.databaseUrl } : { DATA_DIR: first.config.dataDir };
  second = await startTestApp({ REDIS_URL: redisUrl, API_KEY_RATE_LIMIT: String(PER_MINUTE), ...shared });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

it(`When a script spreads its calls with one key over both instances, then the ${PER_MINUTE}th is answered and the next refused with 429, on either`, async () => {
  const root = await operatorLogin(first);
  const made = await first.post('/api/manage/api_key/create', { name: 'Spread script', access: 'read', confirmation: ROOT.password }, { token: root });
  expect(made.code).toBe(0);
  const bearer = { token: '', headers: { authorization: `Bearer ${made.data.key}` } };
  for (let i = 0; i < PER_MINUTE; i++) {
    const app = i % 2 === 0 ? first : second;
    expect(await app.post('/api/manage/user/list', { page_size: 1 }, bearer), `call ${i + 1}`).toMatchObject({ code: 0 });
  }
  for (const app of [first, second]) {
    expect(await app.post('/api/manage/user/list', { page_size: 1 }, bearer)).toMatchObject({ status: 429, code: 42900, message: 'error.api_key_rate_limited', params: { limit: PER_MINUTE } });
  }
});
