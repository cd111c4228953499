/**
 * Mailbox deletion as a lifecycle (issue 12): a deleted mailbox is recorded and its mail kept on
 * disk for the grace period (the address stays reserved), an operator can restore it until then,
 * and a job removes or archives its mail afterwards, in the audit log. The mail store is a
 * temporary directory laid out as Dovecot keeps it (deploy/mail-store.ts); business time is moved.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailboxHome } from '../../deploy/mail-store.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures, MiB } from '../helpers/mail-fixtures.js';

const DAY = 86_400_000;
const PASSWORD = 'mailbox-pass-1';

/** A mail store with the Maildir Dovecot would have made for an address, holding one message. */
function storeMail(mailDir: string, address: string, text = 'Subject: kept\r\n\r\nhello\r\n') {
  const [local, domain] = address.split('@');
  const cur = path.join(mailboxHome(mailDir, domain, local), 'Maildir', 'cur');
  fs.mkdirSync(cur, { recursive: true });
  fs.writeFileSync(path.join(cur, '1700000000.M1P1.mx:2,S'), text);
  return mailboxHome(mailDir, domain, local);
}

/** The app with its own mail store; sessions outlast the weeks the clock is moved. */
async function appWithStore(env: Record<string, string> = {}) {
  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-vmail-'));
  const t = await startTestApp({ MAIL_DIR: mailDir, SESSION_IDLE_MINUTES: '1000000', SESSION_ABSOLUTE_HOURS: '100000', ...env });
  return { t, mailDir, mail: mailFixtures(t) };
}

describe('with a grace period of 7 days (the default), mail removed afterwards', () => {
  let t: TestApp;
  let mailDir: string;
  let mail: ReturnType<typeof mailFixtures>;
  let root: string;
  beforeAll(async () => {
    ({ t, mailDir, mail } = await appWithStore());
    root = await operatorLogin(t);
  });
  afterAll(async () => {
    t.resetClock();
    await t.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  async function customerWithMailbox(capacity = GiB) {
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, capacity);
    const domain = await mail.activeDomain(customer);
    const box = await mail.mailbox(customer.token, domain.id, 'info', { name: 'Front desk', quota: 10 * MiB });
    return { customer, domain, box };
  }
  const deletedRow = (mailboxId: number) => t.services.db.selectFrom('deleted_mailbox').selectAll().where('mailbox_id', '=', mailboxId).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const purgeJobs = async () => (await t.services.jobs.list({ name: 'mailbox.purge', page: 1, pageSize: 100 })).list;
  const logOf = async (mailboxId: number) =>
    (await t.post('/api/manage/log/list', { filter: { target_type: 'email', target_id: mailboxId }, sort: 'id', order: 'asc', page_size: 50 }, { token: root })).data.list as { action: string; actor_type: string; after: any; before: any }[];
  const deleteMailbox = async (customer: CustomerSession, id: number) => expect(await t.post('/api/admin/email/delete', { id }, { token: customer.token })).toMatchObject({ code: 0, data: { id } });

  let kept: { customer: CustomerSession; domain: any; box: any; home: string; deletedId: number };

  it('When a customer deletes a mailbox, then it answers as before, and the deletion is recorded with its purge queued for the end of the grace period', async () => {
    const { customer, domain, box } = await customerWithMailbox();
    const home = storeMail(mailDir, box.address);
    await deleteMailbox(customer, box.id);

    expect(await t.get('/api/admin/email/get', { id: box.id }, { token: customer.token })).toMatchObject({ code: 40400 });
    const row = await deletedRow(box.id);
    expect(row).toMatchObject({ state: 'pending', address: box.address, owner_id: customer.id, domain_id: domain.id, quota: 10 * MiB, name: 'Front desk', deleted_by_type: 'customer', deleted_by: customer.email, store_path: home });
    expect(new Date(row.purge_after).getTime() - new Date(row.deleted_at).getTime()).toBe(7 * DAY);
    const job = (await purgeJobs()).find((j) => (j.payload as { deletedMailboxId: number }).deletedMailboxId === Number(row.id));
    expect(job).toMatchObject({ state: 'queued' });
    expect(Math.abs(new Date(job!.run_at).getTime() - new Date(row.purge_after).getTime())).toBeLessThan(2000);
    expect((await logOf(box.id)).map((e) => [e.action, e.actor_type])).toEqual([
      ['create', 'customer'],
      ['delete', 'customer'],
    ]);

    // Operators see it, without its password hash; the mail is untouched; nothing is due yet.
    const listed = await t.post('/api/manage/deleted_email/list', { filter: { state: 'pending', owner_id: customer.id } }, { token: root });
    expect(listed.data.list).toEqual([expect.objectContaining({ id: Number(row.id), address_unicode: box.address_unicode, state: 'pending', used_bytes: 0 })]);
    const one = await t.get('/api/manage/deleted_email/get', { id: row.id }, { token: root });
    expect(one.data).toMatchObject({ mailbox_id: box.id, purge_after: row.purge_after });
    expect(JSON.stringify(one.data)).not.toContain('ARGON2');
    await t.services.jobs.drain();
    expect(fs.existsSync(path.join(home, 'Maildir', 'cur'))).toBe(true);
    expect((await deletedRow(box.id)).state).toBe('pending');
    kept = { customer, domain, box, home, deletedId: Number(row.id) };
  });

  it('When the address is used again within the grace period, then a mailbox or alias of it is refused, saying until when it can be restored', async () => {
    const { customer, domain, box } = kept;
    const row = await deletedRow(box.id);
    const again = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'info', password: PASSWORD }, { token: customer.token });
    const until_text = `${row.purge_after.slice(0, 10)} ${row.purge_after.slice(11, 16)} UTC`;
    expect(again).toMatchObject({
      status: 409,
      code: 40900,
      message: 'error.address_of_deleted_mailbox',
      params: { address: box.address_unicode, until: row.purge_after, until_text },
      errors: { local_part: { message: 'validation.address_of_deleted_mailbox' } },
    });
    expect(await t.post('/api/manage/email/create', { domain_id: domain.id, local_part: 'info', password: PASSWORD }, { token: root })).toMatchObject({ code: 40900, message: 'error.address_of_deleted_mailbox' });
    expect(await t.post('/api/admin/alias/create', { domain_id: domain.id, local_part: 'info', goto: 'someone@example.org' }, { token: customer.token })).toMatchObject({ code: 40900, message: 'error.address_of_deleted_mailbox' });
    // Other addresses are free as ever.
    expect((await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'sales', password: PASSWORD, quota: MiB }, { token: customer.token })).code).toBe(0);
  });

  it('When a customer or a billing operator tries to list or restore deleted mailboxes, then they cannot', async () => {
    const { customer } = kept;
    expect(await t.post('/api/manage/deleted_email/list', {}, { token: customer.token })).toMatchObject({ code: 20000 });
    expect(await t.post('/api/manage/deleted_email/restore', { id: kept.deletedId }, { token: customer.token })).toMatchObject({ code: 20000 });
    expect(await t.post('/api/admin/deleted_email/list', {}, { token: customer.token })).toMatchObject({ status: 404, code: 40400, message: 'error.no_such_call' });
    expect(await t.post('/api/admin/deleted_email/restore', { id: kept.deletedId }, { token: customer.token })).toMatchObject({ status: 404, code: 40400 });
    const billing = await operatorWithRole(t, 'billing');
    expect((await t.post('/api/manage/deleted_email/list', {}, { token: billing.token })).code).toBe(0);
    expect(await t.post('/api/manage/deleted_email/restore', { id: kept.deletedId }, { token: billing.token })).toMatchObject({ code: 40300 });
    expect((await deletedRow(kept.box.id)).state).toBe('pending');
  });

  it('When a support operator restores it within the grace period, then the same mailbox is back, its password still signs in, and the purge later does nothing', async () => {
    const { customer, box, home, deletedId } = kept;
    const support = await operatorWithRole(t, 'support');
    expect(await t.post('/api/manage/deleted_email/restore', { id: 987_654 }, { token: support.token })).toMatchObject({ code: 40400 });
    const restored = await t.post('/api/manage/deleted_email/restore', { id: deletedId }, { token: support.token });
    expect(restored).toMatchObject({ code: 0, data: { id: box.id, address: box.address, name: 'Front desk', quota: 10 * MiB, active: 1, owner_id: customer.id, created_at: box.created_at } });
    expect((await t.get('/api/admin/email/get', { id: box.id }, { token: customer.token })).data).toMatchObject({ address: box.address });

    // What Dovecot reads (mail_mailbox) has the mailbox again, and its old password verifies.
    const dovecotRow = await t.services.db.selectFrom('mail_mailbox' as any).selectAll().where('address', '=', box.address).executeTakeFirstOrThrow() as { password_hash: string };
    expect(await verify(dovecotRow.password_hash.replace(/^\{ARGON2ID\}/, ''), PASSWORD)).toBe(true);

    expect(await deletedRow(box.id)).toMatchObject({ state: 'restored', finished_by: support.username });
    expect((await logOf(box.id)).at(-1)).toMatchObject({ action: 'restore', actor_type: 'operator', after: { address_unicode: box.address_unicode } });
    // Restored once: a second try is refused.
    expect(await t.post('/api/manage/deleted_email/restore', { id: deletedId }, { token: support.token })).toMatchObject({ code: 40900, message: 'error.mailbox_not_restorable' });

    // The grace period ends: the queued purge runs and leaves the restored mailbox's mail alone.
    await t.moveClock(7 * DAY + 60_000);
    await t.services.jobs.drain();
    expect((await purgeJobs()).find((j) => (j.payload as { deletedMailboxId: number }).deletedMailboxId === deletedId)).toMatchObject({ state: 'done', last_error: null });
    expect(fs.readdirSync(path.join(home, 'Maildir', 'cur'))).toHaveLength(1);
    expect((await deletedRow(box.id)).state).toBe('restored');
  });

  it('When the grace period ends, then the job removes the mailbox directory (and only it), logged as the system; the address is free again and the mailbox no longer restorable', async () => {
    const { customer, domain, box } = await customerWithMailbox();
    const home = storeMail(mailDir, box.address);
    const other = await mail.mailbox(customer.token, domain.id, 'other', { quota: MiB });
    const otherHome = storeMail(mailDir, other.address);
    await deleteMailbox(customer, box.id);
    const { id } = await deletedRow(box.id);

    await t.moveClock(7 * DAY - 60_000);
    await t.services.jobs.drain();
    expect(fs.existsSync(home)).toBe(true);

    await t.moveClock(2 * 60_000);
    await t.services.jobs.drain();
    expect(fs.existsSync(home)).toBe(false);
    expect(fs.existsSync(path.join(mailDir, domain.name))).toBe(true);
    expect(fs.readdirSync(path.join(otherHome, 'Maildir', 'cur'))).toHaveLength(1);
    expect(await deletedRow(box.id)).toMatchObject({ state: 'purged', outcome: 'removed', finished_by: 'system', store_path: home, archive_path: null });
    expect((await logOf(box.id)).at(-1)).toMatchObject({ action: 'purge_mail', actor_type: 'system', after: { address_unicode: box.address_unicode, outcome: 'removed' } });
    // The customer's own log tells them too.
    const own = await t.post('/api/admin/log/list', { filter: { action: 'purge_mail' } }, { token: customer.token });
    expect(own.data.list).toEqual([expect.objectContaining({ actor_type: 'system', target_id: box.id })]);

    // Idempotent: the job once more (a run cut short and repeated) changes nothing.
    const { purgeDeletedMailbox } = await import('../../server/mail/mailbox-deletion.js');
    await purgeDeletedMailbox(t.services, Number(id));
    expect((await logOf(box.id)).filter((e) => e.action === 'purge_mail')).toHaveLength(1);

    expect(await t.post('/api/manage/deleted_email/restore', { id }, { token: root })).toMatchObject({ code: 40900, message: 'error.mailbox_not_restorable' });
    const fresh = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'info', password: 'another-pass-1', quota: MiB }, { token: customer.token });
    expect(fresh).toMatchObject({ code: 0, data: { address: box.address } });
    expect(fresh.data.id).not.toBe(box.id);
  });

  it('When the mail store is not reachable when the purge is due, then the job fails and retries, the mailbox stays restorable, and the mail goes once the store is back', async () => {
    const { customer, box } = await customerWithMailbox();
    const home = storeMail(mailDir, box.address);
    await deleteMailbox(customer, box.id);
    const { id } = await deletedRow(box.id);
    fs.renameSync(mailDir, `${mailDir}.away`);
    try {
      await t.moveClock(7 * DAY + 60_000);
      await t.services.jobs.drain();
      const job = (await purgeJobs()).find((j) => (j.payload as { deletedMailboxId: number }).deletedMailboxId === Number(id));
      expect(job).toMatchObject({ state: 'queued', attempts: 1, last_error: expect.stringMatching(/MAIL_DIR.*not reachable/) });
      expect((await deletedRow(box.id)).state).toBe('pending');
    } finally {
      fs.renameSync(`${mailDir}.away`, mailDir);
    }
    await t.moveClock(60 * 60_000);
    await t.services.jobs.drain();
    expect(fs.existsSync(home)).toBe(false);
    expect((await deletedRow(box.id)).state).toBe('purged');
  });

  it('When a restore is not possible (capacity now in use, domain gone), then the operator is told why and nothing changes', async () => {
    const { customer, domain, box } = await customerWithMailbox(12 * MiB);
    await deleteMailbox(customer, box.id);
    const { id } = await deletedRow(box.id);
    // The freed capacity went to another mailbox.
    await mail.mailbox(customer.token, domain.id, 'newcomer', { quota: 10 * MiB });
    expect(await t.post('/api/manage/deleted_email/restore', { id }, { token: root })).toMatchObject({ code: 40900, message: 'error.capacity_exceeded' });
    expect((await deletedRow(box.id)).state).toBe('pending');

    const second = await customerWithMailbox();
    await deleteMailbox(second.customer, second.box.id);
    expect((await t.post('/api/admin/domain/delete', { id: second.domain.id }, { token: second.customer.token })).code).toBe(0);
    const secondId = (await deletedRow(second.box.id)).id;
    const gone = await t.post('/api/manage/deleted_email/restore', { id: secondId }, { token: root });
    expect(gone).toMatchObject({ code: 40900, message: 'error.restore_domain_gone', params: { address: second.box.address_unicode, domain: second.domain.name_unicode } });
    // The customer adds the domain again: the mailbox can come back into it.
    const readded = await mail.activeDomain(second.customer, second.domain.name);
    expect(await t.post('/api/manage/deleted_email/restore', { id: secondId }, { token: root })).toMatchObject({ code: 0, data: { id: second.box.id, domain_id: readded.id, address: second.box.address } });
  });

  it('When an operator deletes a customer, then each of its mailboxes is recorded and logged as deleted, and its mail removed after the grace period', async () => {
    const { customer, box } = await customerWithMailbox();
    const home = storeMail(mailDir, box.address);
    expect((await t.post('/api/manage/user/delete', { id: customer.id }, { token: root })).code).toBe(0);
    expect(await deletedRow(box.id)).toMatchObject({ state: 'pending', owner_id: customer.id, deleted_by_type: 'operator', deleted_by: 'root' });
    expect((await logOf(box.id)).at(-1)).toMatchObject({ action: 'delete', actor_type: 'operator' });
    await t.moveClock(7 * DAY + 60_000);
    await t.services.jobs.drain();
    expect(fs.existsSync(home)).toBe(false);
    expect((await deletedRow(box.id)).state).toBe('purged');
  });
});

describe('with MAILBOX_DELETE_MODE=archive and no grace period', () => {
  let t: TestApp;
  let mailDir: string;
  let mail: ReturnType<typeof mailFixtures>;
  beforeAll(async () => {
    ({ t, mailDir, mail } = await appWithStore({ MAILBOX_DELETE_MODE: 'archive', MAILBOX_DELETE_GRACE_DAYS: '0' }));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  it('When a mailbox is deleted, then its directory is moved to the archive under the mail store, once per deletion, and the address is free', async () => {
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, GiB);
    const domain = await mail.activeDomain(customer);
    const first = await mail.mailbox(customer.token, domain.id, 'info');
    const home = storeMail(mailDir, first.address, 'Subject: first\r\n\r\n1\r\n');
    expect((await t.post('/api/admin/email/delete', { id: first.id }, { token: customer.token })).code).toBe(0);
    await t.services.jobs.drain();

    const row = await t.services.db.selectFrom('deleted_mailbox').selectAll().where('mailbox_id', '=', first.id).executeTakeFirstOrThrow();
    const archived = path.join(mailDir, '.archive', domain.name, `info.${row.id}`);
    expect(row).toMatchObject({ state: 'archived', outcome: 'archived', archive_path: archived });
    expect(fs.existsSync(home)).toBe(false);
    expect(fs.readFileSync(path.join(archived, 'Maildir', 'cur', '1700000000.M1P1.mx:2,S'), 'utf8')).toContain('first');

    // The same address again, deleted again: a second archive beside the first.
    const second = await mail.mailbox(customer.token, domain.id, 'info');
    storeMail(mailDir, second.address, 'Subject: second\r\n\r\n2\r\n');
    expect((await t.post('/api/admin/email/delete', { id: second.id }, { token: customer.token })).code).toBe(0);
    await t.services.jobs.drain();
    expect(fs.readdirSync(path.join(mailDir, '.archive', domain.name)).sort()).toHaveLength(2);

    // A mailbox that never received mail has nothing on disk: recorded as such.
    const empty = await mail.mailbox(customer.token, domain.id, 'empty');
    expect((await t.post('/api/admin/email/delete', { id: empty.id }, { token: customer.token })).code).toBe(0);
    await t.services.jobs.drain();
    expect(await t.services.db.selectFrom('deleted_mailbox').select(['state', 'outcome']).where('mailbox_id', '=', empty.id).executeTakeFirstOrThrow()).toEqual({ state: 'purged', outcome: 'nothing_on_disk' });
  });
});

describe('records of deleted mailboxes, kept DELETED_MAILBOX_RETENTION_DAYS (90 by default) after their story ends', () => {
  let t: TestApp;
  let mailDir: string;
  let mail: ReturnType<typeof mailFixtures>;
  let root: string;
  let day = 0;
  beforeAll(async () => {
    // A grace period longer than the retention: a record can be pending for more than 90 days.
    ({ t, mailDir, mail } = await appWithStore({ MAILBOX_DELETE_GRACE_DAYS: '200' }));
    root = await operatorLogin(t);
  });
  afterAll(async () => {
    t.resetClock();
    await t.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  /** Business time moves on to `target` days (and a minute) after the test began; due jobs run. */
  async function toDay(target: number) {
    await t.moveClock((target - day) * DAY + 60_000);
    day = target + 60_000 / DAY;
    await t.services.jobs.drain();
  }
  const recordOf = (id: number) => t.get('/api/manage/deleted_email/get', { id }, { token: root });

  it('When housekeeping runs, then a record 91 days after its mail was removed (or it was restored) is gone and logged, one 89 days after stays, and a pending or purging one stays however old', async () => {
    const customer = await signUpCustomer(t);
    await mail.grant(customer.id, GiB);
    const domain = await mail.activeDomain(customer);
    const [a, b, p, r] = [await mail.mailbox(customer.token, domain.id, 'a'), await mail.mailbox(customer.token, domain.id, 'b'), await mail.mailbox(customer.token, domain.id, 'p'), await mail.mailbox(customer.token, domain.id, 'r')];
    const remove = async (box: { id: number }) => {
      expect((await t.post('/api/admin/email/delete', { id: box.id }, { token: customer.token })).code).toBe(0);
      return Number((await t.services.db.selectFrom('deleted_mailbox').select('id').where('mailbox_id', '=', box.id).executeTakeFirstOrThrow()).id);
    };
    storeMail(mailDir, a.address);
    const [aId, rId] = [await remove(a), await remove(r)];
    await toDay(2);
    const bId = await remove(b);
    await toDay(100);
    const pId = await remove(p);
    await toDay(199);
    expect((await t.post('/api/manage/deleted_email/restore', { id: rId }, { token: root })).code).toBe(0);
    await toDay(200);
    expect((await recordOf(aId)).data).toMatchObject({ state: 'purged', outcome: 'removed' });
    await toDay(202);
    expect((await recordOf(bId)).data).toMatchObject({ state: 'purged' });

    // Day 291: a's mail went 91 days ago, r came back 92 days ago, b's mail went 89 days ago; p was deleted 191 days ago and is still restorable.
    await toDay(291);
    await t.services.jobs.runSchedule('housekeeping');
    expect(await recordOf(aId)).toMatchObject({ code: 40400 });
    expect(await recordOf(rId)).toMatchObject({ code: 40400 });
    expect(await recordOf(bId)).toMatchObject({ code: 0, data: { state: 'purged', address: b.address } });
    expect(await recordOf(pId)).toMatchObject({ code: 0, data: { state: 'pending', address: p.address } });
    const pending = await t.post('/api/manage/deleted_email/list', { filter: { state: 'pending' } }, { token: root });
    expect(pending.data.list.map((row: { id: number }) => row.id)).toEqual([pId]);
    // The restored mailbox itself is untouched.
    expect(await t.get('/api/admin/email/get', { id: r.id }, { token: customer.token })).toMatchObject({ code: 0, data: { address: r.address } });

    const log = await t.post('/api/manage/log/list', { filter: { target_type: 'deleted_email', action: 'delete' }, sort: 'id', order: 'asc' }, { token: root });
    expect(log.data.list).toEqual([
      expect.objectContaining({ actor_type: 'system', target_id: aId, user_id: customer.id, before: expect.objectContaining({ address_unicode: a.address_unicode, state: 'purged', archive_path: null }) }),
      expect.objectContaining({ actor_type: 'system', target_id: rId, user_id: customer.id, before: expect.objectContaining({ address_unicode: r.address_unicode, state: 'restored' }) }),
    ]);

    // Two days on, b's record goes too; p, pending and then with its purge at work (a run cut short), still stays.
    await toDay(293);
    await t.services.jobs.runSchedule('housekeeping');
    expect(await recordOf(bId)).toMatchObject({ code: 40400 });
    await t.services.db.updateTable('deleted_mailbox').set({ state: 'purging' }).where('id', '=', pId).execute();
    await t.services.jobs.runSchedule('housekeeping');
    expect(await recordOf(pId)).toMatchObject({ code: 0, data: { state: 'purging' } });
    expect((await t.post('/api/manage/log/list', { filter: { target_type: 'deleted_email' } }, { token: root })).data.total).toBe(3);
  });
});
