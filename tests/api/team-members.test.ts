/**
 * A customer's team members: /api/admin/user/*, extra logins for the same customer. Members
 * are invited (user/create), accept from the e-mailed link with a password of their own
 * (login/accept_invitation), and pending invitations are listed, resent or revoked
 * (team_invitation/*). No answer tells the customer whether an address has an account.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, someIp, teamMemberOf, uniqueEmail, type CustomerSession } from '../helpers/fixtures.js';
import { mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
// Some tests move the clock past every session's end: tests sign in (operators too) as they need.
afterEach(() => t.resetClock());
afterAll(() => t.close());

const DAY = 86_400_000;
const signIn = (email: string, password: string) => t.post('/api/admin/login/login', { email, password }, { ip: someIp() });
const accept = (token: string, password = 'invitee-pass-1') => t.post('/api/admin/login/accept_invitation', { token, password }, { ip: someIp() });
const invite = (customer: CustomerSession, body: Record<string, unknown>) => t.post('/api/admin/user/create', body, { token: customer.token });
const pending = async (customer: CustomerSession) => (await t.post('/api/admin/team_invitation/list', {}, { token: customer.token })).data;
const mailsTo = async (address: string) => (await t.outbox()).filter((m) => m.to === address);

/** What differs between any two answers anyway (ids, times): the rest must be the same. */
const shapeOf = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, v) => (key === 'id' || key.endsWith('_id') || key.endsWith('_at') ? '…' : typeof v === 'string' && v.includes('@') ? '<address>' : v));

describe('inviting a member', () => {
  it('When a customer invites an address, then the answer says an invitation was sent, it is pending, and no member exists yet', async () => {
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    const invited = await invite(customer, { email: email.toUpperCase(), username: 'Bob' });
    expect(invited).toMatchObject({ status: 200, code: 0, data: { invited: true, email, invitation: { email, username: 'Bob', domain_ids: [], owner_id: customer.id } } });
    expect(invited.data).not.toHaveProperty('id');
    expect(invited.data.invitation).not.toHaveProperty('token_hash');
    const expiresIn = Date.parse(invited.data.invitation.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(6.9 * DAY);
    expect(expiresIn).toBeLessThanOrEqual(7 * DAY);

    expect(await pending(customer)).toMatchObject({ total: 1, list: [{ id: invited.data.invitation.id, email, username: 'Bob' }] });
    expect((await t.post('/api/admin/user/list', {}, { token: customer.token })).data.total).toBe(0);
    expect((await signIn(email, 'member-pass-1')).code).toBe(40101);

    const [mail] = await mailsTo(email);
    expect(mail.subject).toBe(`${customer.email} invites you to manage e-mail on Maildesk`);
    expect(mail.text).toMatch(/http:\/\/maildesk\.test\/accept-invitation\?token=[\w-]{43}/);
    expect(mail.text).toContain('7 days');
  });

  it('When the invitee accepts with a password of their own, then they are a signed-in, verified member, the invitation is no longer pending, and the password signs in', async () => {
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    await invite(customer, { email, username: 'Bob' });
    const accepted = await accept(await t.invitationToken(email), 'chosen-pass-1');
    expect(accepted).toMatchObject({ code: 0, data: { email, username: 'Bob', is_verified: 1, token: expect.any(String) } });

    const info = await t.post('/api/admin/me/info', {}, { token: accepted.data.token });
    expect(info).toMatchObject({ code: 0, data: { id: accepted.data.id, email, owner_id: customer.id, is_owner: 0, is_verified: 1 } });
    const members = (await t.post('/api/admin/user/list', {}, { token: customer.token })).data;
    expect(members).toMatchObject({ total: 1, list: [{ id: accepted.data.id, email, username: 'Bob', status: 'active' }] });
    expect(members.list[0]).not.toHaveProperty('password_hash');
    expect((await pending(customer)).total).toBe(0);
    expect((await signIn(email, 'chosen-pass-1')).code).toBe(0);

    // The customer's log tells the story: invited, then accepted by the member.
    const log = (await t.post('/api/admin/log/list', { sort: 'id', order: 'asc' }, { token: customer.token })).data.list;
    const story = log.filter((e: { action: string }) => e.action === 'invite' || e.action === 'accept_invitation');
    expect(story).toMatchObject([
      { action: 'invite', actor_type: 'customer', target_type: 'team_invitation', after: { email, username: 'Bob' } },
      { action: 'accept_invitation', actor_type: 'team_member', actor_id: accepted.data.id, target_type: 'team_invitation', target_id: story[0].target_id },
    ]);
  });

  it('When the invitation names domains, then the member gets those that are still the customer\'s', async () => {
    const customer = await signUpCustomer(t);
    const mail = mailFixtures(t);
    const kept = await mail.pendingDomain(customer);
    const removed = await mail.pendingDomain(customer);
    const member = await (async () => {
      const email = uniqueEmail('member');
      await invite(customer, { email, domain_ids: [kept.id, removed.id] });
      expect((await pending(customer)).list[0].domain_ids).toEqual([kept.id, removed.id]);
      expect((await t.post('/api/admin/domain/delete', { id: removed.id }, { token: customer.token })).code).toBe(0);
      return (await accept(await t.invitationToken(email))).data;
    })();
    expect((await t.get('/api/admin/user/get', { id: member.id }, { token: customer.token })).data.domain_ids).toEqual([kept.id]);
  });

  it('When the input is bad, then each field says what is wrong and nothing is sent', async () => {
    const customer = await signUpCustomer(t);
    const stranger = await signUpCustomer(t);
    const foreign = await mailFixtures(t).pendingDomain(stranger);
    const sentBefore = (await t.outbox()).length;
    expect(await invite(customer, { email: 'nope', username: '', domain_ids: 'all' })).toMatchObject({
      status: 400,
      code: 40000,
      errors: { email: { message: 'validation.invalid_email' }, username: { message: 'validation.required' }, domain_ids: { message: 'validation.invalid_type' } },
    });
    expect((await invite(customer, {})).errors).toMatchObject({ email: { message: 'validation.required' } });
    expect(await invite(customer, { email: uniqueEmail(), domain_ids: [foreign.id] })).toMatchObject({ code: 40000, errors: { domain_ids: { message: 'validation.unknown_domain' } } });
    expect((await pending(customer)).total).toBe(0);
    expect((await t.outbox()).length).toBe(sentBefore);
  });
});

describe('an invitation tells the customer nothing about the address', () => {
  it('When the address belongs to a customer, another customer\'s member or nobody, then the answer, the pending list and the log read the same; only the e-mail differs, and nothing is made', async () => {
    const customer = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const otherMember = await teamMemberOf(t, other);
    const fresh = uniqueEmail('fresh');
    const addresses = [fresh, other.email, otherMember.email, customer.email];

    const answers = [];
    for (const email of addresses) answers.push(await invite(customer, { email, username: 'Someone' }));
    for (const answer of answers) expect(shapeOf(answer)).toEqual(shapeOf(answers[0]));
    expect(answers[0]).toMatchObject({ status: 200, code: 0, data: { invited: true } });

    const list = (await t.post('/api/admin/team_invitation/list', { sort: 'id', order: 'asc' }, { token: customer.token })).data;
    expect(list.list.map((i: { email: string }) => i.email)).toEqual(addresses);
    for (const row of list.list) expect(shapeOf(row)).toEqual(shapeOf(list.list[0]));
    const log = (await t.post('/api/admin/log/list', { filter: { action: 'invite' } }, { token: customer.token })).data.list;
    expect(log).toHaveLength(4);
    for (const entry of log) expect(shapeOf(entry)).toEqual(shapeOf(log[0]));

    // The new address gets the link; an address with an account is told so, with no link.
    const [invitation] = await mailsTo(fresh);
    expect(invitation.text).toContain('/accept-invitation?token=');
    for (const email of [other.email, otherMember.email]) {
      const notice = (await mailsTo(email)).at(-1)!;
      expect(notice.subject).toBe(invitation.subject);
      expect(notice.text).toContain('already has a Maildesk account');
      expect(notice.text).not.toContain('token=');
    }
    // Nothing was made or moved for the existing accounts.
    const accounts = await t.services.db.selectFrom('user').select(['email', 'owner_id']).where('email', 'in', addresses).execute();
    expect(accounts.map((a) => [a.email, a.owner_id === null ? null : Number(a.owner_id)]).sort()).toEqual(
      [
        [other.email, null],
        [otherMember.email, other.id],
        [customer.email, null],
      ].sort(),
    );
  });

  it('When a customer changes a member\'s address to one that is taken, then the address stays and no "taken" is answered', async () => {
    const customer = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const mine = await teamMemberOf(t, customer);
    for (const email of [other.email, uniqueEmail('new')]) {
      const reply = await t.post('/api/admin/user/update', { id: mine.id, email, username: 'Renamed' }, { token: customer.token });
      expect(reply).toMatchObject({ code: 0, data: { id: mine.id, email: mine.email, username: 'Renamed' } });
    }
    expect((await signIn(mine.email, mine.password)).code).toBe(0);
  });

  it('When an operator creates a customer with a member\'s address, then it is taken (operators may know)', async () => {
    const operator = await operatorLogin(t);
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect(await t.post('/api/manage/user/create', { email: member.email, password: 'customer-pass-1' }, { token: operator })).toMatchObject({
      code: 40000,
      errors: { email: { message: 'validation.taken' } },
    });
  });
});

describe('an invitation link works once, for 7 days, while the invitation stands', () => {
  it('When a link is used a second time, then it is refused and no second member is made', async () => {
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    await invite(customer, { email });
    const token = await t.invitationToken(email);
    const [first, second] = await Promise.all([accept(token, 'first-pass-1'), accept(token, 'second-pass-1')]);
    expect([first.code, second.code].sort()).toEqual([0, 40102]);
    expect(await accept(token, 'third-pass-1')).toMatchObject({ status: 400, code: 40102, message: 'error.invitation_invalid' });
    expect((await t.post('/api/admin/user/list', {}, { token: customer.token })).data.total).toBe(1);
    const winner = first.code === 0 ? 'first-pass-1' : 'second-pass-1';
    expect((await signIn(email, winner)).code).toBe(0);
    expect((await signIn(email, 'third-pass-1')).code).toBe(40101);
  });

  it('When a link is older than 7 days, then it is refused; resending gives a new link and ends the old one', async () => {
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    const invited = await invite(customer, { email });
    const oldToken = await t.invitationToken(email);
    await t.moveClock(7 * DAY + 60_000);
    expect(await accept(oldToken)).toMatchObject({ code: 40102, message: 'error.invitation_invalid' });

    // The customer's session has ended meanwhile; the invitation is still listed, expired.
    const again = { ...customer, token: (await signIn(customer.email, customer.password)).data.token };
    const listed = await pending(again);
    expect(listed.total).toBe(1);
    expect(Date.parse(listed.list[0].expires_at)).toBeLessThan(Date.now() + 7 * DAY + 60_000);
    const resent = await t.post('/api/admin/team_invitation/resend', { id: invited.data.invitation.id }, { token: again.token });
    expect(resent).toMatchObject({ code: 0, data: { id: invited.data.invitation.id, email } });
    const newToken = await t.invitationToken(email);
    expect(newToken).not.toBe(oldToken);
    expect((await accept(oldToken)).code).toBe(40102);
    expect((await accept(newToken)).code).toBe(0);
  });

  it('When the customer invites the same address again, then the one invitation is renewed and only the newest link works', async () => {
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    await invite(customer, { email, username: 'First' });
    const first = await t.invitationToken(email);
    await invite(customer, { email, username: 'Second' });
    const second = await t.invitationToken(email);
    expect(await pending(customer)).toMatchObject({ total: 1, list: [{ email, username: 'Second' }] });
    expect((await accept(first)).code).toBe(40102);
    expect(await accept(second)).toMatchObject({ code: 0, data: { username: 'Second' } });
  });

  it('When the customer revokes an invitation, then its link is refused', async () => {
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    const invited = await invite(customer, { email });
    const token = await t.invitationToken(email);
    expect(await t.post('/api/admin/team_invitation/delete', { id: invited.data.invitation.id }, { token: customer.token })).toMatchObject({ code: 0 });
    expect((await pending(customer)).total).toBe(0);
    expect(await accept(token)).toMatchObject({ code: 40102, message: 'error.invitation_invalid' });
  });

  it('When the address got an account after the invitation, then accepting says so and makes nothing', async () => {
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    await invite(customer, { email });
    const token = await t.invitationToken(email);
    await signUpCustomer(t, email);
    expect(await accept(token)).toMatchObject({ status: 409, code: 40900, message: 'error.invitation_address_taken' });
    expect((await t.post('/api/admin/user/list', {}, { token: customer.token })).data.total).toBe(0);
  });

  it('When the customer is disabled, then their invitations cannot be accepted', async () => {
    const operator = await operatorLogin(t);
    const customer = await signUpCustomer(t);
    const email = uniqueEmail('member');
    await invite(customer, { email });
    const token = await t.invitationToken(email);
    await t.post('/api/manage/user/update', { id: customer.id, status: 'disabled' }, { token: operator });
    expect(await accept(token)).toMatchObject({ code: 40300, message: 'error.account_disabled' });
    await t.post('/api/manage/user/update', { id: customer.id, status: 'active' }, { token: operator });
    expect((await accept(token)).code).toBe(0);
  });

  it('When a link never accepted ended a month ago, then housekeeping removes the invitation', async () => {
    const customer = await signUpCustomer(t);
    await invite(customer, { email: uniqueEmail('late') });
    const id = (await pending(customer)).list[0].id;
    const row = () => t.services.db.selectFrom('team_invitation').select('id').where('id', '=', id).executeTakeFirst();
    await t.moveClock(36 * DAY);
    await t.services.jobs.runSchedule('housekeeping');
    expect(await row()).toBeDefined();
    await t.moveClock(2 * DAY);
    await t.services.jobs.runSchedule('housekeeping');
    expect(await row()).toBeUndefined();
  });
});

describe('invitations belong to their customer', () => {
  it('When another customer or a member tries to see, resend or revoke an invitation, then they cannot', async () => {
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    const memberA = await teamMemberOf(t, a);
    const email = uniqueEmail('member');
    const { invitation } = (await invite(a, { email })).data;
    const sentBefore = (await mailsTo(email)).length;

    expect((await pending(b)).total).toBe(0);
    expect(await t.get('/api/admin/team_invitation/get', { id: invitation.id }, { token: b.token })).toMatchObject({ status: 404, code: 40400 });
    expect(await t.post('/api/admin/team_invitation/resend', { id: invitation.id }, { token: b.token })).toMatchObject({ status: 404, code: 40400 });
    expect(await t.post('/api/admin/team_invitation/delete', { id: invitation.id }, { token: b.token })).toMatchObject({ status: 404, code: 40400 });
    const forbidden = { status: 403, code: 40300, message: 'error.forbidden' };
    expect(await t.post('/api/admin/team_invitation/list', {}, { token: memberA.token })).toMatchObject(forbidden);
    expect(await t.post('/api/admin/team_invitation/resend', { id: invitation.id }, { token: memberA.token })).toMatchObject(forbidden);
    expect(await t.post('/api/admin/team_invitation/delete', { id: invitation.id }, { token: memberA.token })).toMatchObject(forbidden);

    expect((await mailsTo(email)).length).toBe(sentBefore);
    expect(await t.get('/api/admin/team_invitation/get', { id: invitation.id }, { token: a.token })).toMatchObject({ code: 0, data: { id: invitation.id, email } });
  });
});

describe('managing members', () => {
  it('When a customer lists members, then only their own appear, never the customer accounts', async () => {
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    const memberA = await teamMemberOf(t, a);
    const memberB = await teamMemberOf(t, b);
    const listA = await t.post('/api/admin/user/list', {}, { token: a.token });
    expect(listA.data.list.map((m: { id: number }) => m.id)).toEqual([memberA.id]);
    expect(await t.get('/api/admin/user/get', { id: memberB.id }, { token: a.token })).toMatchObject({ status: 404, code: 40400 });
    // The customer account itself is not one of its members.
    expect(await t.get('/api/admin/user/get', { id: a.id }, { token: a.token })).toMatchObject({ status: 404, code: 40400 });
  });

  it('When a customer updates a member, then the change shows, the member\'s sessions end, and only the new password signs in', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const renamed = await t.post('/api/admin/user/update', { id: member.id, username: 'Renamed' }, { token: customer.token });
    expect(renamed).toMatchObject({ code: 0, data: { id: member.id, username: 'Renamed' } });
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(0);

    const updated = await t.post('/api/admin/user/update', { id: member.id, password: 'changed-pass-1' }, { token: customer.token });
    expect(updated).toMatchObject({ code: 0, data: { id: member.id, username: 'Renamed' } });
    expect(updated.data).not.toHaveProperty('password_hash');
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(0);
    expect((await signIn(member.email, member.password)).code).toBe(40101);
    expect((await signIn(member.email, 'changed-pass-1')).code).toBe(0);
  });

  it('When a customer deletes a member, then it is gone and its session and sign-in end', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect(await t.post('/api/admin/user/delete', { id: member.id }, { token: customer.token })).toMatchObject({ code: 0, data: { id: member.id } });
    expect((await t.post('/api/admin/user/list', {}, { token: customer.token })).data.total).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await signIn(member.email, member.password)).code).toBe(40101);
    expect((await t.post('/api/admin/user/delete', { id: member.id }, { token: customer.token })).code).toBe(40400);
  });
});

describe('a member signs in for the customer', () => {
  it('When a member signs in, then they are verified, not the owner, and act for the customer', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const info = await t.post('/api/admin/me/info', {}, { token: member.token });
    expect(info).toMatchObject({ code: 0, data: { id: member.id, email: member.email, owner_id: customer.id, is_owner: 0, is_verified: 1 } });

    // What a member changes is part of the customer's record.
    await t.post('/api/admin/me/update_username', { username: 'Member Renamed' }, { token: member.token });
    const log = await t.post('/api/admin/log/list', { filter: { action: 'update_username' } }, { token: customer.token });
    expect(log.data.list).toHaveLength(1);
    expect(log.data.list[0]).toMatchObject({ actor_type: 'team_member', actor_id: member.id, actor_name: member.email, user_id: customer.id, target_id: member.id });
  });

  it('When a member tries to manage members, then it is forbidden', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const forbidden = { status: 403, code: 40300, message: 'error.forbidden' };
    expect(await t.post('/api/admin/user/list', {}, { token: member.token })).toMatchObject(forbidden);
    expect(await t.get('/api/admin/user/get', { id: member.id }, { token: member.token })).toMatchObject(forbidden);
    expect(await t.post('/api/admin/user/create', { email: uniqueEmail() }, { token: member.token })).toMatchObject(forbidden);
    expect(await t.post('/api/admin/user/update', { id: member.id, status: 'active' }, { token: member.token })).toMatchObject(forbidden);
    expect(await t.post('/api/admin/user/delete', { id: member.id }, { token: member.token })).toMatchObject(forbidden);
    expect((await t.post('/api/admin/user/list', {}, { token: customer.token })).data.total).toBe(1);
  });
});

describe('disabled accounts', () => {
  it('When a customer disables a member, then the member\'s sessions end and sign-in is refused; enabling lets them in again', async () => {
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect(await t.post('/api/admin/user/update', { id: member.id, status: 'disabled' }, { token: customer.token })).toMatchObject({
      code: 0,
      data: { status: 'disabled' },
    });
    expect(await t.post('/api/admin/me/info', {}, { token: member.token })).toMatchObject({ status: 401, code: 20000 });
    expect(await signIn(member.email, member.password)).toMatchObject({ status: 403, code: 40300, message: 'error.account_disabled' });
    // The customer's own session is untouched.
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(0);

    await t.post('/api/admin/user/update', { id: member.id, status: 'active' }, { token: customer.token });
    expect((await signIn(member.email, member.password)).code).toBe(0);
  });

  it('When an operator disables the customer, then the members\' sessions end and they cannot sign in', async () => {
    const operator = await operatorLogin(t);
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    expect((await t.post('/api/manage/user/update', { id: customer.id, status: 'disabled' }, { token: operator })).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await t.post('/api/admin/me/info', {}, { token: customer.token })).code).toBe(20000);
    expect(await signIn(member.email, member.password)).toMatchObject({ code: 40300, message: 'error.account_disabled' });

    // Enabling the customer again does not bring old sessions back, but new sign-ins work.
    await t.post('/api/manage/user/update', { id: customer.id, status: 'active' }, { token: operator });
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await signIn(member.email, member.password)).code).toBe(0);
  });

  it('When an operator deletes the customer, then the members and invitations go with it', async () => {
    const operator = await operatorLogin(t);
    const customer = await signUpCustomer(t);
    const member = await teamMemberOf(t, customer);
    const email = uniqueEmail('member');
    await invite(customer, { email });
    const token = await t.invitationToken(email);
    expect((await t.post('/api/manage/user/delete', { id: customer.id }, { token: operator })).code).toBe(0);
    expect((await t.post('/api/admin/me/info', {}, { token: member.token })).code).toBe(20000);
    expect((await signIn(member.email, member.password)).code).toBe(40101);
    expect((await accept(token)).code).toBe(40102);
  });
});
