/**
 * Totals of long lists: counting stops after COUNT_LIMIT matches; beyond it the answer says so,
 * with the database's row estimate for an unfiltered list, or the limit as a lower bound.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COUNT_LIMIT } from '../../server/core/list-query.js';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let token: string;
const rows = COUNT_LIMIT + 50;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.post('/api/manage/login/login', ROOT)).data.token;
  const { db, dialect } = t.services;
  const numbers =
    dialect === 'postgres'
      ? sql`select g as i from generate_series(1, ${sql.lit(rows)}) g`
      : sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${sql.lit(rows)}) select i from s`;
  // Guest messages from many addresses; every 1000th from the same IP.
  await sql`insert into guest_message (name, email, subject, content, ip, user_agent, created_at)
    select 'Guest ' || i, 'guest' || i || '@example.com', 'Hello', 'Text', case when i % 1000 = 0 then '10.9.9.9' else '10.0.0.1' end, 'test', '2026-01-01T00:00:00.000Z'
    from (${numbers}) n`.execute(db);
});
afterAll(() => t.close());

const list = (query: Record<string, unknown>) => t.get('/api/manage/guest_message/list', query, { token });

it('When fewer than the limit match, then the total is exact', async () => {
  const answer = await list({ filter: { ip: '10.9.9.9' } });
  expect(answer.data).toMatchObject({ total: Math.floor(rows / 1000), total_is_estimate: false });
  expect(answer.data.total_is_lower_bound).toBeUndefined();
});

it('When more than the limit match a filter, then the total is the limit, labelled a lower bound, and the page is still right', async () => {
  const answer = await list({ filter: { ip: '10.0.0.1' }, page: 2, page_size: 5 });
  expect(answer.data).toMatchObject({ total: COUNT_LIMIT, total_is_estimate: true, total_is_lower_bound: true, page: 2 });
  expect(answer.data.list).toHaveLength(5);
});

it('When an unfiltered list is longer than the limit, then its total is the database estimate, labelled, or the limit before statistics exist', async () => {
  const before = await list({});
  expect(before.data).toMatchObject({ total_is_estimate: true });
  if (before.data.total_is_lower_bound) expect(before.data.total).toBe(COUNT_LIMIT);
  await sql.raw(t.dialect === 'postgres' ? 'analyze guest_message' : 'analyze').execute(t.services.db);
  const after = await list({});
  expect(after.data).toMatchObject({ total_is_estimate: true });
  expect(after.data.total_is_lower_bound).toBeUndefined();
  // An estimate: near the real number (PostgreSQL samples), never presented as exact.
  expect(after.data.total).toBeGreaterThan(rows * 0.9);
  expect(after.data.total).toBeLessThan(rows * 1.1);
});
