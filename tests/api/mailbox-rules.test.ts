/**
 * Deleted mailboxes' business rules at their edges: the address stays held while the mail is
 * still on disk, also while its removal is under way; a restore goes only into the customer's
 * own domain, never into a domain of the same name that another customer added meanwhile.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailboxHome } from '../../deploy/mail-store.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures, MiB } from '../helpers/mail-fixtures.js';

const DAY = 86_400_000;
const PASSWORD = 'mailbox-pass-1';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
let mailDir: string;
beforeAll(async () => {
  mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-vmail-'));
  // Archived after the default 7 days' grace; sessions outlast the days the clock is moved.
  t = await startTestApp({ MAIL_DIR: mailDir, MAILBOX_DELETE_MODE: 'archive', SESSION_IDLE_MINUTES: '1000000', SESSION_ABSOLUTE_HOURS: '100000' });
  mail = mailFixtures(t);
});
afterEach(() => t.resetClock());
afterAll(async () => {
  await t.close();
  fs.rmSync(mailDir, { recursive: true, force: true });
});

/** A customer with capacity, an active domain and the mailbox info@ in it, which the customer then deletes. */
async function deletedMailbox(customer?: CustomerSession) {
  customer ??= await signUpCustomer(t);
  await mail.grant(customer.id, GiB);
  const domain = await mail.activeDomain(customer);
  const box = await mail.mailbox(customer.token, domain.id, 'info', { quota: 10 * MiB });
  expect((await t.post('/api/admin/email/delete', { id: box.id }, { token: customer.token })).code).toBe(0);
  const row = await t.services.db.selectFrom('deleted_mailbox').select(['id', 'state']).where('mailbox_id', '=', box.id).executeTakeFirstOrThrow();
  return { customer, domain, box, deletedId: Number(row.id) };
}
const stateOf = async (deletedId: number) => (await t.services.db.selectFrom('deleted_mailbox').select('state').where('id', '=', deletedId).executeTakeFirstOrThrow()).state;

describe('the address of a deleted mailbox', () => {
  it('When its mail is kept, and then while its removal is under way, then neither a mailbox nor an alias of that address can be made; once the mail is gone, it can', async () => {
    const { customer, domain, box, deletedId } = await deletedMailbox();
    const root = await mail.operator();
    const attempts = () =>
      Promise.all([
        t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'info', password: PASSWORD, quota: MiB }, { token: customer.token }),
        t.post('/api/manage/email/create', { domain_id: domain.id, local_part: 'info', password: PASSWORD, quota: MiB }, { token: root }),
        t.post('/api/admin/alias/create', { domain_id: domain.id, local_part: 'info', goto: 'someone@example.org' }, { token: customer.token }),
      ]);
    const refusedWith = (message: string) => ({ status: 409, code: 40900, message: `error.${message}`, params: { address: box.address_unicode }, errors: { local_part: { message: `validation.${message}` } } });

    expect(await stateOf(deletedId)).toBe('pending');
    for (const reply of await attempts()) expect(reply).toMatchObject(refusedWith('address_of_deleted_mailbox'));

    // The grace period is over and the removal of its mail starts, but cannot finish: the archive cannot be made.
    fs.mkdirSync(path.join(mailboxHome(mailDir, domain.name, 'info'), 'Maildir', 'cur'), { recursive: true });
    fs.writeFileSync(path.join(mailDir, '.archive'), 'in the way');
    await t.moveClock(7 * DAY + 60_000);
    await t.services.jobs.drain();
    expect(await stateOf(deletedId)).toBe('purging');
    for (const reply of await attempts()) expect(reply).toMatchObject(refusedWith('address_being_purged'));
    expect(await t.services.db.selectFrom('mailbox').select('id').where('address', '=', box.address).execute()).toEqual([]);
    expect(await t.services.db.selectFrom('alias').select('id').where('address', '=', box.address).execute()).toEqual([]);

    // The retry finishes the removal: the address is free again.
    fs.rmSync(path.join(mailDir, '.archive'));
    await t.moveClock(10 * 60_000);
    await t.services.jobs.drain();
    expect(await stateOf(deletedId)).toBe('archived');
    expect(await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'info', password: PASSWORD, quota: MiB }, { token: customer.token })).toMatchObject({ code: 0, data: { address: box.address } });
  });
});

describe('restoring a deleted mailbox', () => {
  it('When its domain was removed and another customer has added a domain of the same name, then the restore is refused and changes nothing', async () => {
    const { customer, domain, box, deletedId } = await deletedMailbox();
    expect((await t.post('/api/admin/domain/delete', { id: domain.id }, { token: customer.token })).code).toBe(0);
    const newcomer = await signUpCustomer(t);
    await mail.grant(newcomer.id, GiB);
    const taken = await mail.activeDomain(newcomer, domain.name);

    const restored = await t.post('/api/manage/deleted_email/restore', { id: deletedId }, { token: await mail.operator() });
    expect(restored).toMatchObject({ status: 409, code: 40900, message: 'error.restore_domain_gone', params: { address: box.address_unicode, domain: domain.name_unicode } });
    expect(await stateOf(deletedId)).toBe('pending');
    expect(await t.services.db.selectFrom('mailbox').select('id').where('address', '=', box.address).execute()).toEqual([]);
    expect(await t.services.db.selectFrom('mail_mailbox' as any).select('address').where('address', '=', box.address).execute()).toEqual([]);
    expect((await t.post('/api/admin/email/list', { filter: { domain_id: taken.id } }, { token: newcomer.token })).data.total).toBe(0);
    for (const owner of [customer, newcomer]) expect((await t.post('/api/admin/storage/summary', {}, { token: owner.token })).data).toMatchObject({ allocated: 0, mailboxes: 0 });
  });
});
