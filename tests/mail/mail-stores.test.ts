/**
 * Mail on several stores (issue 34, items 2 and 4), with the real daemons: this machine's Postfix,
 * rspamd and Dovecot are a front (deploy:config --role front) and two mail stores (--role store)
 * each run their own Dovecot and mail directory on a loopback address of their own. The front finds
 * each mailbox's store in the panel's database at every login and delivery. A store that is down
 * leaves its mailboxes' mail queued at the front (never bounced) and tells their mail programs the
 * account is unavailable; when it returns, the mail arrives. On SQLite and PostgreSQL.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailboxHome } from '../../deploy/mail-store.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { imap, inboxSubjects, MAILBOX_PASSWORD, readInbox } from './imap.js';
import { ROOT_OPERATOR, startMailStack, type Backend, type MailStack } from './mail-stack.js';
import { ownerArea } from './owner-area.js';
import { panelApi } from './panel.js';
import { pop3Login } from './pop3.js';
import { message, smtpSend } from './smtp.js';

const run = promisify(execFile);
const MiB = 1024 ** 2;

/** Every file under a directory (none when it does not exist). */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])) : [];

describe.each<Backend>(['sqlite', 'postgres'])('mail on two stores behind a front, on %s', (backend) => {
  let dns: DnsServer;
  let stack: MailStack;
  const tag = crypto.randomBytes(3).toString('hex');
  const domains = [`store-a-${tag}.test`, `store-b-${tag}.test`];
  const [alice, bob] = [`alice@${domains[0]}`, `bob@${domains[1]}`];
  let operatorToken = '';
  let customerToken = '';
  const storeIds: number[] = [];
  const mailboxIds: Record<string, number> = {};

  const { ok } = panelApi(() => stack.baseUrl, () => customerToken, () => stack.panelErrors());
  const send = (to: string, subject: string) => smtpSend(stack.ports.smtp, { from: 'sender@client.test', to: [to] }, message('sender@client.test', to, subject));
  /** Whether the message is in the mailbox's Maildir on that store. */
  const onStore = (store: number, address: string, subject: string) => {
    const [local, domain] = address.split('@');
    return filesUnder(path.join(mailboxHome(stack.stores[store].mailDir, domain, local), 'Maildir')).some((f) => fs.readFileSync(f, 'utf8').includes(subject));
  };
  /** Postfix's queue at the front, as `postqueue -j` lists it. */
  const queue = async () => {
    const { stdout } = await run('postqueue', ['-c', stack.postfixConf, '-j']);
    return stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { sender: string; recipients: { address: string; delay_reason?: string }[] });
  };
  /** A change the panel has no call for yet (moving a mailbox's mail comes with dsync): its store switched in the database. */
  async function switchStore(mailboxId: number, storeId: number) {
    if (backend === 'sqlite') {
      const db = new Database(path.join(stack.paths.data, 'maildesk.sqlite'));
      try {
        db.pragma('busy_timeout = 5000');
        db.prepare('UPDATE mailbox SET store_id = ? WHERE id = ?').run(storeId, mailboxId);
      } finally {
        db.close();
      }
      return;
    }
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      await client.query('UPDATE mailbox SET store_id = $1 WHERE id = $2', [storeId, mailboxId]);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    dns = await startDnsServer();
    stack = await startMailStack(backend, dns.address, {}, { stores: 2 });
    operatorToken = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
    // The one store of a fresh install is this host, which is now a front: the two stores replace it.
    await ok('/api/manage/mail_store/delete', { id: 1 }, operatorToken);
    for (const [index, store] of stack.stores.entries()) storeIds.push((await ok('/api/manage/mail_store/create', { name: `store-${index}`, address: store.address }, operatorToken)).id);

    const email = `owner-${tag}@client.test`;
    const customerId = (await ok('/api/manage/user/create', { email, password: 'customer-pass-1', is_verified: 1 }, operatorToken)).id;
    customerToken = (await ok('/api/admin/login/login', { email, password: 'customer-pass-1' }, '')).token;
    await ok('/api/manage/storage/create', { owner_id: customerId, size: 64 * MiB }, operatorToken);
    for (const [index, name] of domains.entries()) {
      const domain = await ok('/api/admin/domain/create', { name });
      await ok('/api/manage/domain/update', { id: domain.id, status: 'active', mail_store_id: storeIds[index] }, operatorToken);
      const local = index === 0 ? 'alice' : 'bob';
      mailboxIds[local] = (await ok('/api/admin/email/create', { domain_id: domain.id, local_part: local, password: MAILBOX_PASSWORD, quota: 8 * MiB })).id;
    }
  });
  afterAll(async () => {
    await stack?.close();
    await dns?.close();
  });

  it('When mail for mailboxes on two stores reaches the front, then each is delivered to its own store and read through the front by IMAP and POP3, with the password or an app password', async () => {
    for (const address of [alice, bob]) expect((await send(address, `hello ${address} ${tag}`)).accepted).toBe(true);
    await readInbox(stack.ports.imap, alice, `hello ${alice} ${tag}`);
    await readInbox(stack.ports.imap, bob, `hello ${bob} ${tag}`);
    expect([onStore(0, alice, `hello ${alice}`), onStore(1, alice, `hello ${alice}`)]).toEqual([true, false]);
    expect([onStore(0, bob, `hello ${bob}`), onStore(1, bob, `hello ${bob}`)]).toEqual([false, true]);
    expect(await pop3Login(stack.ports.pop3, bob, MAILBOX_PASSWORD)).toMatchObject({ ok: true, messages: 1 });

    const owner = ownerArea(stack);
    const token = await owner.login(bob, MAILBOX_PASSWORD);
    const { password } = await owner.createAppPassword(token, 'Phone');
    expect(await inboxSubjects(stack.ports.imap, bob, password)).toEqual([`hello ${bob} ${tag}`]);
  });

  it('When a store is down, then its mailboxes’ mail waits at the front and nothing bounces, their mail programs hear the account is unavailable, the other store is untouched; when it returns, the mail arrives', async () => {
    await stack.stores[1].stop();
    expect((await send(bob, `while down ${tag}`)).accepted).toBe(true);
    expect((await send(alice, `meanwhile ${tag}`)).accepted).toBe(true);
    await readInbox(stack.ports.imap, alice, `meanwhile ${tag}`);

    // Queued for bob's store, deferred with the connection's failure; no bounce to the sender.
    const waiting = await stack.waitFor('the message to wait in the queue', async () => {
      const entries = await queue();
      const entry = entries.find((e) => e.recipients.some((r) => r.address === bob && r.delay_reason));
      return entry ? entries : undefined;
    });
    expect(waiting.flatMap((e) => e.recipients.map((r) => r.address))).toEqual([bob]);
    expect(waiting[0].recipients[0].delay_reason).toMatch(new RegExp(`connect to ${stack.stores[1].address.replaceAll('.', '\\.')}.*refused`));
    expect(waiting.some((e) => e.sender === '')).toBe(false);

    const client = imap(stack.ports.imap, bob);
    const refused = await client.connect().then(
      () => 'logged in',
      (error: { responseText?: string; serverResponseCode?: string }) => `${error.serverResponseCode ?? ''} ${error.responseText ?? ''}`,
    );
    await client.logout().catch(() => undefined);
    expect(refused).toMatch(/UNAVAILABLE|temporarily unavailable/i);

    await stack.stores[1].start();
    await run('postqueue', ['-c', stack.postfixConf, '-f']);
    await readInbox(stack.ports.imap, bob, `while down ${tag}`, 30_000);
    expect(onStore(1, bob, `while down ${tag}`)).toBe(true);
    expect(await queue()).toEqual([]);
  });

  it('When a mailbox’s store changes, then its next delivery (once Postfix’s 30-second memory of the last address is past) and its next login reach the new store', async () => {
    await switchStore(mailboxIds.bob, storeIds[0]);
    // Another sender: Postfix's queue manager keeps the last address it resolved, for one sender, up
    // to 30 s (resolve_clnt.c's one-entry cache); a move therefore syncs the old copy once more after that.
    const from = 'another@client.test';
    expect((await smtpSend(stack.ports.smtp, { from, to: [bob] }, message(from, bob, `after the switch ${tag}`))).accepted).toBe(true);
    // On the new store the mailbox starts with what was delivered there: moving the old mail is dsync's work.
    await readInbox(stack.ports.imap, bob, `after the switch ${tag}`);
    expect(await inboxSubjects(stack.ports.imap, bob)).toEqual([`after the switch ${tag}`]);
    expect([onStore(0, bob, `after the switch ${tag}`), onStore(1, bob, `after the switch ${tag}`)]).toEqual([true, false]);
  });
});
