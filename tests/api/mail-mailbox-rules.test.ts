/**
 * The mailbox half of server/mail at its edges: quotas that exactly fill what the customer bought
 * and one byte more, the domain's limits, password lengths, the delivery check's code and limits,
 * and restoring a deleted mailbox against limits that changed meanwhile; each refusal with its
 * code, its text in both languages, and what the log says.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { CODE_MINUTES } from '../../server/accounts/codes.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer, someIp, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { mailboxOwner, mailFixtures, MiB } from '../helpers/mail-fixtures.js';

const PASSWORD = 'mailbox-pass-1';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  mail = mailFixtures(t);
  root = await mail.operator();
});
afterEach(() => t.resetClock());
afterAll(() => t.close());

/** A domain whose Unicode name differs from its punycode one. */
const idnDomain = () => `bücher-${crypto.randomBytes(3).toString('hex')}.example`;

async function customerWithDomain(capacity = 100 * MiB, name?: string) {
  const customer = await signUpCustomer(t);
  await mail.grant(customer.id, capacity);
  const domain = await mail.activeDomain(customer, name);
  return { customer, domain };
}
const create = (token: string, body: Record<string, unknown>) => t.post('/api/admin/email/create', { password: PASSWORD, ...body }, { token });
const update = (token: string, body: Record<string, unknown>) => t.post('/api/admin/email/update', body, { token });
const signIn = (email: string, password: string) => t.post('/api/mail/login/login', { email, password }, { ip: someIp() });
const logOf = async (targetId: number, action: string) =>
  (await t.post('/api/manage/log/list', { filter: { target_type: 'email', target_id: targetId, action }, sort: 'id', order: 'desc' }, { token: root })).data.list as Record<string, any>[];
const both = (reply: { message: string; params?: Record<string, unknown> }) => [messageText('en', reply.message, reply.params), messageText('zh', reply.message, reply.params)];

describe('a mailbox in an internationalised domain', () => {
  it('When it is made, then its address is in punycode and its Unicode address names the domain as people write it', async () => {
    const name = idnDomain();
    const { customer, domain } = await customerWithDomain(100 * MiB, name);
    expect(domain.name).toMatch(/^xn--/);
    const made = await create(customer.token, { domain_id: domain.id, local_part: 'Info', quota: MiB });
    expect(made).toMatchObject({ code: 0, data: { address: `info@${domain.name}`, address_unicode: `info@${name}` } });
  });

  it('When its domain may hold two mailboxes, then the second is made and the third refused, naming the domain as people write it, in both languages', async () => {
    const name = idnDomain();
    const { customer, domain } = await customerWithDomain(100 * MiB, name);
    expect((await t.post('/api/manage/domain/update', { id: domain.id, max_mailboxes: 2 }, { token: root })).code).toBe(0);
    expect((await create(customer.token, { domain_id: domain.id, local_part: 'one', quota: MiB })).code).toBe(0);
    expect((await create(customer.token, { domain_id: domain.id, local_part: 'two', quota: MiB })).code).toBe(0);
    const third = await create(customer.token, { domain_id: domain.id, local_part: 'three', quota: MiB });
    expect(third).toMatchObject({ status: 409, code: 40900, message: 'error.mailbox_limit', params: { limit: 2, smart_count: 2, domain: name } });
    expect(both(third)).toEqual([`The domain ${name} may have at most 2 mailboxes.`, `域名 ${name} 最多可以有 2 个邮箱。`]);
    expect((await t.post('/api/admin/email/list', { filter: { domain_id: domain.id } }, { token: customer.token })).data.total).toBe(2);
  });
});

describe('quotas at their limits', () => {
  it('When the quotas exactly fill the capacity, then that is allowed, and one byte more is refused saying how much is missing', async () => {
    const { customer, domain } = await customerWithDomain(10 * MiB);
    await mail.mailbox(customer.token, domain.id, 'first', { quota: 4 * MiB });
    const box = await mail.mailbox(customer.token, domain.id, 'second', { quota: MiB });
    // Raised by the 5 MiB still free: the raise counts, not the whole new quota.
    expect(await update(customer.token, { id: box.id, quota: 6 * MiB })).toMatchObject({ code: 0, data: { quota: 6 * MiB } });
    const over = await update(customer.token, { id: box.id, quota: 6 * MiB + 1 });
    expect(over).toMatchObject({ status: 409, code: 40900, message: 'error.capacity_exceeded', params: { capacity: 10 * MiB, allocated: 10 * MiB, available: 0, requested: 6 * MiB + 1, shortfall: 1 } });
    expect(both(over)[0]).toBe('Not enough mail capacity: this quota needs 1 B more than is free (0 B of 10 MiB). Buy at least 1 B of storage, or lower other quotas by that much.');
    expect((await t.get('/api/admin/email/get', { id: box.id }, { token: customer.token })).data.quota).toBe(6 * MiB);
  });

  it('When the capacity and the largest mailbox quota shrank below its quota, then a mailbox can still be renamed or deactivated without touching its quota', async () => {
    const customer = await signUpCustomer(t);
    const domain = await mail.activeDomain(customer);
    await mail.grant(customer.id, 5 * MiB);
    await mail.grant(customer.id, 5 * MiB, { expires_at: new Date(Date.now() + 60_000).toISOString() });
    const box = await mail.mailbox(customer.token, domain.id, 'full', { quota: 10 * MiB });
    await t.moveClock(2 * 60_000);
    expect((await t.post('/api/admin/me/update_storage_max', { storage_max: 5 * MiB }, { token: customer.token })).code).toBe(0);
    expect(await update(customer.token, { id: box.id, name: 'Still here', quota: 10 * MiB, active: 0 })).toMatchObject({ code: 0, data: { name: 'Still here', quota: 10 * MiB, active: 0 } });
    expect(await update(customer.token, { id: box.id, quota: 10 * MiB + 1 })).toMatchObject({ code: 40000, errors: { quota: { message: 'validation.quota_above_storage_max', params: { max: 5 * MiB } } } });
    expect((await t.post('/api/admin/me/update_storage_max', { storage_max: 20 * MiB }, { token: customer.token })).code).toBe(0);
    expect(await update(customer.token, { id: box.id, quota: 10 * MiB + 1 })).toMatchObject({ code: 40900, message: 'error.capacity_exceeded', params: { shortfall: 5 * MiB + 1 } });
  });

  it("When the domain's largest mailbox quota is reached exactly, then that is allowed; one byte more is refused, in a change as in a new mailbox", async () => {
    const { customer, domain } = await customerWithDomain(100 * MiB);
    expect((await t.post('/api/manage/domain/update', { id: domain.id, max_quota: 5 * MiB }, { token: root })).code).toBe(0);
    const box = await mail.mailbox(customer.token, domain.id, 'capped', { quota: MiB });
    expect(await update(customer.token, { id: box.id, quota: 5 * MiB })).toMatchObject({ code: 0, data: { quota: 5 * MiB } });
    const over = await update(customer.token, { id: box.id, quota: 5 * MiB + 1 });
    expect(over).toMatchObject({ status: 400, code: 40000, errors: { quota: { message: 'validation.quota_above_domain_max', params: { max: 5 * MiB } } } });
    expect(messageText('en', over.errors!.quota.message, over.errors!.quota.params)).toBe("At most 5 MiB per mailbox in this domain: the domain's max. mailbox quota, which operators change on the domain's page.");
    expect(messageText('zh', over.errors!.quota.message, over.errors!.quota.params)).toContain('该域名下每个邮箱最多 5 MiB');
    expect(await create(customer.token, { domain_id: domain.id, local_part: 'big', quota: 5 * MiB + 1 })).toMatchObject({ code: 40000, errors: { quota: { message: 'validation.quota_above_domain_max' } } });
    expect((await create(customer.token, { domain_id: domain.id, local_part: 'exact', quota: 5 * MiB })).code).toBe(0);
  });
});

describe("the owner's sessions", () => {
  it("When the customer renames the mailbox or changes its quota, then its owner stays signed in; deactivating it signs them out", async () => {
    const owner = await mailboxOwner(t);
    expect((await update(owner.customer.token, { id: owner.id, name: 'Renamed', quota: 2 * MiB })).code).toBe(0);
    expect((await t.get('/api/mail/me/info', {}, { token: owner.token })).code).toBe(0);
    expect((await update(owner.customer.token, { id: owner.id, active: 1 })).code).toBe(0);
    expect((await t.get('/api/mail/me/info', {}, { token: owner.token })).code).toBe(0);
    expect((await update(owner.customer.token, { id: owner.id, active: 0 })).code).toBe(0);
    expect((await t.get('/api/mail/me/info', {}, { token: owner.token })).code).toBe(20000);
  });
});

describe('update_password', () => {
  it('When the new password has 8 or 128 characters, then it is set and signs in; 7 or 129 are refused and the old one still works', async () => {
    const owner = await mailboxOwner(t);
    const set = (password: string) => t.post('/api/admin/email/update_password', { id: owner.id, password }, { token: owner.customer.token });
    expect(await set('a'.repeat(7))).toMatchObject({ status: 400, code: 40000, errors: { password: { message: 'validation.too_short' } } });
    expect(await set('a'.repeat(129))).toMatchObject({ status: 400, code: 40000, errors: { password: { message: 'validation.too_long' } } });
    expect((await signIn(owner.address, PASSWORD)).code).toBe(0);
    expect(await set('b'.repeat(8))).toMatchObject({ code: 0, data: { id: owner.id } });
    expect((await signIn(owner.address, 'b'.repeat(8))).code).toBe(0);
    expect((await set('c'.repeat(128))).code).toBe(0);
    expect((await signIn(owner.address, 'c'.repeat(128))).code).toBe(0);
    expect((await signIn(owner.address, 'b'.repeat(8))).code).toBe(40101);
  });

  it("When a team member with the mailbox's domain sets it, then the customer's log names the member; a member without the domain finds no such mailbox", async () => {
    const { customer, domain } = await customerWithDomain();
    const other = await mail.activeDomain(customer);
    const box = await mail.mailbox(customer.token, domain.id);
    const member = await teamMemberOf(t, customer, { domain_ids: [domain.id] });
    const outsider = await teamMemberOf(t, customer, { domain_ids: [other.id] });
    expect((await t.post('/api/admin/email/update_password', { id: box.id, password: 'member-set-1' }, { token: member.token })).code).toBe(0);
    const log = await t.post('/api/admin/log/list', { filter: { action: 'update_password', target_type: 'email' } }, { token: customer.token });
    expect(log.data.list).toEqual([expect.objectContaining({ actor_type: 'team_member', actor_name: member.email, user_id: customer.id, target_id: box.id, after: { address: box.address } })]);
    expect(await t.post('/api/admin/email/update_password', { id: box.id, password: 'outsider-set-1' }, { token: outsider.token })).toMatchObject({ code: 40400 });
    expect((await signIn(box.address, 'member-set-1')).code).toBe(0);
  });
});

describe('the delivery check', () => {
  it('When asked in Chinese for a mailbox of an internationalised domain, then the code goes to the mailbox in Chinese, naming the address as people write it; confirmed, it is logged', async () => {
    const name = idnDomain();
    const { customer, domain } = await customerWithDomain(100 * MiB, name);
    const box = await mail.mailbox(customer.token, domain.id, 'check');
    expect(await t.post('/api/admin/email/send_verify_code', { id: box.id }, { token: customer.token, locale: 'zh', ip: someIp() })).toMatchObject({ code: 0, data: { sent: true, address: box.address } });
    const message = (await t.outbox()).filter((m) => m.to === box.address).at(-1)!;
    const code = await t.lastCode(box.address);
    expect(message.subject).toBe(`Maildesk 邮箱投递检查 check@${name}：${code}`);
    expect(message.text).toContain(`这封邮件证明 check@${name} 可以收信。请在 Maildesk 的邮箱页面输入验证码 ${code} 完成确认，${CODE_MINUTES} 分钟内有效。`);
    const sent = await t.services.db.selectFrom('email_send_log').select(['template_key', 'locale', 'user_id']).where('recipient', '=', box.address).executeTakeFirstOrThrow();
    expect(sent).toEqual({ template_key: 'mailbox_check', locale: 'zh', user_id: customer.id });

    // Spaces around the code are no part of it.
    const confirmed = await t.post('/api/admin/email/send_verify_code', { id: box.id, code: ` ${code} ` }, { token: customer.token, ip: someIp() });
    expect(confirmed).toMatchObject({ code: 0, data: { id: box.id } });
    expect(confirmed.data.delivery_checked_at).toBeTruthy();
    expect(await logOf(box.id, 'delivery_checked')).toEqual([expect.objectContaining({ actor_type: 'customer', user_id: customer.id, after: { address: box.address } })]);
  });

  it('When the code has a letter in front or a seventh digit, then it is refused as malformed', async () => {
    const { customer, domain } = await customerWithDomain();
    const box = await mail.mailbox(customer.token, domain.id);
    for (const code of ['a123456', '1234567', '12345a']) {
      expect(await t.post('/api/admin/email/send_verify_code', { id: box.id, code }, { token: customer.token, ip: someIp() }), code).toMatchObject({ code: 40000, errors: { code: { message: 'validation.code_format' } } });
    }
  });

  it('When five codes were sent within the hour, then a sixth is refused and not mailed; after ten wrong codes even the right one is refused', async () => {
    const { customer, domain } = await customerWithDomain();
    const box = await mail.mailbox(customer.token, domain.id);
    // A team member, to whom no code was ever sent: the limit counts per signed-in person.
    const member = await teamMemberOf(t, customer, { domain_ids: [domain.id] });
    const send = () => t.post('/api/admin/email/send_verify_code', { id: box.id }, { token: member.token, ip: someIp() });
    for (let i = 0; i < 5; i++) expect((await send()).code).toBe(0);
    const mailed = (await t.outbox()).filter((m) => m.to === box.address).length;
    expect(await send()).toMatchObject({ status: 429, code: 42900 });
    expect((await t.outbox()).filter((m) => m.to === box.address)).toHaveLength(mailed);

    const code = await t.lastCode(box.address);
    const wrong = code === '000000' ? '111111' : '000000';
    const check = (c: string) => t.post('/api/admin/email/send_verify_code', { id: box.id, code: c }, { token: member.token, ip: someIp() });
    for (let i = 0; i < 10; i++) expect((await check(wrong)).code).toBe(40102);
    expect(await check(code)).toMatchObject({ code: 42900 });
    expect((await t.get('/api/admin/email/get', { id: box.id }, { token: customer.token })).data.delivery_checked_at).toBeNull();
  });
});

describe('restoring a deleted mailbox', () => {
  async function deleted(customer: CustomerSession, domainId: number) {
    const box = await mail.mailbox(customer.token, domainId, `r${crypto.randomBytes(3).toString('hex')}`, { quota: 10 * MiB });
    expect((await t.post('/api/admin/email/delete', { id: box.id }, { token: customer.token })).code).toBe(0);
    const row = await t.services.db.selectFrom('deleted_mailbox').selectAll().where('mailbox_id', '=', box.id).executeTakeFirstOrThrow();
    return { box, row, id: Number(row.id) };
  }
  const restore = (id: number) => t.post('/api/manage/deleted_email/restore', { id }, { token: root });

  it('When a team member deleted a deactivated mailbox Dovecot had counted mail for, then the record says who, and the restore brings it back deactivated with that usage', async () => {
    const { customer, domain } = await customerWithDomain();
    const member = await teamMemberOf(t, customer, { domain_ids: [domain.id] });
    const address = `used@${domain.name}`;
    await t.services.db.insertInto('mailbox_usage').values({ address, bytes: 5000, messages: 7 }).execute();
    const made = await mail.mailbox(customer.token, domain.id, 'used', { quota: 10 * MiB, active: 0 });
    expect((await t.post('/api/admin/email/delete', { id: made.id }, { token: member.token })).code).toBe(0);
    const record = await t.services.db.selectFrom('deleted_mailbox').selectAll().where('mailbox_id', '=', made.id).executeTakeFirstOrThrow();
    expect(record).toMatchObject({ deleted_by_type: 'team_member', deleted_by: member.email, used_bytes: 5000, used_messages: 7, active: 0 });
    expect(await t.services.db.selectFrom('mailbox_usage').select('bytes').where('address', '=', address).execute()).toEqual([]);

    const restored = await restore(Number(record.id));
    expect(restored).toMatchObject({ code: 0, data: { id: made.id, active: 0, used_bytes: 5000, used_messages: 7 } });
    expect((await logOf(made.id, 'restore'))[0]).toMatchObject({ actor_type: 'operator', user_id: customer.id, after: { address_unicode: made.address_unicode, name: '', quota: 10 * MiB, deleted_at: record.deleted_at } });
    const again = await restore(Number(record.id));
    expect(again).toMatchObject({ status: 409, code: 40900, message: 'error.mailbox_not_restorable', params: { address: made.address_unicode, state: 'restored' } });
    expect(both(again)[0]).toBe(`The deleted mailbox ${made.address_unicode} can no longer be restored: it was restored already, or its mail has been removed or archived.`);
  });

  it("When Dovecot wrote usage for the address after the deletion, then the restored mailbox shows Dovecot's newer count", async () => {
    const { customer, domain } = await customerWithDomain();
    const { box, id } = await deleted(customer, domain.id);
    await t.services.db.insertInto('mailbox_usage').values({ address: box.address, bytes: 999, messages: 1 }).execute();
    expect(await restore(id)).toMatchObject({ code: 0, data: { used_bytes: 999, used_messages: 1 } });
  });

  it("When the customer's largest mailbox quota was lowered below the mailbox's quota, then the restore is refused in one sentence naming both sizes", async () => {
    const { customer, domain } = await customerWithDomain();
    const { box, id } = await deleted(customer, domain.id);
    expect((await t.post('/api/admin/me/update_storage_max', { storage_max: 8 * MiB }, { token: customer.token })).code).toBe(0);
    const refused = await restore(id);
    expect(refused).toMatchObject({ status: 409, code: 40900, message: 'error.restore_quota_above_max', params: { address: box.address_unicode, quota: 10 * MiB, max: 8 * MiB, quota_text: '10 MiB', max_text: '8 MiB' } });
    expect(refused.errors).toBeUndefined();
    expect(both(refused)).toEqual([
      `The mailbox ${box.address_unicode} cannot be restored: its quota (10 MiB) is above what its customer or domain now allows per mailbox (8 MiB). Raise that limit first.`,
      `无法恢复邮箱 ${box.address_unicode}：其配额（10 MiB）超过了该客户或域名现在允许的单个邮箱上限（8 MiB）。请先提高该上限。`,
    ]);
    // Exactly the mailbox's quota is enough.
    expect((await t.post('/api/admin/me/update_storage_max', { storage_max: 10 * MiB }, { token: customer.token })).code).toBe(0);
    expect((await restore(id)).code).toBe(0);
  });

  it("When the domain's largest mailbox quota or its number of mailboxes no longer allows it, then the restore is refused and the mailbox stays deleted", async () => {
    const { customer, domain } = await customerWithDomain();
    const { box, id } = await deleted(customer, domain.id);
    expect((await t.post('/api/manage/domain/update', { id: domain.id, max_quota: 10 * MiB - 1 }, { token: root })).code).toBe(0);
    expect(await restore(id)).toMatchObject({ code: 40900, message: 'error.restore_quota_above_max', params: { address: box.address_unicode, max: 10 * MiB - 1 } });
    expect((await t.post('/api/manage/domain/update', { id: domain.id, max_quota: 10 * MiB, max_mailboxes: 1 }, { token: root })).code).toBe(0);
    await mail.mailbox(customer.token, domain.id, 'newcomer', { quota: MiB });
    expect(await restore(id)).toMatchObject({ code: 40900, message: 'error.mailbox_limit', params: { limit: 1, domain: domain.name_unicode } });
    expect((await t.get('/api/manage/deleted_email/get', { id }, { token: root })).data.state).toBe('pending');
    expect((await t.post('/api/manage/domain/update', { id: domain.id, max_mailboxes: 2 }, { token: root })).code).toBe(0);
    expect(await restore(id)).toMatchObject({ code: 0, data: { id: box.id } });
  });

  it('When an alias of the address came in by another way (an import writing the tables), then the restore is refused naming the address, in both languages', async () => {
    const { customer, domain } = await customerWithDomain();
    const { box, id } = await deleted(customer, domain.id);
    await t.services.db
      .insertInto('alias')
      .values({ owner_id: customer.id, domain_id: domain.id, local_part: box.local_part, address: box.address, address_unicode: box.address_unicode, goto: 'elsewhere@example.org', created_at: new Date().toISOString(), updated_at: new Date().toISOString() } as any)
      .execute();
    const refused = await restore(id);
    expect(refused).toMatchObject({ status: 409, code: 40900, message: 'error.restore_address_taken', params: { address: box.address_unicode } });
    expect(both(refused)).toEqual([
      `The mailbox ${box.address_unicode} cannot be restored: a mailbox or alias now has that address.`,
      `无法恢复邮箱 ${box.address_unicode}：现在已有邮箱或别名使用该地址。`,
    ]);
  });

  it('When the address of a deleted mailbox is asked for again, then the refusal says until when, in both languages', async () => {
    const { customer, domain } = await customerWithDomain();
    const { box, row } = await deleted(customer, domain.id);
    const again = await create(customer.token, { domain_id: domain.id, local_part: box.local_part, quota: MiB });
    const until = `${row.purge_after.slice(0, 10)} ${row.purge_after.slice(11, 16)} UTC`;
    expect(both(again)).toEqual([
      `The mailbox ${box.address_unicode} was deleted and is being kept: support can restore it until ${until}. The address is free again after that.`,
      `邮箱 ${box.address_unicode} 已被删除，正在保留期内：客服可在 ${until} 之前恢复它。此后该地址才可重新使用。`,
    ]);
    expect(messageText('en', again.errors!.local_part.message, again.errors!.local_part.params)).toBe(`A deleted mailbox keeps this address until ${until} (support can restore it until then)`);
  });

  it('When a billing operator asks, then they may read a deleted mailbox but not restore it', async () => {
    const { customer, domain } = await customerWithDomain();
    const { id } = await deleted(customer, domain.id);
    const billing = await operatorWithRole(t, 'billing');
    expect((await t.get('/api/manage/deleted_email/get', { id }, { token: billing.token })).code).toBe(0);
    expect(await t.post('/api/manage/deleted_email/restore', { id }, { token: billing.token })).toMatchObject({ status: 403, code: 40300 });
  });
});
