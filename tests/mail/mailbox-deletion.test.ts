/**
 * Mailbox deletion with the real mail server (issue 12): a mailbox that received mail over SMTP is
 * deleted in the panel (it stops at once, its Maildir stays), restored by an operator (IMAP login
 * works and the message is still there), deleted again, and when its purge is due the panel's job
 * removes its Maildir — or, with MAILBOX_DELETE_MODE=archive, moves it to the store's archive.
 * The address is then free, and a new mailbox of it starts empty.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailboxHome } from '../../deploy/mail-store.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { inboxSubjects, MAILBOX_PASSWORD, readInbox } from './imap.js';
import { ROOT_OPERATOR, startMailStack, type Backend, type MailStack } from './mail-stack.js';
import { message, smtpSend } from './smtp.js';
import { panelApi } from './panel.js';

const MiB = 1024 ** 2;

/** Every file under a directory. */
const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));

describe.each<[Backend, 'remove' | 'archive']>([
  ['sqlite', 'remove'],
  ['postgres', 'archive'],
])('deleting a mailbox on %s (MAILBOX_DELETE_MODE=%s)', (backend, mode) => {
  let dns: DnsServer;
  let stack: MailStack;
  const tag = crypto.randomBytes(3).toString('hex');
  const domainName = `gone-${tag}.test`;
  const keep = `keep@${domainName}`;
  const neighbour = `neighbour@${domainName}`;
  let operatorToken = '';
  let customerToken = '';
  const ids: Record<string, number> = {};

  const { api, ok } = panelApi(() => stack.baseUrl, () => customerToken, () => stack.panelErrors());
  const send = (to: string, subject: string) => smtpSend(stack.ports.smtp, { from: 'sender@client.test', to: [to] }, message('sender@client.test', to, subject));
  const home = (local: string) => mailboxHome(stack.paths.mail, domainName, local);
  const deletedRows = async (state?: string) =>
    (await ok('/api/manage/deleted_email/list', { filter: { owner_id: ids.customer, ...(state ? { state } : {}) }, sort: 'id', order: 'asc' }, operatorToken)).list as any[];

  beforeAll(async () => {
    dns = await startDnsServer();
    stack = await startMailStack(backend, dns.address, { MAILBOX_DELETE_MODE: mode });
    operatorToken = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
  });
  afterAll(async () => {
    await stack?.close();
    await dns?.close();
  });

  it('When a mailbox receives a message over SMTP, then Dovecot keeps it in the Maildir under the home the panel computes', async () => {
    const email = `owner-${tag}@client.test`;
    ids.customer = (await ok('/api/manage/user/create', { email, password: 'customer-pass-1', is_verified: 1 }, operatorToken)).id;
    customerToken = (await ok('/api/admin/login/login', { email, password: 'customer-pass-1' }, '')).token;
    await ok('/api/manage/storage/create', { owner_id: ids.customer, size: 64 * MiB }, operatorToken);
    ids.domain = (await ok('/api/admin/domain/create', { name: domainName })).id;
    await ok('/api/manage/domain/update', { id: ids.domain, status: 'active' }, operatorToken);
    ids.keep = (await ok('/api/admin/email/create', { domain_id: ids.domain, local_part: 'keep', password: MAILBOX_PASSWORD, quota: 8 * MiB, name: 'Keep' })).id;
    await ok('/api/admin/email/create', { domain_id: ids.domain, local_part: 'neighbour', password: MAILBOX_PASSWORD, quota: MiB });

    for (const to of [keep, neighbour]) expect((await send(to, `before ${tag}`)).accepted).toBe(true);
    await readInbox(stack.ports.imap, keep, `before ${tag}`);
    await readInbox(stack.ports.imap, neighbour, `before ${tag}`);
    expect(filesUnder(path.join(home('keep'), 'Maildir')).some((f) => fs.readFileSync(f, 'utf8').includes(`before ${tag}`))).toBe(true);
  });

  it('When the customer deletes it, then at once it neither receives nor logs in, its Maildir stays, and the address is reserved', async () => {
    await ok('/api/admin/email/delete', { id: ids.keep });
    expect(await stack.doveadmAuth(keep, MAILBOX_PASSWORD)).toBe(false);
    const refused = await send(keep, 'after delete');
    expect(refused.accepted).toBe(false);
    expect(refused.refused).toMatch(/^550 5\.1\.1/);
    expect(fs.existsSync(path.join(home('keep'), 'Maildir'))).toBe(true);

    const [row] = await deletedRows('pending');
    expect(row).toMatchObject({ address_unicode: keep, mailbox_id: ids.keep, store_path: home('keep') });
    expect(new Date(row.purge_after).getTime() - new Date(row.deleted_at).getTime()).toBe(7 * 86_400_000);
    const again = await api('/api/admin/email/create', { domain_id: ids.domain, local_part: 'keep', password: 'other-pass-1', quota: MiB });
    expect(again).toMatchObject({ code: 40900, message: 'error.address_of_deleted_mailbox', params: { address: keep } });
  });

  it('When an operator restores it, then IMAP login works again and the message is still there, and it receives again', async () => {
    const [row] = await deletedRows('pending');
    expect(await ok('/api/manage/deleted_email/restore', { id: row.id }, operatorToken)).toMatchObject({ id: ids.keep, address: keep, name: 'Keep', quota: 8 * MiB });
    expect(await stack.doveadmAuth(keep, MAILBOX_PASSWORD)).toBe(true);
    await readInbox(stack.ports.imap, keep, `before ${tag}`);
    expect((await send(keep, `restored ${tag}`)).accepted).toBe(true);
    await readInbox(stack.ports.imap, keep, `restored ${tag}`);
  });

  it(`When it is deleted again and its purge is due, then the panel's job ${mode === 'archive' ? 'moves its Maildir to the archive' : 'removes its Maildir'}, and only its`, async () => {
    await ok('/api/admin/email/delete', { id: ids.keep });
    const pending = await deletedRows('pending');
    expect(pending).toHaveLength(1);
    await stack.makeJobsDue('mailbox.purge');
    const done = await stack.waitFor('the purge job', async () => {
      const row = await ok('/api/manage/deleted_email/get', { id: pending[0].id }, operatorToken, 'GET');
      return row.state === 'purged' || row.state === 'archived' ? row : undefined;
    });
    expect(fs.existsSync(home('keep'))).toBe(false);
    if (mode === 'archive') {
      expect(done).toMatchObject({ state: 'archived', outcome: 'archived', archive_path: path.join(stack.paths.mail, '.archive', domainName, `keep.${pending[0].id}`) });
      // Both messages, as Dovecot stored them (beside its index files).
      const messages = ['cur', 'new'].flatMap((sub) => filesUnder(path.join(done.archive_path, 'Maildir', sub))).map((f) => fs.readFileSync(f, 'utf8'));
      expect(messages.map((text) => /^Subject: (.*)$/m.exec(text)?.[1].trim()).sort()).toEqual([`before ${tag}`, `restored ${tag}`]);
    } else {
      expect(done).toMatchObject({ state: 'purged', outcome: 'removed', archive_path: null });
    }
    // The first deletion's job ran too, and found its mailbox restored.
    expect((await deletedRows()).map((r) => r.state)).toEqual(['restored', mode === 'archive' ? 'archived' : 'purged']);
    const log = await ok('/api/manage/log/list', { filter: { target_type: 'email', target_id: ids.keep }, sort: 'id', order: 'desc', page_size: 1 }, operatorToken);
    expect(log.list[0]).toMatchObject({ action: mode === 'archive' ? 'archive_mail' : 'purge_mail', actor_type: 'system' });

    expect(await stack.doveadmAuth(neighbour, MAILBOX_PASSWORD)).toBe(true);
    expect(await inboxSubjects(stack.ports.imap, neighbour)).toEqual([`before ${tag}`]);
  });

  it('When the address is taken again afterwards, then the new mailbox logs in and starts empty: none of the old mail', async () => {
    await ok('/api/admin/email/create', { domain_id: ids.domain, local_part: 'keep', password: 'fresh-pass-1', quota: MiB });
    expect(await stack.doveadmAuth(keep, 'fresh-pass-1')).toBe(true);
    expect(await inboxSubjects(stack.ports.imap, keep, 'fresh-pass-1')).toEqual([]);
    expect((await send(keep, `new owner ${tag}`)).accepted).toBe(true);
    await readInbox(stack.ports.imap, keep, `new owner ${tag}`, 20_000, 'fresh-pass-1');
    expect(await inboxSubjects(stack.ports.imap, keep, 'fresh-pass-1')).toEqual([`new owner ${tag}`]);
  });
});
