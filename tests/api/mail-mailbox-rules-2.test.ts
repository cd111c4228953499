/**
 * A mailbox's out-of-office and forwarding at their edges (defaults, input limits, changes of one
 * part at a time, which addresses are the mailbox's own), the archive and housekeeping ends of a
 * deleted mailbox's life, and the mailbox password schemes imports bring, at their edges.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archivedHome, mailboxHome } from '../../deploy/mail-store.js';
import { messageText } from '../../resources/messages.js';
import { schemeOf, shaCrypt, verifySchemeHash } from '../../server/mail/password-schemes.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, teamMemberOf } from '../helpers/fixtures.js';
import { mailboxOwner, mailFixtures } from '../helpers/mail-fixtures.js';

const DAY = 86_400_000;

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
let root: string;
let mailDir: string;
beforeAll(async () => {
  mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-vmail-'));
  // Deleted mailboxes' mail archived at once (no grace period).
  t = await startTestApp({ MAIL_DIR: mailDir, MAILBOX_DELETE_MODE: 'archive', MAILBOX_DELETE_GRACE_DAYS: '0' });
  mail = mailFixtures(t);
  root = await mail.operator();
});
afterAll(async () => {
  t.resetClock();
  await t.close();
  fs.rmSync(mailDir, { recursive: true, force: true });
});

const ooo = (token: string, body: Record<string, unknown>) => t.post('/api/mail/rules/update_out_of_office', body, { token });
const forwarding = (token: string, body: Record<string, unknown>) => t.post('/api/mail/rules/update_forwarding', body, { token });
const rulesOf = async (token: string) => (await t.get('/api/mail/rules/info', {}, { token })).data;
const sieveOf = async (id: number) => (await t.services.db.selectFrom('mailbox_sieve').select('script').where('mailbox_id', '=', id).executeTakeFirst())?.script;
const logOf = async (targetId: number, action: string) =>
  (await t.post('/api/manage/log/list', { filter: { target_type: 'email', target_id: targetId, action }, sort: 'id', order: 'desc' }, { token: root })).data.list as Record<string, any>[];

describe("a mailbox's rules", () => {
  it('When a mailbox has never had rules, then every area reads the defaults, changed by nobody yet', async () => {
    const owner = await mailboxOwner(t);
    const defaults = {
      out_of_office: { enabled: false, starts_at: null, ends_at: null, time_zone: 'UTC', subject: '', body: '', interval_days: 7 },
      forwarding: { enabled: false, addresses: [], keep_copy: true },
      updated_at: null,
      updated_by: null,
    };
    expect(await rulesOf(owner.token)).toEqual(defaults);
    expect((await t.get('/api/admin/email/rules', { id: owner.id }, { token: owner.customer.token })).data).toEqual(defaults);
  });

  it('When the reply is off, then it needs no subject nor text; on, 1 and 30 days, 255 characters of subject and 10,000 of text are taken, one more of each refused', async () => {
    const owner = await mailboxOwner(t);
    expect(await ooo(owner.token, { enabled: 0, subject: '', body: '   ' })).toMatchObject({ code: 0, data: { out_of_office: { enabled: false } } });
    expect(await sieveOf(owner.id)).toBeUndefined();
    const subject = 's'.repeat(255);
    const body = 'b'.repeat(10_000);
    for (const days of [1, 30]) {
      expect(await ooo(owner.token, { enabled: 1, subject, body, interval_days: days })).toMatchObject({ code: 0, data: { out_of_office: { enabled: true, subject, interval_days: days } } });
      expect(await sieveOf(owner.id)).toContain(`vacation :days ${days} `);
    }
    expect((await rulesOf(owner.token)).out_of_office).toMatchObject({ enabled: true, body, interval_days: 30 });
    const before = await rulesOf(owner.token);
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ interval_days: 0 }, 'interval_days', 'validation.too_small'],
      [{ subject: `${subject}s` }, 'subject', 'validation.too_long'],
      [{ body: `${body}b` }, 'body', 'validation.too_long'],
      [{ time_zone: `Europe/${'x'.repeat(58)}` }, 'time_zone', 'validation.too_long'],
    ];
    for (const [change, field, message] of refusals) {
      const reply = await ooo(owner.token, { enabled: true, subject: 'S', body: 'B', ...change });
      expect({ field, code: reply.code, message: reply.errors?.[field]?.message }).toEqual({ field, code: 40000, message });
    }
    expect(await rulesOf(owner.token)).toEqual(before);
  });

  it('When the reply is changed one part at a time, then what is not named is kept, a null clears a date, and an end before the kept start is refused', async () => {
    const owner = await mailboxOwner(t);
    const full = { enabled: true, starts_at: '2027-03-01T08:00:00Z', ends_at: '2027-03-10T18:00:00Z', time_zone: 'Europe/Berlin', subject: 'Away', body: 'Back soon.', interval_days: 3 };
    expect((await ooo(owner.token, full)).code).toBe(0);

    const off = await ooo(owner.token, { enabled: false });
    expect(off.data.out_of_office).toEqual({ ...full, enabled: false, starts_at: '2027-03-01T08:00:00.000Z', ends_at: '2027-03-10T18:00:00.000Z' });
    expect(await sieveOf(owner.id)).toBeUndefined();
    expect((await logOf(owner.id, 'update_out_of_office'))[0]).toMatchObject({ before: { address: owner.address, enabled: true, subject: 'Away' }, after: { address: owner.address, enabled: false, subject: 'Away' } });
    expect(Object.keys((await logOf(owner.id, 'update_out_of_office'))[0].after).sort()).toEqual(['address', 'enabled', 'subject']);

    expect((await ooo(owner.token, { enabled: true })).data.out_of_office).toMatchObject({ enabled: true, subject: 'Away', body: 'Back soon.', time_zone: 'Europe/Berlin', interval_days: 3 });
    const script = await sieveOf(owner.id);
    expect(script).toContain('"ge" "iso8601" "2027-03-01T08:00:00Z"');
    expect(script).toContain('vacation :days 3 :subject "Away"');

    const early = await ooo(owner.token, { enabled: true, ends_at: '2027-02-28T08:00:00Z' });
    expect(early).toMatchObject({ code: 40000, errors: { ends_at: { message: 'validation.ends_before_start' } } });
    expect([messageText('en', early.errors!.ends_at.message), messageText('zh', early.errors!.ends_at.message)]).toEqual(['The end must come after the start', '结束时间必须晚于开始时间']);

    const open = await ooo(owner.token, { enabled: true, starts_at: null, ends_at: '2027-02-28T08:00:00Z' });
    expect(open.data.out_of_office).toMatchObject({ starts_at: null, ends_at: '2027-02-28T08:00:00.000Z' });
    expect(await sieveOf(owner.id)).not.toContain('"ge"');
    expect((await rulesOf(owner.token)).out_of_office).toMatchObject({ starts_at: null, ends_at: '2027-02-28T08:00:00.000Z' });
  });

  it("When aliases and alias domains deliver to the mailbox, then the reply answers only its own addresses, and forwarding may not go to any address that comes back", async () => {
    const owner = await mailboxOwner(t);
    const [local, home] = owner.address.split('@');
    const token = owner.customer.token;
    const other = await mail.activeDomain(owner.customer);
    const mirror = await mail.activeDomain(owner.customer);
    expect((await t.post('/api/admin/alias_domain/create', { alias_domain_id: mirror.id, target_domain_id: owner.domainId }, { token })).code).toBe(0);
    await mail.alias(token, owner.domainId, owner.address, 'sales');
    await mail.alias(token, other.id, owner.address, 'elsewhere');
    await mail.alias(token, owner.domainId, [owner.address, 'someone@example.org'], 'team');
    await mail.alias(token, owner.domainId, owner.address, '*');
    // Its goto holds the mailbox's address inside a longer one.
    await mail.alias(token, owner.domainId, `z${owner.address}`, 'near');
    const off = await mail.alias(token, owner.domainId, owner.address, 'off');
    expect((await t.post('/api/admin/alias/update', { id: off.id, active: 0 }, { token })).code).toBe(0);

    expect((await ooo(owner.token, { enabled: true, subject: 'Away', body: 'Back soon.' })).code).toBe(0);
    const own = [owner.address, `elsewhere@${other.name}`, `sales@${home}`, `${local}@${mirror.name}`, `sales@${mirror.name}`];
    expect(await sieveOf(owner.id)).toContain(`:addresses [${own.map((a) => `"${a}"`).join(', ')}] "Back soon."`);

    for (const address of [`team@${home}`, `${local}@${mirror.name}`, `SALES@${mirror.name}`, `elsewhere@${other.name}`]) {
      const refused = await forwarding(owner.token, { enabled: true, addresses: ['kept@example.org', address] });
      expect(refused, address).toMatchObject({ code: 40000, errors: { addresses: { message: 'validation.forward_to_own_address', params: { address: address.toLowerCase() } } } });
    }
    const refused = await forwarding(owner.token, { enabled: true, addresses: [`team@${home}`] });
    expect(messageText('en', refused.errors!.addresses.message, refused.errors!.addresses.params)).toBe(`Mail to team@${home} already comes to this mailbox: forwarding to it would go round in circles`);
    expect(messageText('zh', refused.errors!.addresses.message, refused.errors!.addresses.params)).toBe(`发往 team@${home} 的邮件本来就会进入此邮箱：转发到该地址会形成循环`);
    // The inactive alias and the one to another address deliver nothing here.
    expect(await forwarding(owner.token, { enabled: true, addresses: [`off@${home}`, `near@${home}`] })).toMatchObject({ code: 0, data: { forwarding: { addresses: [`off@${home}`, `near@${home}`] } } });
  });

  it('When forwarding is changed one part at a time, then the addresses and the copy are kept, turning it off with no address is allowed, and the log and the rules say who', async () => {
    const owner = await mailboxOwner(t);
    const member = await teamMemberOf(t, owner.customer, { domain_ids: [owner.domainId] });
    const set = await t.post('/api/admin/email/update_forwarding', { id: owner.id, enabled: true, addresses: ['a@example.org'], keep_copy: 0 }, { token: member.token });
    expect(set).toMatchObject({ code: 0, data: { forwarding: { enabled: true, addresses: ['a@example.org'], keep_copy: false }, updated_by: `team_member:${member.email}` } });
    expect((await logOf(owner.id, 'update_forwarding'))[0]).toMatchObject({
      actor_type: 'team_member',
      user_id: owner.customer.id,
      before: { address: owner.address, enabled: false, addresses: [], keep_copy: true },
      after: { address: owner.address, enabled: true, addresses: ['a@example.org'], keep_copy: false },
    });

    expect((await forwarding(owner.token, { enabled: false })).code).toBe(0);
    expect(await sieveOf(owner.id)).toBeUndefined();
    expect(await forwarding(owner.token, { enabled: true })).toMatchObject({ code: 0, data: { forwarding: { enabled: true, addresses: ['a@example.org'], keep_copy: false } } });
    expect(await sieveOf(owner.id)).toContain('redirect "a@example.org";');
    expect((await rulesOf(owner.token)).forwarding).toEqual({ enabled: true, addresses: ['a@example.org'], keep_copy: false });
    expect((await logOf(owner.id, 'update_forwarding'))[0].after).toEqual({ address: owner.address, enabled: true });

    expect(await forwarding(owner.token, { enabled: false, addresses: [] })).toMatchObject({ code: 0, data: { forwarding: { enabled: false, addresses: [], keep_copy: false } } });
    expect(await sieveOf(owner.id)).toBeUndefined();
  });

  it('When a billing operator or a team member without the domain asks, then the one may read the rules and change nothing, the other finds no such mailbox', async () => {
    const owner = await mailboxOwner(t);
    const billing = await operatorWithRole(t, 'billing');
    const outsider = await teamMemberOf(t, owner.customer, { domain_ids: [(await mail.activeDomain(owner.customer)).id] });
    expect((await t.get('/api/manage/email/rules', { id: owner.id }, { token: billing.token })).code).toBe(0);
    for (const call of ['update_out_of_office', 'update_forwarding']) {
      expect((await t.post(`/api/manage/email/${call}`, { id: owner.id, enabled: false }, { token: billing.token })).code, call).toBe(40300);
      expect((await t.post(`/api/admin/email/${call}`, { id: owner.id, enabled: false }, { token: outsider.token })).code, call).toBe(40400);
    }
    expect((await t.get('/api/admin/email/rules', { id: owner.id }, { token: outsider.token })).code).toBe(40400);
    expect((await rulesOf(owner.token)).updated_by).toBeNull();
  });
});

describe("the end of a deleted mailbox's life", () => {
  const storeMail = (address: string) => {
    const [local, domain] = address.split('@');
    const cur = path.join(mailboxHome(mailDir, domain, local), 'Maildir', 'cur');
    fs.mkdirSync(cur, { recursive: true });
    fs.writeFileSync(path.join(cur, '1700000000.M1P1.mx:2,S'), 'Subject: kept\r\n\r\nhello\r\n');
  };

  it('When its mail is archived, then the log says so; a run cut short after moving the mail finds the archive and finishes', async () => {
    const owner = await mailboxOwner(t);
    storeMail(owner.address);
    expect((await t.post('/api/admin/email/delete', { id: owner.id }, { token: owner.customer.token })).code).toBe(0);
    await t.services.jobs.drain();
    expect((await logOf(owner.id, 'archive_mail'))[0]).toMatchObject({ actor_type: 'system', user_id: owner.customer.id, after: { address_unicode: owner.address, outcome: 'archived' } });

    // Cut short: the mail already moved to the archive, the record still purging.
    const second = await mail.mailbox(owner.customer.token, owner.domainId);
    storeMail(second.address);
    const [local, domain] = String(second.address).split('@');
    expect((await t.post('/api/admin/email/delete', { id: second.id }, { token: owner.customer.token })).code).toBe(0);
    const row = await t.services.db.selectFrom('deleted_mailbox').selectAll().where('mailbox_id', '=', second.id).executeTakeFirstOrThrow();
    const target = archivedHome(mailDir, domain, local, Number(row.id));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(mailboxHome(mailDir, domain, local), target);
    await t.services.db.updateTable('deleted_mailbox').set({ state: 'purging' }).where('id', '=', row.id).execute();
    await t.services.jobs.drain();
    expect(await t.services.db.selectFrom('deleted_mailbox').select(['state', 'outcome', 'archive_path']).where('id', '=', row.id).executeTakeFirstOrThrow()).toEqual({ state: 'archived', outcome: 'archived', archive_path: target });
    expect(fs.existsSync(path.join(target, 'Maildir', 'cur'))).toBe(true);
  });

  it('When more finished records are due than one batch holds, then housekeeping forgets them all in one run, each logged in order', async () => {
    const owner = await mailboxOwner(t);
    expect((await t.post('/api/admin/email/delete', { id: owner.id }, { token: owner.customer.token })).code).toBe(0);
    await t.services.jobs.drain();
    const { id, ...record } = await t.services.db.selectFrom('deleted_mailbox').selectAll().where('mailbox_id', '=', owner.id).executeTakeFirstOrThrow();
    void id;
    // 500 more, as many past deletions of this customer would have left.
    await t.services.db.insertInto('deleted_mailbox').values(Array.from({ length: 500 }, () => record)).execute();
    await t.moveClock(91 * DAY);
    try {
      await t.services.jobs.runSchedule('housekeeping');
    } finally {
      t.resetClock();
    }
    expect(await t.services.db.selectFrom('deleted_mailbox').select('id').where('owner_id', '=', owner.customer.id).execute()).toEqual([]);
    const log = await t.services.db.selectFrom('log').select('target_id').where('target_type', '=', 'deleted_email').where('user_id', '=', owner.customer.id).orderBy('id').execute();
    expect(log).toHaveLength(501);
    const ids = log.map((l) => Number(l.target_id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
});

describe('mailbox password schemes at their edges', () => {
  const b64 = (...parts: Buffer[]) => Buffer.concat(parts).toString('base64');
  const digest = (algorithm: string, ...parts: (string | Buffer)[]) => {
    const h = crypto.createHash(algorithm);
    for (const p of parts) h.update(p);
    return h.digest();
  };

  it('When a scheme only Dovecot writes (SMD5, SHA, LDAP-MD5, clear text) is checked, then its password matches and another of the same length does not', async () => {
    const salt = Buffer.from('saltsalt');
    const hashes = [
      `{SMD5}${b64(digest('md5', 'secret', salt), salt)}`,
      `{SHA}${b64(digest('sha1', 'secret'))}`,
      `{LDAP-MD5}${b64(digest('md5', 'secret'))}`,
      '{PLAIN}secret',
      '{CLEAR}secret',
      '{CLEARTEXT}secret',
      '{plain}secret',
    ];
    for (const hash of hashes) {
      expect(await verifySchemeHash(hash, 'secret'), hash).toBe(true);
      expect(await verifySchemeHash(hash, 'secreT'), hash).toBe(false);
    }
    expect(schemeOf('{plain}secret')).toBe('PLAIN');
  });

  it('When a digest is written in hex (upper or lower case) or with an encoding suffix, then it is read as Dovecot reads it', async () => {
    const sha256 = digest('sha256', 'secret');
    for (const hash of [`{SHA256}${sha256.toString('hex').toUpperCase()}`, `{SHA256.HEX}${sha256.toString('hex')}`, `{SHA256.B64}${b64(sha256)}`, `{SHA256.BASE64}${b64(sha256)}`, `{PLAIN-MD5}${digest('md5', 'secret').toString('hex').toUpperCase()}`]) {
      expect(await verifySchemeHash(hash, 'secret'), hash).toBe(true);
      expect(await verifySchemeHash(hash, 'secres'), hash).toBe(false);
    }
  });

  it('When a salted digest carries no salt, then nothing matches it; one byte of salt is enough', async () => {
    expect(await verifySchemeHash(`{SSHA}${b64(digest('sha1', 'secret'))}`, 'secret')).toBe(false);
    expect(await verifySchemeHash(`{SSHA256}${b64(digest('sha256', 'secret'))}`, 'secret')).toBe(false);
    const salt = Buffer.from('x');
    expect(await verifySchemeHash(`{SSHA}${b64(digest('sha1', 'secret', salt), salt)}`, 'secret')).toBe(true);
    expect(await verifySchemeHash(`{SSHA512}${b64(digest('sha512', 'secret', salt), salt)}`, 'secret')).toBe(true);
  });

  it('When a crypt(3) string comes without a scheme prefix, then its form names the scheme; bcrypt in every variant verifies', async () => {
    const bcrypt2b = bcrypt.hashSync('secret', 4);
    const sha256 = shaCrypt('sha256', 'secret', '$5$saltstring');
    expect([schemeOf(shaCrypt('sha512', 'secret', '$6$salt')), schemeOf(sha256), schemeOf('$1$salt$x'), schemeOf('$2$05$x'), schemeOf('$2a$05$x'), schemeOf('$argon2id$v=19$x'), schemeOf('$argon2i$v=19$x'), schemeOf('x$2a$05$x'), schemeOf('x{PLAIN}secret'), schemeOf('secret')]).toEqual([
      'SHA512-CRYPT',
      'SHA256-CRYPT',
      'MD5-CRYPT',
      'BLF-CRYPT',
      'BLF-CRYPT',
      'ARGON2ID',
      'ARGON2I',
      undefined,
      undefined,
      undefined,
    ]);
    expect(await verifySchemeHash(sha256, 'secret')).toBe(true);
    expect(await verifySchemeHash(`{CRYPT}${sha256}`, 'secret')).toBe(true);
    for (const variant of ['$2a$', '$2b$', '$2x$', '$2y$']) {
      const hash = bcrypt2b.replace(/^\$2b\$/, variant);
      expect(await verifySchemeHash(hash, 'secret'), variant).toBe(true);
      expect(await verifySchemeHash(`{BLF-CRYPT}${hash}`, 'secreT'), variant).toBe(false);
    }
  });

  it('When a SHA-crypt setting names no rounds, then 5,000 are made and none written; named rounds are written back', () => {
    expect(shaCrypt('sha256', 'secret', '$5$saltstring')).toBe(shaCrypt('sha256', 'secret', '$5$rounds=5000$saltstring').replace('rounds=5000$', ''));
    expect(shaCrypt('sha512', 'secret', '$6$rounds=1001$salt')).toMatch(/^\$6\$rounds=1001\$salt\$/);
    expect(() => shaCrypt('sha512', 'secret', '$5$salt')).toThrow();
  });
});
