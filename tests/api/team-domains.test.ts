import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
let owner: CustomerSession;
let member: Awaited<ReturnType<typeof teamMemberOf>>;
let theirs: { id: number; name: string };
let notTheirs: { id: number; name: string };
beforeAll(async () => {
  t = await startTestApp();
  mail = mailFixtures(t);
  owner = await signUpCustomer(t);
  await mail.grant(owner.id, 10 * GiB);
  theirs = await mail.activeDomain(owner);
  notTheirs = await mail.activeDomain(owner);
  member = await teamMemberOf(t, owner);
  const set = await t.post('/api/admin/user/update', { id: member.id, domain_ids: [theirs.id] }, { token: owner.token });
  expect(set.data.domain_ids).toEqual([theirs.id]);
});
afterAll(() => t.close());

describe("a team member's domains", () => {
  it('When the customer gives a member domains, then get and list show them, and a given list replaces the old one', async () => {
    const other = await teamMemberOf(t, owner);
    expect((await t.get('/api/admin/user/get', { id: other.id }, { token: owner.token })).data.domain_ids).toEqual([]);
    await t.post('/api/admin/user/update', { id: other.id, domain_ids: [theirs.id, notTheirs.id] }, { token: owner.token });
    expect((await t.get('/api/admin/user/get', { id: other.id }, { token: owner.token })).data.domain_ids).toEqual([theirs.id, notTheirs.id].sort((x, y) => x - y));
    await t.post('/api/admin/user/update', { id: other.id, username: 'Renamed' }, { token: owner.token });
    expect((await t.get('/api/admin/user/get', { id: other.id }, { token: owner.token })).data.domain_ids).toHaveLength(2);
    await t.post('/api/admin/user/update', { id: other.id, domain_ids: [] }, { token: owner.token });
    expect((await t.get('/api/admin/user/get', { id: other.id }, { token: owner.token })).data.domain_ids).toEqual([]);
    // Domains named in the invitation are the member's once accepted.
    const invited = await teamMemberOf(t, owner, { domain_ids: [theirs.id] });
    expect((await t.get('/api/admin/user/get', { id: invited.id }, { token: owner.token })).data.domain_ids).toEqual([theirs.id]);
  });

  it("When the customer gives a member another customer's domain, then it is refused and nothing changes", async () => {
    const stranger = await signUpCustomer(t);
    const foreign = await mail.pendingDomain(stranger);
    const reply = await t.post('/api/admin/user/update', { id: member.id, domain_ids: [theirs.id, foreign.id] }, { token: owner.token });
    expect(reply).toMatchObject({ code: 40000, errors: { domain_ids: { message: 'validation.unknown_domain' } } });
    expect((await t.get('/api/admin/user/get', { id: member.id }, { token: owner.token })).data.domain_ids).toEqual([theirs.id]);
  });

  it('When a member lists and reads, then only their domains and the records in them appear', async () => {
    const mine = await mail.mailbox(owner.token, theirs.id, 'mine');
    const hidden = await mail.mailbox(owner.token, notTheirs.id, 'hidden');
    const hiddenAlias = await mail.alias(owner.token, notTheirs.id, 'x@example.org');
    const domains = await t.post('/api/admin/domain/list', {}, { token: member.token });
    expect(domains.data.list.map((d: { id: number }) => d.id)).toEqual([theirs.id]);
    const boxes = await t.post('/api/admin/email/list', { page_size: 100 }, { token: member.token });
    expect(boxes.data.list.map((m: { id: number }) => m.id)).toEqual([mine.id]);
    const visibleAlias = await mail.alias(owner.token, theirs.id, 'y@example.org');
    expect((await t.get('/api/admin/alias/list', { page_size: 100 }, { token: member.token })).data.list.map((r: { id: number }) => r.id)).toEqual([visibleAlias.id]);
    expect((await t.get('/api/admin/domain/get', { id: notTheirs.id }, { token: member.token })).code).toBe(40400);
    expect((await t.get('/api/admin/domain/dns', { id: notTheirs.id }, { token: member.token })).code).toBe(40400);
    expect((await t.get('/api/admin/email/get', { id: hidden.id }, { token: member.token })).code).toBe(40400);
    expect((await t.get('/api/admin/alias/get', { id: hiddenAlias.id }, { token: member.token })).code).toBe(40400);
  });

  it('When a member writes outside their domains, then it is refused and nothing changes', async () => {
    const hidden = await mail.mailbox(owner.token, notTheirs.id, 'hidden2');
    expect((await t.post('/api/admin/email/create', { domain_id: notTheirs.id, local_part: 'sneak', password: 'mailbox-pass-1', quota: 1024 ** 2 }, { token: member.token })).code).toBe(40300);
    expect((await t.post('/api/admin/alias/create', { domain_id: notTheirs.id, local_part: 'sneak', goto: 'x@example.org' }, { token: member.token })).code).toBe(40300);
    expect((await t.post('/api/admin/email/update', { id: hidden.id, active: 0 }, { token: member.token })).code).toBe(40400);
    expect((await t.post('/api/admin/email/update_password', { id: hidden.id, password: 'sneaky-pass-1' }, { token: member.token })).code).toBe(40400);
    expect((await t.post('/api/admin/email/delete', { id: hidden.id }, { token: member.token })).code).toBe(40400);
    expect((await t.post('/api/admin/domain/update', { id: notTheirs.id, note: 'x' }, { token: member.token })).code).toBe(40400);
    expect((await t.post('/api/admin/domain/create', { name: 'member-made.example' }, { token: member.token })).code).toBe(40300);
    expect((await t.post('/api/admin/alias_domain/create', { alias_domain_id: theirs.id, target_domain_id: notTheirs.id }, { token: member.token })).code).toBe(40300);
    expect((await t.get('/api/admin/email/get', { id: hidden.id }, { token: owner.token })).data.active).toBe(1);
    const count = await t.services.db.selectFrom('mailbox').select('id').where('domain_id', '=', notTheirs.id).execute();
    expect(count).toHaveLength(2);
  });

  it('When a member works inside their domains, then it is like the customer', async () => {
    const box = await t.post('/api/admin/email/create', { domain_id: theirs.id, local_part: 'by-member', password: 'mailbox-pass-1', quota: 1024 ** 2 }, { token: member.token });
    expect(box.data).toMatchObject({ owner_id: owner.id, domain_id: theirs.id });
    expect((await t.post('/api/admin/email/update', { id: box.data.id, active: 0 }, { token: member.token })).data.active).toBe(0);
    const log = await t.post('/api/admin/log/list', { filter: { target_type: 'email', target_id: box.data.id } }, { token: owner.token });
    expect(log.data.list.map((l: { actor_type: string }) => l.actor_type)).toEqual(['team_member', 'team_member']);
  });

  it('When the customer takes a domain away, then the member loses it with the next call', async () => {
    const other = await teamMemberOf(t, owner);
    await t.post('/api/admin/user/update', { id: other.id, domain_ids: [notTheirs.id] }, { token: owner.token });
    expect((await t.post('/api/admin/domain/list', {}, { token: other.token })).data.total).toBe(1);
    await t.post('/api/admin/user/update', { id: other.id, domain_ids: [] }, { token: owner.token });
    expect((await t.post('/api/admin/domain/list', {}, { token: other.token })).data.total).toBe(0);
  });
});
