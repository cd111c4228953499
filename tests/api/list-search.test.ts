/**
 * Every list call that takes `q` (the OpenAPI description says all of the one list vocabulary do)
 * searches with it (issue 33: 14 lists ignored it): walked over every such call the app serves, in
 * each area, with two or more records the caller sees, `q` set to what one record has in its
 * searched fields and another has not narrows the list to records that have it, that one among
 * them. What is searched is declared per resource (`search: true`), and read through the substring
 * indexes (tests/api/indexes.test.ts checks their plans).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { pathOf, type ResourceDeclaration } from '../../resources/define.js';
import { product } from '../../resources/product.js';
import { capabilities } from '../../server/capabilities.js';
import type { CallSpec } from '../../server/core/calls.js';
import { startTestApp, ROOT, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp, teamMemberOf, uniqueEmail, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, MiB, mailboxOwner, mailFixtures } from '../helpers/mail-fixtures.js';
import { shopFixtures } from '../helpers/shop-fixtures.js';
import { openTicket } from '../helpers/support.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
let root: string;
let customer: CustomerSession;
let owner: { token: string };

const tag = () => crypto.randomBytes(3).toString('hex');
async function ok(reply: Promise<{ code: number; data: any; message: string }>, what: string) {
  const r = await reply;
  if (r.code !== 0) throw new Error(`${what} failed: ${r.code} ${r.message} ${JSON.stringify(r)}`);
  return r.data;
}

/** Two or more records of every searchable list, as the area's caller (customer, operator, mailbox owner) sees them. */
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
  customer = await signUpCustomer(t);
  await signUpCustomer(t);
  await operatorWithRole(t, 'support');
  const mail = mailFixtures(t);
  const shop = shopFixtures(t);
  const as = { token: customer.token };
  await mail.grant(customer.id, 10 * GiB, { label: 'First block' });
  await mail.grant(customer.id, GiB, { label: 'Spare capacity' });
  const domain = await mail.activeDomain(customer);
  const second = await mail.activeDomain(customer);
  for (const local of ['anna', 'bert']) await mail.mailbox(customer.token, domain.id, `${local}${tag()}`, { name: `${local} Person` });
  for (const local of ['gone', 'left']) {
    const box = await mail.mailbox(customer.token, second.id, `${local}${tag()}`, { name: `${local} Person` });
    await ok(t.post('/api/admin/email/delete', { id: box.id }, as), 'mailbox delete');
  }
  await mail.alias(customer.token, domain.id, 'someone@example.org', `sales${tag()}`);
  await mail.alias(customer.token, domain.id, 'other@example.net', `help${tag()}`);
  for (let i = 0; i < 2; i++) {
    const alias = await mail.pendingDomain(customer);
    await ok(t.post('/api/admin/alias_domain/create', { alias_domain_id: alias.id, target_domain_id: i === 0 ? domain.id : second.id }, as), 'alias domain');
  }
  await teamMemberOf(t, customer, { username: 'Carla Member' });
  await teamMemberOf(t, customer, { username: 'Dieter Member' });
  for (const name of ['Invited Eve', 'Invited Finn']) await ok(t.post('/api/admin/user/create', { email: uniqueEmail('invited'), username: name }, as), 'invitation');
  for (const sender of [`spam${tag()}.example`, `news${tag()}.example`]) await ok(t.post('/api/admin/spam_list/create', { domain_id: domain.id, sender, action: 'block' }, as), 'sender list');
  for (const name of ['Backup script', 'Billing export']) {
    await ok(t.post('/api/admin/api_key/create', { name, access: 'read', confirmation: customer.password }, as), 'customer key');
    await ok(t.post('/api/manage/api_key/create', { name, access: 'read', confirmation: ROOT.password }, { token: root }), 'operator key');
  }
  const storage = await shop.storageProduct({ name_en: 'Storage Small', name_zh: '小存储' });
  const points = await shop.pointsProduct({ name_en: 'Points Pack', name_zh: '积分包' });
  await shop.promotion([storage.id], { name_en: 'Spring Sale', name_zh: '春季促销' });
  await shop.promotion([points.id], { name_en: 'Autumn Offer', name_zh: '秋季优惠' });
  await shop.order(customer.token, { product_id: storage.id });
  await shop.order(customer.token, { product_id: points.id });
  await shop.grantPoints(customer.id, 5, 'welcome gift');
  await shop.grantPoints(customer.id, 7, 'apology for downtime');
  await openTicket(t, customer.token, { subject: 'Mail does not arrive' });
  await openTicket(t, customer.token, { subject: 'Invoice question' });
  for (const title of ['Greeting', 'Closing words']) await ok(t.post('/api/manage/canned_reply/create', { title, body: 'Hello' }, { token: root }), 'canned reply');
  for (const [name, address] of [['Store Alpha', 'alpha.stores.example'], ['Store Beta', '10.20.30.40']]) await ok(t.post('/api/manage/mail_store/create', { name, address }, { token: root }), 'mail store');
  for (const [name, subject] of [['Visitor One', 'Pricing'], ['Visitor Two', 'Partnership']]) {
    await ok(t.post('/api/message/send', { name, email: uniqueEmail('visitor'), subject, content: `About ${subject}` }, { ip: someIp() }), 'guest message');
  }
  await t.services.jobs.drain();
  // The mailbox owners' area: a mailbox's own app passwords, sender list and mail copies.
  const signedIn = await mailboxOwner(t, customer, { domainId: domain.id });
  owner = { token: signedIn.token };
  const box = await t.services.db.selectFrom('mailbox').select(['id', 'address']).where('address', '=', signedIn.address).executeTakeFirstOrThrow();
  for (const name of ['Laptop', 'Phone']) await ok(t.post('/api/mail/app_password/create', { name }, owner), 'app password');
  for (const sender of [`promo${tag()}.example`, `friend${tag()}.example`]) await ok(t.post('/api/mail/spam_list/create', { sender, action: 'allow' }, owner), 'own sender list');
  // Mail copies as finished runs leave them (starting one needs an IMAP server; mail-copy.test.ts has it).
  const at = new Date().toISOString();
  for (const host of ['imap.oldhost.example', 'mail.previous.example']) {
    await t.services.db
      .insertInto('mail_copy')
      .values({ owner_id: customer.id, domain_id: domain.id, mailbox_id: Number(box.id), address: box.address, source_host: host, source_port: 993, source_tls: 'tls', source_user: box.address, state: 'done', started_by: 'customer', created_at: at, updated_at: at, finished_at: at })
      .execute();
  }
});
afterAll(() => t.close());

/** Each list path's searched fields, as the declarations say. */
const searchedOf = new Map<string, string[]>();
for (const resource of capabilities.flatMap((c) => (c.resources ?? []).map((r) => r.declaration)) as ResourceDeclaration[]) {
  for (const area of ['admin', 'manage', 'mail'] as const) {
    if (!resource[area]?.list) continue;
    searchedOf.set(`/api/${area}/${pathOf(resource, area)}/list`, Object.entries(resource.fields).filter(([, f]) => f.search).map(([name]) => name));
  }
}
// Lists of their own that search a resource's declared fields: the products on sale (public, customers).
const productSearched = Object.entries(product.fields as ResourceDeclaration['fields']).filter(([, f]) => f.search).map(([name]) => name);
for (const path of ['/api/product/list', '/api/admin/product/list']) searchedOf.set(path, productSearched);

const takesQ = (call: CallSpec<any, any>) => call.path.endsWith('/list') && typeof call.input === 'object' && 'shape' in call.input && 'q' in (call.input as { shape: object }).shape;

/** What is wrong with a list's search, or undefined when `q` narrows it as it should. */
async function searchProblem(call: CallSpec<any, any>): Promise<string | undefined> {
  const area = call.path.split('/')[2];
  const token = area === 'admin' ? customer.token : area === 'manage' ? root : area === 'mail' ? owner.token : '';
  const list = (params: Record<string, unknown>) => (call.method === 'GET' ? t.get(call.path, params, { token }) : t.post(call.path, params, { token }));
  const searched = searchedOf.get(call.path);
  if (!searched?.length) return `${call.path}: declares no field to search`;
  const all = await list({ page_size: 100 });
  if (all.code !== 0) return `${call.path}: answered ${all.code} ${all.message}`;
  const rows: Record<string, unknown>[] = all.data.list;
  if (rows.length < 2) return `${call.path}: fewer than two records to tell apart`;
  const texts = (row: Record<string, unknown>) => searched.map((field) => String(row[field] ?? '').toLowerCase());
  for (const row of rows) {
    for (const field of searched) {
      const value = String(row[field] ?? '');
      const needle = value.toLowerCase();
      if ([...value].length < 3 || value.length > 200 || /[\r\n\t]/.test(value)) continue;
      // A value another record has nowhere in its searched fields.
      if (!rows.some((other) => !texts(other).some((text) => text.includes(needle)))) continue;
      const found = await list({ q: value, page_size: 100 });
      if (found.code !== 0) return `${call.path} q=${value}: answered ${found.code} ${found.message}`;
      const ids = found.data.list.map((r: { id: number }) => r.id);
      if (found.data.total >= all.data.total) return `${call.path} q=${value}: ${found.data.total} of ${all.data.total}, not narrowed`;
      if (!ids.includes(row.id)) return `${call.path} q=${value}: the record that has it is missing`;
      const stray = found.data.list.find((r: Record<string, unknown>) => !texts(r).some((text) => text.includes(needle)));
      if (stray) return `${call.path} q=${value}: record ${stray.id} does not have it`;
      return undefined;
    }
  }
  return `${call.path}: no searched value tells its records apart (${searched.join(', ')})`;
}

it('When any list that takes q (public, customers\', operators\', mailbox owners\') is searched for what one of its records has and another has not, then it narrows to the records that have it, in every area', async () => {
  const lists = t.calls.filter(takesQ);
  // The walk covers what is served: customers', operators' and mailbox owners' lists.
  expect(lists.length).toBeGreaterThanOrEqual(40);
  expect(lists.map((c) => c.path)).toEqual(expect.arrayContaining(['/api/product/list', '/api/admin/product/list', '/api/mail/app_password/list', '/api/manage/ticket/list']));
  const problems: string[] = [];
  for (const call of lists) {
    const problem = await searchProblem(call);
    if (problem) problems.push(problem);
  }
  expect(problems).toEqual([]);
});
