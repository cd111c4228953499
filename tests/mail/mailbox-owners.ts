/**
 * The mailbox owners' area with the real mail server, run inside the mail-server suite
 * (one set of daemons per database): out-of-office replies by Pigeonhole reading the Sieve script
 * from the panel's database, forwarding to the outside world (an SMTP sink that Postfix relays to)
 * with the sender rewritten by postsrsd so that SPF passes, app passwords over IMAP, POP3 and SMTP
 * AUTH, "app passwords only", and a password changed in the area.
 */
import crypto from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { spf } from 'mailauth/lib/spf/index.js';
import { expect, it } from 'vitest';
import type { DnsServer } from '../helpers/dns-server.js';
import type { smtpSink } from '../helpers/smtp-sink.js';
import { imap, inboxSubjects, readInbox } from './imap.js';
import { MAIL_HOSTNAME, ROOT_OPERATOR, type MailStack } from './mail-stack.js';
import { ownerArea } from './owner-area.js';
import { panelApi } from './panel.js';
import { pop3Login } from './pop3.js';
import { message, smtpSend } from './smtp.js';

type Sink = Awaited<ReturnType<typeof smtpSink>>;
const MiB = 1024 ** 2;
const PASSWORD = 'owner-pass-1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function mailboxOwnerScenarios(ctx: { stack: () => MailStack; dns: () => DnsServer; sink: () => Sink }) {
  const tag = crypto.randomBytes(3).toString('hex');
  const domain = `owners-${tag}.test`;
  const outside = `outside-${tag}.test`;
  const elsewhere = `elsewhere-${tag}.test`;
  const address = (local: string) => `${local}@${domain}`;
  let area: ReturnType<typeof ownerArea>;
  const tokens: Record<string, string> = {};
  let customerToken = '';
  const { ok } = panelApi(() => ctx.stack().baseUrl, () => customerToken, () => ctx.stack().panelErrors());

  /** From the outside world on port 25 (127.0.0.2 is outside mynetworks), with extra header lines. */
  const fromOutside = (from: string, to: string, subject: string, headers = '') =>
    smtpSend(ctx.stack().ports.smtp, { from, to: [to], localAddress: '127.0.0.2' }, headers + message(from, to, subject));
  /** What reached the outside world for a recipient. */
  const sunk = (to: string) => ctx.sink().messages.filter((m) => m.to.includes(to));
  async function waitSunk(to: string, count = 1, ms = 20_000) {
    await ctx.stack().waitFor(`${count} message(s) to ${to} at the outside world`, async () => (sunk(to).length >= count ? true : undefined), ms);
    return sunk(to);
  }
  const subjectOf = (data: string) => /^Subject: (.*)$/im.exec(data)?.[1] ?? '';
  const imapLogin = async (user: string, pass: string) => {
    const client = imap(ctx.stack().ports.imap, user, pass);
    try {
      await client.connect();
      await client.logout();
      return true;
    } catch {
      return false;
    }
  };
  const smtpAuth = (user: string, pass: string, subject: string) =>
    smtpSend(ctx.stack().ports.submission, { from: user, to: [user], auth: { user, pass }, starttls: true, localAddress: '127.0.0.3' }, message(user, user, subject));

  it('Mailbox owners: when a customer has a verified domain with mailboxes, then their owners sign in to the mail area', async () => {
    const stack = ctx.stack();
    area = ownerArea(stack);
    const operatorToken = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
    const email = `owners-${tag}@client.test`;
    const customer = await ok('/api/manage/user/create', { email, password: 'customer-pass-1', is_verified: 1 }, operatorToken);
    await ok('/api/manage/storage/create', { owner_id: customer.id, size: 16 * MiB, label: 'owners' }, operatorToken);
    customerToken = (await ok('/api/admin/login/login', { email, password: 'customer-pass-1' }, '')).token;
    const created = await ok('/api/admin/domain/create', { name: domain });
    const view = await ok('/api/admin/domain/dns', { id: created.id }, customerToken, 'GET');
    for (const record of view.records) ctx.dns().publish(record);
    await ok('/api/admin/domain/verify', { id: created.id });
    for (const local of ['away', 'fwd', 'apps', 'pw']) {
      await ok('/api/admin/email/create', { domain_id: created.id, local_part: local, password: PASSWORD, quota: MiB, name: local });
      tokens[local] = await area.login(address(local), PASSWORD);
    }
    // The outside world's SPF: the original sender's domain allows only its own server; the mail
    // server's name (the SRS domain of rewritten senders) allows this server.
    ctx.dns().txt(outside, 'v=spf1 ip4:192.0.2.1 -all');
    ctx.dns().txt(MAIL_HOSTNAME, 'v=spf1 ip4:127.0.0.1 -all');
  });

  it('Mailbox owners: when an out-of-office is on, then two messages from one sender get one reply, and a mailing list or an auto-submitted message gets none', async () => {
    const hour = 3600_000;
    await area.setOutOfOffice(tokens.away, {
      enabled: true,
      starts_at: new Date(Date.now() - hour).toISOString(),
      ends_at: new Date(Date.now() + 24 * hour).toISOString(),
      time_zone: 'Asia/Shanghai',
      subject: `Away ${tag}`,
      body: 'I am away until Monday.',
      interval_days: 7,
    });
    const [alice, list, bot, dave] = ['alice', 'list-reader', 'bot', 'dave'].map((l) => `${l}@${outside}`);
    for (const [from, subject, headers] of [
      [alice, `first ${tag}`, ''],
      [alice, `second ${tag}`, ''],
      [list, `list ${tag}`, 'Precedence: list\n'],
      [bot, `auto ${tag}`, 'Auto-Submitted: auto-generated\n'],
      [dave, `marker ${tag}`, ''],
    ]) {
      const sent = await fromOutside(from, address('away'), subject, headers);
      expect(sent, JSON.stringify(sent.replies)).toMatchObject({ accepted: true });
    }
    // Every message is in the mailbox (the rule keeps them; Postfix may deliver them in any order),
    // and the marker's reply has gone out.
    const all = [`first ${tag}`, `second ${tag}`, `list ${tag}`, `auto ${tag}`, `marker ${tag}`];
    await ctx.stack().waitFor('the five messages in the mailbox', async () => ((await inboxSubjects(ctx.stack().ports.imap, address('away'), PASSWORD)).length >= all.length ? true : undefined));
    expect((await inboxSubjects(ctx.stack().ports.imap, address('away'), PASSWORD)).sort()).toEqual(all.sort());
    const [reply] = await waitSunk(dave);
    await sleep(1500);
    expect(sunk(alice)).toHaveLength(1);
    expect(sunk(list)).toHaveLength(0);
    expect(sunk(bot)).toHaveLength(0);
    // A reply as a person sees it: from the mailbox, with its subject and text, marked as automatic,
    // with an empty envelope sender (no reply to a reply).
    expect(subjectOf(reply.data)).toBe(`Away ${tag}`);
    expect(reply.data).toMatch(new RegExp(`^From: .*${address('away').replace('.', '\\.')}`, 'im'));
    expect(reply.data).toMatch(/^Auto-Submitted: auto-replied/im);
    expect(reply.data).toMatch(/I am away until Monday\./);
    expect(reply.from).toBe('');
  });

  it('Mailbox owners: when the out-of-office has ended, then no reply is sent', async () => {
    const hour = 3600_000;
    await area.setOutOfOffice(tokens.away, {
      enabled: true,
      starts_at: new Date(Date.now() - 48 * hour).toISOString(),
      ends_at: new Date(Date.now() - hour).toISOString(),
      time_zone: 'UTC',
      subject: `Away ${tag}`,
      body: 'I was away.',
      interval_days: 7,
    });
    const erin = `erin@${outside}`;
    expect((await fromOutside(erin, address('away'), `after the end ${tag}`)).accepted).toBe(true);
    await readInbox(ctx.stack().ports.imap, address('away'), `after the end ${tag}`, 20_000, PASSWORD);
    await sleep(2000);
    expect(sunk(erin)).toHaveLength(0);
  });

  it('Mailbox owners: when forwarding keeps a copy, then the message reaches the outside address and the mailbox, the rewritten sender passes SPF there, and a bounce to it reaches the original sender', async () => {
    const target = `target@${elsewhere}`;
    await area.setForwarding(tokens.fwd, { enabled: true, addresses: [target], keep_copy: true });
    const frank = `frank@${outside}`;
    const sent = await fromOutside(frank, address('fwd'), `forwarded ${tag}`);
    expect(sent, JSON.stringify(sent.replies)).toMatchObject({ accepted: true });
    const [forwarded] = await waitSunk(target);
    expect(subjectOf(forwarded.data)).toBe(`forwarded ${tag}`);
    await readInbox(ctx.stack().ports.imap, address('fwd'), `forwarded ${tag}`, 20_000, PASSWORD);
    // The destination sees the mail server's SRS address as the sender, and SPF passes for it; the
    // original sender would have failed from this server.
    expect(forwarded.from).toMatch(new RegExp(`^SRS0=[^@]+=${outside.replace(/\./g, '\\.')}=frank@${MAIL_HOSTNAME.replace(/\./g, '\\.')}$`, 'i'));
    const resolver = new Resolver();
    resolver.setServers([ctx.dns().address]);
    const check = (sender: string) =>
      spf({ sender, ip: forwarded.remoteAddress.replace(/^::ffff:/, ''), helo: forwarded.helo, mta: `mx.${elsewhere}`, resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT') });
    expect((await check(forwarded.from)).status.result).toBe('pass');
    expect((await check(frank)).status.result).toBe('fail');
    // A bounce sent back to the rewritten sender reaches the original sender (postsrsd's reverse table).
    const bounce = await smtpSend(ctx.stack().ports.smtp, { from: '', to: [forwarded.from], localAddress: '127.0.0.2' }, message(`mailer-daemon@${elsewhere}`, forwarded.from, `bounce ${tag}`));
    expect(bounce, JSON.stringify(bounce.replies)).toMatchObject({ accepted: true });
    const [returned] = await waitSunk(frank);
    expect(subjectOf(returned.data)).toBe(`bounce ${tag}`);
    // Anything else at the SRS domain is no address of ours.
    expect((await fromOutside(`x@${outside}`, `someone@${MAIL_HOSTNAME}`, 'not srs')).refused).toMatch(/^550 5\.1\.1/);
  });

  it('Mailbox owners: when forwarding keeps no copy, then the message reaches only the outside address', async () => {
    const target = `other@${elsewhere}`;
    await area.setForwarding(tokens.fwd, { enabled: true, addresses: [target], keep_copy: false });
    expect((await fromOutside(`grace@${outside}`, address('fwd'), `not kept ${tag}`)).accepted).toBe(true);
    const [forwarded] = await waitSunk(target);
    expect(subjectOf(forwarded.data)).toBe(`not kept ${tag}`);
    expect(await inboxSubjects(ctx.stack().ports.imap, address('fwd'), PASSWORD)).not.toContain(`not kept ${tag}`);
  });

  it('Mailbox owners: when an app password is made, then it logs in over IMAP, POP3 and SMTP AUTH, its last use is recorded, and once revoked it is refused', async () => {
    const user = address('apps');
    const made = await area.createAppPassword(tokens.apps, 'Phone');
    expect(made.password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect((await area.listAppPasswords(tokens.apps)).find((p) => p.id === made.id)).toMatchObject({ last_used_at: null });
    expect(await imapLogin(user, made.password)).toBe(true);
    expect(await pop3Login(ctx.stack().ports.pop3, user, made.password)).toMatchObject({ ok: true });
    const sent = await smtpAuth(user, made.password, `app password ${tag}`);
    expect(sent, JSON.stringify(sent.replies)).toMatchObject({ accepted: true });
    await readInbox(ctx.stack().ports.imap, user, `app password ${tag}`, 20_000, made.password);
    // The last use: SMTP AUTH came from 127.0.0.3.
    const used = (await area.listAppPasswords(tokens.apps)).find((p) => p.id === made.id)!;
    expect(used.last_used_at).toBeTruthy();
    expect(Date.now() - Date.parse(used.last_used_at!)).toBeLessThan(60_000);
    expect(used.last_used_ip).toMatch(/^127\.0\.0\.\d$/);
    // A wrong password with the same first characters is refused; so is the right one once revoked.
    expect(await imapLogin(user, `${made.password.slice(0, 5)}zzzz-zzzz-zzzz`)).toBe(false);
    await area.deleteAppPassword(tokens.apps, made.id);
    expect(await imapLogin(user, made.password)).toBe(false);
    expect(await pop3Login(ctx.stack().ports.pop3, user, made.password)).toMatchObject({ ok: false });
    expect((await smtpAuth(user, made.password, 'revoked')).refused).toMatch(/^535/);
    // The main password still works for mail programs (app passwords are not required).
    expect(await imapLogin(user, PASSWORD)).toBe(true);
  });

  it('Mailbox owners: when mail programs must use app passwords, then IMAP, POP3 and SMTP refuse the main password, an app password works, and the area still signs in', async () => {
    const user = address('apps');
    await area.setAppPasswordsOnly(tokens.apps, true);
    expect(await imapLogin(user, PASSWORD)).toBe(false);
    expect(await pop3Login(ctx.stack().ports.pop3, user, PASSWORD)).toMatchObject({ ok: false });
    expect((await smtpAuth(user, PASSWORD, 'main password')).refused).toMatch(/^535/);
    const made = await area.createAppPassword(tokens.apps, 'Laptop');
    expect(await imapLogin(user, made.password)).toBe(true);
    expect((await area.loginAnswer(user, PASSWORD)).code).toBe(0);
    await area.setAppPasswordsOnly(tokens.apps, false);
    expect(await imapLogin(user, PASSWORD)).toBe(true);
  });

  it('Mailbox owners: when the password is changed in the mail area, then IMAP takes the new one at once and refuses the old one', async () => {
    const user = address('pw');
    expect(await imapLogin(user, PASSWORD)).toBe(true);
    await area.updatePassword(tokens.pw, PASSWORD, 'owner-pass-2');
    expect(await imapLogin(user, 'owner-pass-2')).toBe(true);
    expect(await imapLogin(user, PASSWORD)).toBe(false);
  });
}
