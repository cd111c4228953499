/**
 * The real mail server, for SQLite and PostgreSQL: everything is made through the API, Postfix
 * and Dovecot run only on the configuration `npm run deploy:config` writes, and mail is
 * delivered over SMTP and read back over IMAP.
 */
import crypto from 'node:crypto';
import { ImapFlow } from 'imapflow';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { MAIL_HOSTNAME, ROOT_OPERATOR, startMailStack, type Backend, type MailStack } from './mail-stack.js';
import { message, smtpSend } from './smtp.js';

const MiB = 1024 ** 2;
const PASSWORD = 'mailbox-pass-1';

async function readInbox(port: number, user: string, subject: string, ms = 20_000): Promise<string> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, doSTARTTLS: false, auth: { user, pass: PASSWORD }, logger: false });
    await client.connect();
    try {
      const lock = await client.getMailboxLock('INBOX');
      try {
        for await (const msg of client.fetch('1:*', { envelope: true, source: true })) {
          if (msg.envelope?.subject === subject) return msg.source!.toString();
        }
      } catch {
        // An empty mailbox has no 1:*.
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`"${subject}" did not arrive in ${user}`);
}

describe.each<Backend>(['sqlite', 'postgres'])('mail server on %s', (backend) => {
  let dns: DnsServer;
  let stack: MailStack;
  const tag = crypto.randomBytes(3).toString('hex');
  const domainUnicode = `bücher-${tag}.test`;
  const domain = `xn--bcher-${tag}-`; // completed from the API's answer below
  const names = { domain: '', aliasDomain: `alias-${tag}.test`, plain: `plain-${tag}.test` };
  const ids: Record<string, number> = {};
  let customerToken = '';
  let operatorToken = '';
  void domain;

  async function api(path: string, body: Record<string, unknown> = {}, token = customerToken, method: 'GET' | 'POST' = 'POST') {
    const url = new URL(stack.baseUrl + path);
    if (method === 'GET') for (const [k, v] of Object.entries(body)) url.searchParams.set(k, String(v));
    const response = await fetch(url, {
      method,
      headers: { authentication: token, 'content-type': 'application/json', 'accept-language': 'en' },
      body: method === 'POST' ? JSON.stringify(body) : undefined,
    });
    return (await response.json()) as { code: number; data: any; message: string; params?: any };
  }
  async function ok(path: string, body: Record<string, unknown> = {}, token = customerToken, method: 'GET' | 'POST' = 'POST') {
    const reply = await api(path, body, token, method);
    if (reply.code !== 0) throw new Error(`${path}: ${reply.code} ${reply.message} ${JSON.stringify(reply)}`);
    return reply.data;
  }
  /** The customer publishes every record the DNS view asks for, then verifies the domain. */
  async function publishAndVerify(domainId: number) {
    const view = await ok('/api/admin/domain/dns', { id: domainId }, customerToken, 'GET');
    for (const record of view.records) {
      if (record.type === 'MX') dns.mx(record.host, record.value, record.priority);
      else dns.txt(record.host, record.value);
    }
    const checked = await ok('/api/admin/domain/dns', { id: domainId }, customerToken, 'GET');
    expect(checked.records.map((r: { kind: string; status: string }) => [r.kind, r.status])).toEqual([
      ['verification', 'ok'],
      ['mx', 'ok'],
      ['spf', 'ok'],
      ['dkim', 'ok'],
      ['dmarc', 'ok'],
    ]);
    return ok('/api/admin/domain/verify', { id: domainId });
  }
  const address = (local: string, d = names.domain) => `${local}@${d}`;
  const send = (to: string, subject: string, extra: { size?: number; body?: string } = {}) =>
    smtpSend(stack.ports.smtp, { from: 'sender@client.test', to: [to], size: extra.size }, message('sender@client.test', to, subject, extra.body));

  beforeAll(async () => {
    dns = await startDnsServer();
    stack = await startMailStack(backend, dns.address);
    operatorToken = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
  });
  afterAll(async () => {
    await stack?.close();
    await dns?.close();
  });

  it('When a customer is given capacity and proves a domain through DNS, then it becomes active (IDN stored as punycode)', async () => {
    const email = `owner-${tag}@client.test`;
    const customer = await ok('/api/manage/user/create', { email, password: 'customer-pass-1', is_verified: 1 }, operatorToken);
    ids.customer = customer.id;
    customerToken = (await ok('/api/admin/login/login', { email, password: 'customer-pass-1' }, '')).token;
    await ok('/api/manage/storage/create', { owner_id: customer.id, size: 64 * MiB, label: 'mail suite' }, operatorToken);

    const created = await ok('/api/admin/domain/create', { name: domainUnicode });
    expect(created).toMatchObject({ name_unicode: domainUnicode, status: 'pending' });
    expect(created.name).toMatch(/^xn--/);
    names.domain = created.name;
    ids.domain = created.id;
    expect((await api('/api/admin/domain/verify', { id: created.id })).message).toBe('error.domain_not_verified');
    const verified = await publishAndVerify(created.id);
    expect(verified).toMatchObject({ status: 'active', verified_by: 'dns' });
    expect(dns).toBeDefined();
    ids.aliasDomain = (await publishAndVerify((await ok('/api/admin/domain/create', { name: names.aliasDomain })).id)).id;
    ids.plain = (await publishAndVerify((await ok('/api/admin/domain/create', { name: names.plain })).id)).id;
    expect(MAIL_HOSTNAME).toBe('mx.maildesk.test');
  });

  it('When mailboxes, aliases and an alias domain are made, then quotas stay within capacity', async () => {
    const mailbox = (domainId: number, local_part: string, quota: number) => ok('/api/admin/email/create', { domain_id: domainId, local_part, password: PASSWORD, quota, name: local_part });
    ids.box1 = (await mailbox(ids.domain, 'box1', 8 * MiB)).id;
    ids.box2 = (await mailbox(ids.domain, 'box2', 8 * MiB)).id;
    ids.small = (await mailbox(ids.domain, 'small', MiB)).id;
    ids.obrien = (await mailbox(ids.domain, "o'brien", MiB)).id;
    ids.solo = (await mailbox(ids.plain, 'solo', MiB)).id;
    const tooBig = await api('/api/admin/email/create', { domain_id: ids.domain, local_part: 'huge', password: PASSWORD, quota: 60 * MiB });
    expect(tooBig).toMatchObject({ code: 40900, message: 'error.capacity_exceeded' });

    await ok('/api/admin/alias/create', { domain_id: ids.domain, local_part: 'team', goto: [address('box1'), address('box2')] });
    await ok('/api/admin/alias_domain/create', { alias_domain_id: ids.aliasDomain, target_domain_id: ids.domain });
  });

  it('When an address is unknown, then Postfix refuses it at RCPT', async () => {
    const unknown = await send(address('nobody', names.plain), 'unknown');
    expect(unknown.accepted).toBe(false);
    expect(unknown.refused).toMatch(/^550 5\.1\.1/);
    const elsewhere = await send('someone@not-ours.test', 'relay');
    expect(elsewhere.refused).toMatch(/^554 5\.7\.1/);
  });

  it('When the catch-all is added, then it applies to the next message without any reload', async () => {
    expect(await stack.postmap('aliases', `@${names.domain}`)).toBeUndefined();
    await ok('/api/admin/alias/create', { domain_id: ids.domain, local_part: '*', goto: address('box2') });
    expect(await stack.postmap('aliases', `@${names.domain}`)).toBe(address('box2'));
  });

  it('When each map is queried with postmap -q, then it answers from the panel', async () => {
    expect(await stack.postmap('domains', names.domain)).toBe(names.domain);
    expect(await stack.postmap('domains', names.aliasDomain)).toBe(names.aliasDomain);
    expect(await stack.postmap('domains', 'not-ours.test')).toBeUndefined();
    expect(await stack.postmap('mailboxes', address('box1'))).toBe(address('box1'));
    expect(await stack.postmap('mailboxes', address('team'))).toBeUndefined();
    expect(await stack.postmap('aliases', address('box1'))).toBe(address('box1'));
    expect(await stack.postmap('aliases', address("o'brien"))).toBe(address("o'brien"));
    expect(await stack.postmap('aliases', address('team'))).toBe(`${address('box1')},${address('box2')}`);
    expect(await stack.postmap('alias-domain-aliases', address('box1', names.aliasDomain))).toBe(address('box1'));
    expect(await stack.postmap('alias-domain-catchall', address('whoever', names.aliasDomain))).toBe(address('box2'));
    expect(await stack.postmap('aliases', address('solo', names.plain))).toBe(address('solo', names.plain));
    expect(await stack.postmap('sender-logins', address('team'))).toBe(`${address('box1')},${address('box2')}`);
  });

  it('When Dovecot is asked with doveadm auth test, then the mailbox password works and a wrong one does not', async () => {
    expect(await stack.doveadmAuth(address('box1'), PASSWORD)).toBe(true);
    expect(await stack.doveadmAuth(address('box1'), 'wrong-password')).toBe(false);
    expect(await stack.doveadmAuth(address("o'brien"), PASSWORD)).toBe(true);
  });

  it('When mail is sent to a mailbox, an alias with two destinations, an alias-domain address and a catch-all, then each arrives over IMAP', async () => {
    for (const [to, subject] of [
      [address('box1'), `direct ${tag}`],
      [address('team'), `team ${tag}`],
      [address('box1', names.aliasDomain), `alias domain ${tag}`],
      [address('anything-else'), `catch-all ${tag}`],
      [address("o'brien"), `quoted ${tag}`],
    ]) {
      const result = await send(to, subject);
      expect(result, JSON.stringify(result.replies)).toMatchObject({ accepted: true });
    }
    await readInbox(stack.ports.imap, address('box1'), `direct ${tag}`);
    await readInbox(stack.ports.imap, address('box1'), `team ${tag}`);
    await readInbox(stack.ports.imap, address('box2'), `team ${tag}`);
    await readInbox(stack.ports.imap, address('box1'), `alias domain ${tag}`);
    await readInbox(stack.ports.imap, address('box2'), `catch-all ${tag}`);
    await readInbox(stack.ports.imap, address("o'brien"), `quoted ${tag}`);
  });

  it('When a mailbox owner sends through submission, then SMTP AUTH is checked by Dovecot and only their own addresses may be used', async () => {
    const auth = { user: address('box1'), pass: PASSWORD };
    const submit = (from: string, to: string, subject: string, login?: typeof auth) =>
      smtpSend(stack.ports.submission, { from, to: [to], auth: login }, message(from, to, subject));
    const sent = await submit(address('box1'), address('box2'), `submitted ${tag}`, auth);
    expect(sent, JSON.stringify(sent.replies)).toMatchObject({ accepted: true });
    await readInbox(stack.ports.imap, address('box2'), `submitted ${tag}`);
    expect((await submit(address('team'), address('box2'), `as alias ${tag}`, auth)).accepted).toBe(true);
    expect((await submit(address('box2'), address('box1'), 'forged', auth)).refused).toMatch(/^553 5\.7\.1/);
    expect((await submit(address('box1'), address('box2'), 'no login')).refused).toMatch(/^553 5\.7\.1 .*not logged in/);
    expect((await submit(address('box1'), address('box2'), 'bad login', { ...auth, pass: 'wrong-password' })).refused).toMatch(/^535/);
  });

  it('When a message cannot fit the quota, then it is refused', async () => {
    const full = await send(address('small'), 'too big', { size: 2 * MiB });
    expect(full.accepted).toBe(false);
    expect(full.refused).toMatch(/^552 5\.2\.2/);
  });

  it('When Dovecot stores mail, then used bytes and messages appear in the API', async () => {
    const usage = async () => {
      const list = await ok('/api/admin/email/list', { filter: { domain_id: ids.domain }, page_size: 100 });
      return list.list.find((m: { id: number }) => m.id === ids.box1);
    };
    let box1 = await usage();
    const until = Date.now() + 15_000;
    while (box1.used_messages < 3 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      box1 = await usage();
    }
    expect(box1.used_messages).toBe(3);
    expect(box1.used_bytes).toBeGreaterThan(100);
    const summary = await ok('/api/admin/storage/summary');
    expect(summary).toMatchObject({ capacity: 64 * MiB, allocated: 8 * MiB + 8 * MiB + MiB + MiB + MiB });
    expect(summary.used).toBeGreaterThanOrEqual(box1.used_bytes);
  });

  it('When send_verify_code is asked for, then the code arrives in the mailbox through Postfix and confirms delivery', async () => {
    expect((await ok('/api/admin/email/send_verify_code', { id: ids.box1 })).sent).toBe(true);
    const until = Date.now() + 20_000;
    let code: string | undefined;
    while (!code && Date.now() < until) {
      const client = new ImapFlow({ host: '127.0.0.1', port: stack.ports.imap, secure: false, doSTARTTLS: false, auth: { user: address('box1'), pass: PASSWORD }, logger: false });
      await client.connect();
      const lock = await client.getMailboxLock('INBOX');
      for await (const msg of client.fetch('1:*', { envelope: true })) code = /delivery check.*?(\d{6})$/i.exec(msg.envelope?.subject ?? '')?.[1] ?? code;
      lock.release();
      await client.logout();
      if (!code) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(code).toMatch(/^\d{6}$/);
    const confirmed = await ok('/api/admin/email/send_verify_code', { id: ids.box1, code });
    expect(confirmed.delivery_checked_at).toBeTruthy();
  });

  it('When a mailbox is deactivated, then at once it neither receives nor logs in', async () => {
    expect((await send(address('solo', names.plain), 'before')).accepted).toBe(true);
    await ok('/api/admin/email/update', { id: ids.solo, active: 0 });
    const after = await send(address('solo', names.plain), 'after');
    expect(after.accepted).toBe(false);
    expect(after.refused).toMatch(/^550 5\.1\.1/);
    expect(await stack.doveadmAuth(address('solo', names.plain), PASSWORD)).toBe(false);
  });

  // PostgreSQL only: SQLite has no users; its file permissions are the boundary (deploy/README.md).
  if (backend === 'postgres') it('When the daemons log in to PostgreSQL, then Postfix can only read the views and Dovecot can write only usage', async () => {
    const as = async (role: string, text: string) => {
      const url = new URL(stack.databaseUrl!);
      url.username = role;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query(text);
        return 'allowed';
      } catch (error) {
        return (error as { code?: string }).code === '42501' ? 'denied' : String(error);
      } finally {
        await client.end();
      }
    };
    expect(await as(stack.roles.postfix, 'SELECT count(*) FROM mail_alias')).toBe('allowed');
    expect(await as(stack.roles.postfix, 'SELECT count(*) FROM mailbox')).toBe('denied');
    expect(await as(stack.roles.postfix, "UPDATE mailbox_usage SET bytes = 0 WHERE address = 'x'")).toBe('denied');
    expect(await as(stack.roles.dovecot, 'SELECT password_hash FROM mail_mailbox LIMIT 1')).toBe('allowed');
    expect(await as(stack.roles.dovecot, "UPDATE mailbox_usage SET bytes = bytes WHERE address = 'x'")).toBe('allowed');
    expect(await as(stack.roles.dovecot, 'UPDATE mailbox SET quota = quota')).toBe('denied');
    expect(await as(stack.roles.dovecot, 'SELECT count(*) FROM "user"')).toBe('denied');
  });

  it('When the panel process is stopped, then mail still flows', async () => {
    await stack.stopPanel();
    const subject = `panel down ${tag}`;
    expect((await send(address('box2'), subject)).accepted).toBe(true);
    await readInbox(stack.ports.imap, address('box2'), subject);
    expect(await stack.postmap('mailboxes', address('box2'))).toBe(address('box2'));
  });
});
