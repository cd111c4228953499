/**
 * The one list vocabulary (page, page_size, sort, order, filter, q → list, total, page,
 * page_size), tried on real resources: customers (JSON body) and e-mail templates (query string).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
let root: string;
const MiB = 1024 ** 2;

interface Customer {
  id: number;
  email: string;
  username: string;
  status: string;
  is_verified: number;
  storage_max: number;
  created_at: string;
}

/** Five customers whose usernames share a tag no other record has. */
let tag: string;
let five: Customer[];

beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
  tag = `lst${crypto.randomBytes(3).toString('hex')}`;
  const specs = [
    { username: `${tag}-delta`, storage_max: 2 * MiB, status: 'active', is_verified: 1 },
    { username: `${tag}-alpha`, storage_max: 3 * MiB, status: 'disabled', is_verified: 0 },
    { username: `${tag}-echo`, storage_max: 2 * MiB, status: 'active', is_verified: 0 },
    { username: `${tag}-charlie`, storage_max: 1 * MiB, status: 'active', is_verified: 1 },
    { username: `${tag}-bravo`, storage_max: 2 * MiB, status: 'disabled', is_verified: 1 },
  ];
  five = [];
  for (const spec of specs) {
    const reply = await t.post('/api/manage/user/create', { email: uniqueEmail(), password: 'list-pass-1', ...spec }, { token: root });
    if (reply.code !== 0) throw new Error(JSON.stringify(reply));
    five.push(reply.data);
  }
});
afterAll(() => t.close());

const list = (body: Record<string, unknown>) => t.post('/api/manage/user/list', body, { token: root });
const ids = (reply: { data: { list: { id: number }[] } }) => reply.data.list.map((r) => r.id);
const names = (reply: { data: { list: { username: string }[] } }) => reply.data.list.map((r) => r.username);

describe('paging', () => {
  it('When a list is paged, then each page holds page_size records, the pages do not overlap, and total counts them all', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) pages.push(await list({ q: tag, page, page_size: 2, sort: 'id', order: 'asc' }));
    expect(pages.map((p) => p.data.list.length)).toEqual([2, 2, 1]);
    for (const [i, p] of pages.entries()) expect(p).toMatchObject({ status: 200, code: 0, data: { total: 5, page: i + 1, page_size: 2 } });
    expect(pages.flatMap(ids)).toEqual(five.map((c) => c.id));

    const beyond = await list({ q: tag, page: 4, page_size: 2 });
    expect(beyond.data).toMatchObject({ list: [], total: 5, page: 4 });
  });

  it('When no paging is given, then page 1 of 20 comes back, newest first', async () => {
    const reply = await list({ q: tag });
    expect(reply.data).toMatchObject({ page: 1, page_size: 20, total: 5 });
    expect(ids(reply)).toEqual(five.map((c) => c.id).reverse());
  });

  it('When page_size is over 100 or page is below 1, then it is a validation error', async () => {
    expect(await list({ page_size: 101 })).toMatchObject({ status: 400, code: 40000, errors: { page_size: { message: 'validation.too_big', params: { max: 100 } } } });
    expect(await list({ page: 0 })).toMatchObject({ code: 40000, errors: { page: { message: 'validation.too_small' } } });
    expect((await list({ page_size: 100 })).code).toBe(0);
  });
});

describe('sorting', () => {
  it('When sorted by a field, then the order follows it both ways', async () => {
    const sorted = five.map((c) => c.username).sort();
    expect(names(await list({ q: tag, sort: 'username' }))).toEqual(sorted);
    expect(names(await list({ q: tag, sort: 'username', order: 'asc' }))).toEqual(sorted);
    expect(names(await list({ q: tag, sort: 'username', order: 'DESC' }))).toEqual([...sorted].reverse());
  });

  it('When records tie on the sort field, then id decides, in the same direction, so that paging is stable', async () => {
    const byStorage = (order: 'asc' | 'desc') =>
      [...five].sort((a, b) => (a.storage_max - b.storage_max || a.id - b.id) * (order === 'asc' ? 1 : -1)).map((c) => c.id);
    expect(ids(await list({ q: tag, sort: 'storage_max', order: 'asc' }))).toEqual(byStorage('asc'));
    expect(ids(await list({ q: tag, sort: 'storage_max', order: 'desc' }))).toEqual(byStorage('desc'));
    const paged = [];
    for (const page of [1, 2, 3, 4, 5]) paged.push(...ids(await list({ q: tag, sort: 'storage_max', order: 'asc', page, page_size: 1 })));
    expect(paged).toEqual(byStorage('asc'));
  });

  it('When the sort field is not sortable or unknown, or the order is not asc/desc, then it is a validation error', async () => {
    expect(await list({ sort: 'password_hash' })).toMatchObject({ status: 400, code: 40000, errors: { sort: { message: 'validation.unknown_sort', params: { field: 'password_hash' } } } });
    expect(await list({ sort: 'status' })).toMatchObject({ code: 40000, errors: { sort: { message: 'validation.unknown_sort' } } });
    expect(await list({ sort: 'username; drop table user' })).toMatchObject({ code: 40000, errors: { sort: { message: 'validation.unknown_sort' } } });
    expect(await list({ sort: 'username', order: 'sideways' })).toMatchObject({ code: 40000, errors: { order: { message: 'validation.invalid_choice' } } });
  });
});

describe('filters', () => {
  it('When filtered by an exact value, then only matching records come back', async () => {
    const disabled = await list({ q: tag, filter: { status: 'disabled' }, sort: 'id', order: 'asc' });
    expect(ids(disabled)).toEqual(five.filter((c) => c.status === 'disabled').map((c) => c.id));
    expect(disabled.data.total).toBe(2);
    const verifiedActive = await list({ q: tag, filter: { status: 'active', is_verified: 1 }, sort: 'id', order: 'asc' });
    expect(ids(verifiedActive)).toEqual(five.filter((c) => c.status === 'active' && c.is_verified === 1).map((c) => c.id));
  });

  it('When the same list is asked again with other values (the SQL of a list is made once per shape), then each answer is for its own values', async () => {
    for (const status of ['active', 'disabled', 'active']) {
      const reply = await list({ q: tag, filter: { status }, sort: 'id', order: 'asc' });
      expect(ids(reply)).toEqual(five.filter((c) => c.status === status).map((c) => c.id));
    }
    const byName = async (q: string) => names(await list({ q, sort: 'id', order: 'asc' }));
    expect(await byName(`${tag}-alpha`)).toEqual([`${tag}-alpha`]);
    expect(await byName(`${tag}-echo`)).toEqual([`${tag}-echo`]);
    for (const [a, b] of [[0, 3], [1, 4]]) expect(ids(await list({ filter: { id: [five[a].id, five[b].id] }, sort: 'id', order: 'asc' }))).toEqual([five[a].id, five[b].id]);
  });

  it('When filtered by a list of values, then any of them matches; an empty list matches nothing', async () => {
    const wanted = [five[0].id, five[3].id];
    expect(ids(await list({ filter: { id: wanted }, sort: 'id', order: 'asc' }))).toEqual(wanted);
    expect((await list({ q: tag, filter: { status: ['active', 'disabled'] } })).data.total).toBe(5);
    expect((await list({ q: tag, filter: { id: [] } })).data.total).toBe(0);
  });

  it('When filtered by a range of created_at, then both ends are inclusive', async () => {
    const times = five.map((c) => c.created_at);
    const from = times[1];
    const to = times[3];
    const expected = five.filter((c) => c.created_at >= from && c.created_at <= to).map((c) => c.id);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(expected.length).toBeLessThan(5);
    expect(ids(await list({ q: tag, filter: { created_at_gte: from, created_at_lte: to }, sort: 'id', order: 'asc' }))).toEqual(expected);
    expect(ids(await list({ q: tag, filter: { created_at_gte: times[4] }, sort: 'id', order: 'asc' }))).toEqual(five.filter((c) => c.created_at >= times[4]).map((c) => c.id));
    expect((await list({ q: tag, filter: { created_at_lte: '2000-01-01T00:00:00.000Z' } })).data.total).toBe(0);
  });

  it('When the filter names an unknown, unfiltered or non-range field, then it is a validation error', async () => {
    expect(await list({ filter: { nope: 1 } })).toMatchObject({ status: 400, code: 40000, errors: { 'filter.nope': { message: 'validation.unknown_filter', params: { field: 'nope' } } } });
    expect(await list({ filter: { password_hash: 'x' } })).toMatchObject({ code: 40000, errors: { 'filter.password_hash': { message: 'validation.unknown_filter' } } });
    expect(await list({ filter: { email: 'x@example.com' } })).toMatchObject({ code: 40000, errors: { 'filter.email': { message: 'validation.unknown_filter' } } });
    expect(await list({ filter: { storage_max_gte: 1 } })).toMatchObject({ code: 40000, errors: { 'filter.storage_max_gte': { message: 'validation.unknown_filter' } } });
  });

  it('When a filter value has the wrong shape, then it is a validation error', async () => {
    expect(await list({ filter: { is_verified: 'yes' } })).toMatchObject({ code: 40000, errors: { 'filter.is_verified': { message: 'validation.invalid' } } });
    expect(await list({ filter: { status: { $ne: 'x' } } })).toMatchObject({ code: 40000, errors: { 'filter.status': { message: 'validation.invalid' } } });
    expect(await list({ filter: 'not an object' })).toMatchObject({ code: 40000, errors: { filter: {} } });
  });
});

describe('search', () => {
  it('When q is given, then it matches part of a searchable field, whatever the case', async () => {
    const reply = await list({ q: `${tag}-ALPHA` });
    expect(names(reply)).toEqual([`${tag}-alpha`]);
    const byEmail = await list({ q: five[2].email.slice(0, 12) });
    expect(ids(byEmail)).toEqual([five[2].id]);
  });

  it('When q holds % or _, then they are taken literally, not as wildcards', async () => {
    const stem = `pct${crypto.randomBytes(3).toString('hex')}`;
    for (const username of [`${stem}50%off`, `${stem}50xoff`, `${stem}a_b`, `${stem}axb`, `${stem}back\\slash`, `${stem}backxslash`]) {
      const reply = await t.post('/api/manage/user/create', { email: uniqueEmail(), password: 'list-pass-1', username }, { token: root });
      expect(reply.code).toBe(0);
    }
    expect(names(await list({ q: `${stem}50%` }))).toEqual([`${stem}50%off`]);
    expect(names(await list({ q: `${stem}a_b` }))).toEqual([`${stem}a_b`]);
    expect(names(await list({ q: `${stem}back\\` }))).toEqual([`${stem}back\\slash`]);
    expect((await list({ q: '%' })).data.total).toBe(1);
    expect((await list({ q: `${stem}_` })).data.total).toBe(0);
    expect(names(await list({ q: `${stem}a_` }))).toEqual([`${stem}a_b`]);
  });
});

describe('lists in a query string', () => {
  const templates = (query: Record<string, unknown>) => t.get('/api/manage/email_template/list', query, { token: root });

  it('When a query-string list is paged, sorted and filtered with filter as JSON, then it behaves like a body list', async () => {
    const all = await templates({ page_size: 100 });
    expect(all).toMatchObject({ status: 200, code: 0, data: { page: 1, page_size: 100 } });
    const en = all.data.list.filter((r: { locale: string }) => r.locale === 'en');
    expect(en.length).toBeGreaterThanOrEqual(5);

    const filtered = await templates({ filter: JSON.stringify({ locale: 'en' }), sort: 'key', order: 'desc', page: '1', page_size: '3' });
    expect(filtered.data).toMatchObject({ total: en.length, page: 1, page_size: 3 });
    expect(filtered.data.list.map((r: { key: string }) => r.key)).toEqual(en.map((r: { key: string }) => r.key).sort().reverse().slice(0, 3));

    const two = await templates({ filter: { key: ['verify_code', 'login_code'], locale: 'zh' } });
    expect(two.data.list.map((r: { key: string; locale: string }) => `${r.key}/${r.locale}`).sort()).toEqual(['login_code/zh', 'verify_code/zh']);

    expect((await templates({ q: 'password_reset' })).data.total).toBe(2);
  });

  it('When filter in a query string is not valid JSON, or names an unknown field, then it is a validation error', async () => {
    expect(await templates({ filter: '{"locale": "en"' })).toMatchObject({ status: 400, code: 40000, message: 'error.validation', errors: { filter: {} } });
    expect(await templates({ filter: '[1,2]' })).toMatchObject({ code: 40000, errors: { filter: {} } });
    expect(await templates({ filter: { body: 'x' } })).toMatchObject({ code: 40000, errors: { 'filter.body': { message: 'validation.unknown_filter' } } });
    expect(await templates({ page_size: '1000' })).toMatchObject({ code: 40000, errors: { page_size: { message: 'validation.too_big' } } });
    expect(await templates({ page_size: 'ten' })).toMatchObject({ code: 40000, errors: { page_size: {} } });
  });

  it('When the send log and guest messages are listed, then they take the same query string', async () => {
    const log = await t.get('/api/manage/email_send_log/list', { filter: { status: 'sent' }, sort: 'created_at', order: 'desc', page_size: 5 }, { token: root });
    const sent = await t.services.db.selectFrom('email_send_log').select('created_at').where('status', '=', 'sent').orderBy('created_at', 'desc').execute();
    expect(log).toMatchObject({ code: 0, data: { page: 1, page_size: 5, total: sent.length } });
    expect(log.data.list.map((e: { created_at: string }) => e.created_at)).toEqual(sent.slice(0, 5).map((e) => e.created_at));
    const messages = await t.get('/api/manage/guest_message/list', { q: 'nothing-like-this', page: 1 }, { token: root });
    expect(messages).toMatchObject({ code: 0, data: { list: [], total: 0 } });
  });
});
