/**
 * Spam and malware protection with the real mail server, inside the mail-server suite (one set of
 * daemons per database, rspamd and Redis included): GTUBE refused at SMTP, junk filed into Junk by
 * Sieve, allow and block lists, a setting applying within a minute with no reload, learning from
 * moves into and out of Junk, a mailbox held for sending spam or too much, EICAR refused by ClamAV.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import type { DnsServer } from '../helpers/dns-server.js';
import { imap } from './imap.js';
import { EICAR, ROOT_OPERATOR, RSPAMD_LOG, RSPAMD_MAP_SECONDS, type MailStack } from './mail-stack.js';
import { ownerArea } from './owner-area.js';
import { panelApi } from './panel.js';
import { smtpSend } from './smtp.js';

const MiB = 1024 ** 2;
const PASSWORD = 'spam-pass-1';
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';
/** Enough words for Bayes (it learns from at least 11 tokens). */
const prose = (seed: string) =>
  `Dear reader, ${seed}. Our quarterly meeting about the garden project moves to Thursday afternoon in the library. Please bring the notes about watering schedules, the budget for new tools and your ideas for the autumn planting. Kind regards, the committee.`;
/** A whole message; `date` false leaves out Date and Message-ID (rspamd scores their absence). */
function mime(from: string, to: string, subject: string, body: string, options: { date?: boolean; attachment?: string } = {}) {
  const head = [`From: <${from}>`, `To: <${to}>`, `Subject: ${subject}`, ...(options.date === false ? [] : [`Date: ${new Date().toUTCString()}`, `Message-ID: <${crypto.randomUUID()}@client.test>`])];
  if (!options.attachment) return `${head.join('\n')}\n\n${body}\n`;
  const boundary = `b-${crypto.randomBytes(6).toString('hex')}`;
  return `${head.join('\n')}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="${boundary}"\n\n--${boundary}\nContent-Type: text/plain\n\n${body}\n--${boundary}\nContent-Type: application/octet-stream; name="file.com"\nContent-Disposition: attachment; filename="file.com"\nContent-Transfer-Encoding: base64\n\n${Buffer.from(options.attachment).toString('base64')}\n--${boundary}--\n`;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const run = promisify(execFile);

export function spamScenarios(ctx: { stack: () => MailStack; dns: () => DnsServer }) {
  const tag = crypto.randomBytes(3).toString('hex');
  const domain = `spam-${tag}.test`;
  /** An alias domain of the spam domain: the same mailboxes under another name. */
  const aliasDomain = `spam-alias-${tag}.test`;
  const address = (local: string, d = domain) => `${local}@${d}`;
  const friend = `friend@partner-${tag}.test`;
  const spammer = `offers@spammer-${tag}.test`;
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  let customerToken = '';
  let operatorToken = '';
  const { api, ok } = panelApi(() => ctx.stack().baseUrl, () => customerToken, () => ctx.stack().panelErrors());

  /** From the outside world on port 25 (127.0.0.2 is outside mynetworks). */
  const fromOutside = (from: string, to: string, text: string) => smtpSend(ctx.stack().ports.smtp, { from, to: [to], localAddress: '127.0.0.2' }, text);
  /** Through submission after STARTTLS, from a client address of these tests only (the per-client rate limit is another test's). */
  const submitAs = (local: string, to: string, text: string) =>
    smtpSend(ctx.stack().ports.submission, { from: address(local), to: [to], auth: { user: address(local), pass: PASSWORD }, starttls: true, localAddress: '127.0.0.4' }, text);

  /** The message with that subject in a folder, once it is there. */
  async function readFolder(user: string, folder: string, subject: string, ms = 20_000): Promise<string> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const client = imap(ctx.stack().ports.imap, user, PASSWORD);
      await client.connect();
      try {
        const exists = (await client.list()).some((f) => f.path === folder);
        if (exists) {
          const lock = await client.getMailboxLock(folder);
          try {
            if (client.mailbox && client.mailbox.exists > 0) {
              for await (const msg of client.fetch('1:*', { envelope: true, source: true })) if (msg.envelope?.subject === subject) return msg.source!.toString();
            }
          } finally {
            lock.release();
          }
        }
      } finally {
        await client.logout().catch(() => undefined);
      }
      await sleep(300);
    }
    throw new Error(`"${subject}" did not arrive in ${user}'s ${folder}`);
  }

  async function imapFolders(user: string): Promise<string[]> {
    const client = imap(ctx.stack().ports.imap, user, PASSWORD);
    await client.connect();
    try {
      return (await client.list()).map((f) => f.path);
    } finally {
      await client.logout().catch(() => undefined);
    }
  }

  /** The subjects in a folder now. */
  async function subjectsIn(user: string, folder: string): Promise<string[]> {
    const client = imap(ctx.stack().ports.imap, user, PASSWORD);
    await client.connect();
    const subjects: string[] = [];
    try {
      const lock = await client.getMailboxLock(folder);
      try {
        if (client.mailbox && client.mailbox.exists > 0) for await (const msg of client.fetch('1:*', { envelope: true })) subjects.push(msg.envelope?.subject ?? '');
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => undefined);
    }
    return subjects;
  }

  async function move(user: string, from: string, to: string, subject: string) {
    const client = imap(ctx.stack().ports.imap, user, PASSWORD);
    await client.connect();
    try {
      const lock = await client.getMailboxLock(from);
      try {
        const uids = await client.search({ subject }, { uid: true });
        expect(uids, `${subject} in ${from}`).not.toEqual([]);
        await client.messageMove(uids as number[], to, { uid: true });
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => undefined);
    }
  }

  /** Tries until the answer is as wanted (rspamd reads the changed maps within twice their interval): how long it took. */
  async function untilApplied(what: string, attempt: () => Promise<boolean>) {
    const started = Date.now();
    while (Date.now() - started < 60_000) {
      if (await attempt()) return (Date.now() - started) / 1000;
      await sleep(1000);
    }
    throw new Error(`${what} did not apply within a minute`);
  }

  const learned = async (symbol: 'BAYES_SPAM' | 'BAYES_HAM') => {
    const stat = await ctx.stack().rspamdStat();
    return stat.statfiles.find((f) => f.symbol === symbol)?.revision ?? 0;
  };

  it('Spam: when a customer has a verified domain with mailboxes, then their owners set their own spam settings', async () => {
    const stack = ctx.stack();
    operatorToken = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
    // Operators hear about held mailboxes by e-mail too.
    const root = await ok('/api/manage/admin/list', {}, operatorToken);
    const rootId = root.list.find((a: { username: string }) => a.username === ROOT_OPERATOR.username).id;
    await ok('/api/manage/admin/update', { id: rootId, email: `root-${tag}@client.test` }, operatorToken);
    const email = `spam-${tag}@client.test`;
    const customer = await ok('/api/manage/user/create', { email, password: 'customer-pass-1', is_verified: 1 }, operatorToken);
    await ok('/api/manage/storage/create', { owner_id: customer.id, size: 16 * MiB, label: 'spam' }, operatorToken);
    customerToken = (await ok('/api/admin/login/login', { email, password: 'customer-pass-1' }, '')).token;
    const created = await ok('/api/admin/domain/create', { name: domain });
    ids.domain = created.id;
    const view = await ok('/api/admin/domain/dns', { id: created.id }, customerToken, 'GET');
    for (const record of view.records) ctx.dns().publish(record);
    await ok('/api/admin/domain/verify', { id: created.id });
    for (const local of ['inbox', 'quiet', 'sender', 'busy', 'strict']) {
      ids[local] = (await ok('/api/admin/email/create', { domain_id: created.id, local_part: local, password: PASSWORD, quota: 2 * MiB, name: local })).id;
    }
    tokens.inbox = await ownerArea(stack).login(address('inbox'), PASSWORD);
    // The owner of inbox@ files into Junk from 3 and refuses from 50 (the default: 6 and 15).
    const own = await ok('/api/mail/spam/update', { filter: 'on', junk_score: 3, reject_score: 50 }, tokens.inbox);
    expect(own.effective).toEqual({ filter: 'on', junk_score: 3, reject_score: 50, from: 'mailbox' });
  });

  it('Spam: the rspamd configuration deploy:config wrote passes rspamadm configtest, and the generator\'s help names rspamd', async () => {
    const local = path.join(ctx.stack().paths.conf, 'rspamd');
    const tested = await run('rspamadm', [`--var=LOCAL_CONFDIR=${local}`, 'configtest', '-c', '/etc/rspamd/rspamd.conf']);
    expect(tested.stdout).toMatch(/syntax OK/);
    const help = await run(process.execPath, ['dist/deploy/generate.js', '--help'], { cwd: path.resolve(import.meta.dirname, '../..') });
    expect(help.stdout).toMatch(/--rspamd-milter/);
    expect(help.stdout).toMatch(/rspamd/);
  });

  it('Spam: when a message from outside carries GTUBE, then it is refused during the SMTP transaction (no bounce later)', async () => {
    const refused = await fromOutside('someone@client.test', address('quiet'), mime('someone@client.test', address('quiet'), `gtube ${tag}`, `${GTUBE}\n`));
    expect(refused.accepted, JSON.stringify(refused.replies)).toBe(false);
    expect(refused.refused).toMatch(/^5\d\d 5\.7\.1 /);
    // Nothing waits in Postfix's queue to bounce: the refusal was the answer to DATA.
    expect(refused.replies.at(-2)).toMatch(/^5\d\d 5\.7\.1 /);
  });

  it('Spam: when deploy:config is given --log-dir, then rspamd, running as _rspamd as Debian\'s unit runs it, writes its log there: the GTUBE message it refused is in it', async () => {
    const file = path.join(ctx.stack().paths.logs, RSPAMD_LOG);
    // The directory is rspamd's user's (made by the generator), so it can open the file, and open it again after a rotation.
    const owner = (await run('stat', ['-c', '%U %a', path.dirname(file)])).stdout.trim();
    expect(owner).toBe('_rspamd 750');
    expect((await run('stat', ['-c', '%U', file])).stdout.trim()).toBe('_rspamd');
    await ctx.stack().waitFor('the refused GTUBE message in rspamd\'s log', async () => (/\(reject\).*GTUBE/.test(fs.readFileSync(file, 'utf8')) ? true : undefined), 20_000);
    expect(await ctx.stack().pids('rspamd')).not.toEqual([]);
  });

  it('Spam: when the owner allows a sender, then within a minute and without a reload their GTUBE message reaches the inbox; a sender the customer blocks for the domain is refused', async () => {
    const stack = ctx.stack();
    const rspamdBefore = await stack.pids('rspamd');
    await ok('/api/mail/spam_list/create', { sender: friend, action: 'allow' }, tokens.inbox);
    const subject = `allowed gtube ${tag}`;
    const allowedAfter = await untilApplied('the allow list', async () => (await fromOutside(friend, address('inbox'), mime(friend, address('inbox'), subject, `${GTUBE}\n`))).accepted);
    const source = await readFolder(address('inbox'), 'INBOX', subject);
    expect(source).toMatch(/^X-Maildesk-Spam: allowed$/m);

    await ok('/api/admin/spam_list/create', { domain_id: ids.domain, sender: spammer.split('@')[1], action: 'block' });
    let reply = '';
    const blockedAfter = await untilApplied('the block list', async () => {
      const result = await fromOutside(spammer, address('quiet'), mime(spammer, address('quiet'), `offer ${tag}`, prose('offer')));
      reply = result.refused ?? '';
      return !result.accepted;
    });
    expect(reply).toMatch(/^5\d\d 5\.7\.1 The recipient does not accept mail from this sender/);
    console.log(`${stack.backend}: allow list applied after ${allowedAfter.toFixed(1)} s, block list after ${blockedAfter.toFixed(1)} s (maps every ${RSPAMD_MAP_SECONDS} s)`);
    expect(await stack.pids('rspamd')).toEqual(rspamdBefore);
  }, 150_000);

  it('Spam: when the domain has an alias domain, then a sender the customer blocks for the domain is refused at a mailbox\'s alias-domain address too, and a sender its owner allows is delivered there unscored', async () => {
    const created = await ok('/api/admin/domain/create', { name: aliasDomain });
    const view = await ok('/api/admin/domain/dns', { id: created.id }, customerToken, 'GET');
    for (const record of view.records) ctx.dns().publish(record);
    await ok('/api/admin/domain/verify', { id: created.id });
    await ok('/api/admin/alias_domain/create', { alias_domain_id: created.id, target_domain_id: ids.domain });
    let reply = '';
    await untilApplied('the block list at the alias domain', async () => {
      const result = await fromOutside(spammer, address('quiet', aliasDomain), mime(spammer, address('quiet', aliasDomain), `offer via alias ${tag}`, prose('offer')));
      reply = result.refused ?? '';
      return !result.accepted;
    });
    expect(reply).toMatch(/^5\d\d 5\.7\.1 The recipient does not accept mail from this sender/);
    const subject = `allowed gtube via alias ${tag}`;
    const allowed = await fromOutside(friend, address('inbox', aliasDomain), mime(friend, address('inbox', aliasDomain), subject, `${GTUBE}\n`));
    expect(allowed, JSON.stringify(allowed.replies)).toMatchObject({ accepted: true });
    expect(await readFolder(address('inbox'), 'INBOX', subject)).toMatch(/^X-Maildesk-Spam: allowed$/m);
  }, 150_000);

  it('Spam: when a customer turns filtering off for a mailbox through the API, then within a minute GTUBE reaches it, with no reload of rspamd', async () => {
    const stack = ctx.stack();
    const rspamdBefore = await stack.pids('rspamd');
    const started = Date.now();
    await ok('/api/admin/spam/update_mailbox', { id: ids.quiet, filter: 'off' });
    const subject = `off ${tag}`;
    const after = await untilApplied('filtering off', async () => (await fromOutside('someone@client.test', address('quiet'), mime('someone@client.test', address('quiet'), subject, `${GTUBE}\n`))).accepted);
    await readFolder(address('quiet'), 'INBOX', subject);
    console.log(`${stack.backend}: a setting changed through the API applied after ${after.toFixed(1)} s (${((Date.now() - started) / 1000).toFixed(1)} s with the delivery)`);
    expect(after).toBeLessThan(60);
    expect(await stack.pids('rspamd')).toEqual(rspamdBefore);
  }, 150_000);

  it('Spam: when filtering is off for a mailbox, then GTUBE to its alias-domain address reaches it too', async () => {
    const subject = `off via alias ${tag}`;
    const sent = await fromOutside('someone@client.test', address('quiet', aliasDomain), mime('someone@client.test', address('quiet', aliasDomain), subject, `${GTUBE}\n`));
    expect(sent, JSON.stringify(sent.replies)).toMatchObject({ accepted: true });
    expect(await readFolder(address('quiet'), 'INBOX', subject)).toMatch(/^X-Maildesk-Spam: off$/m);
  });

  it('Spam: when a message goes to several recipients, then each is treated as their own settings say: one who blocks the sender or whose reject score it reaches does not get it, one with filtering off does', async () => {
    const pest = `pest@nuisance-${tag}.test`;
    // strict@ refuses from 2 and blocks pest@; quiet@ has filtering off (the test before).
    await ok('/api/admin/spam/update_mailbox', { id: ids.strict, filter: 'on', junk_score: 1, reject_score: 2 });
    await ok('/api/admin/spam_list/create', { domain_id: ids.domain, mailbox_id: ids.strict, sender: pest, action: 'block' });
    const both = (from: string, subject: string, options: { date?: boolean } = {}) =>
      smtpSend(ctx.stack().ports.smtp, { from, to: [address('strict'), address('quiet')], localAddress: '127.0.0.2' }, mime(from, `${address('strict')}, ${address('quiet')}`, subject, prose(subject), options));
    // Both maps read again: strict@ alone refuses pest@ and a message without Date and Message-ID (it scores over 3).
    await untilApplied('strict\'s block list', async () => !(await fromOutside(pest, address('strict'), mime(pest, address('strict'), `pest alone ${tag}`, prose('alone')))).accepted);
    await untilApplied('strict\'s reject score', async () => !(await fromOutside('someone@client.test', address('strict'), mime('someone@client.test', address('strict'), `scored alone ${tag}`, prose('alone'), { date: false }))).accepted);

    const blockedSubject = `pest to both ${tag}`;
    const blocked = await both(pest, blockedSubject);
    expect(blocked, JSON.stringify(blocked.replies)).toMatchObject({ accepted: true });
    const scoredSubject = `scored to both ${tag}`;
    const scored = await both('someone@client.test', scoredSubject, { date: false });
    expect(scored, JSON.stringify(scored.replies)).toMatchObject({ accepted: true });
    await readFolder(address('quiet'), 'INBOX', blockedSubject);
    await readFolder(address('quiet'), 'INBOX', scoredSubject);
    // Delivered to quiet@ in the same transaction as it would have been to strict@: nothing for strict@, in its inbox or Junk.
    await sleep(2000);
    const strictHas = [...(await subjectsIn(address('strict'), 'INBOX')), ...((await imapFolders(address('strict'))).includes('Junk') ? await subjectsIn(address('strict'), 'Junk') : [])];
    expect(strictHas).not.toContain(blockedSubject);
    expect(strictHas).not.toContain(scoredSubject);
    await ok('/api/admin/spam/update_mailbox', { id: ids.quiet, filter: 'inherit' });
  }, 200_000);

  it('Spam: when one recipient allows the sender and another has the message scored, then the one who allows it reads it in the inbox, not Junk; the other in Junk', async () => {
    const ally = `partner@ally-${tag}.test`;
    // quiet@ files into Junk from 1 but allows ally; inbox@ files into Junk from 3 (the first test).
    await ok('/api/admin/spam/update_mailbox', { id: ids.quiet, filter: 'on', junk_score: 1, reject_score: 50 });
    await ok('/api/admin/spam_list/create', { domain_id: ids.domain, mailbox_id: ids.quiet, sender: ally, action: 'allow' });
    const subject = `ally to both ${tag}`;
    // No Date and no Message-ID: scored over 3 for inbox@, and the one score goes to both.
    const sent = await smtpSend(ctx.stack().ports.smtp, { from: ally, to: [address('inbox'), address('quiet')], localAddress: '127.0.0.2' }, mime(ally, `${address('inbox')}, ${address('quiet')}`, subject, prose(subject), { date: false }));
    expect(sent, JSON.stringify(sent.replies)).toMatchObject({ accepted: true });
    const junked = await readFolder(address('inbox'), 'Junk', subject);
    expect(Number(/^X-Maildesk-Spam-Score: (\d+)$/m.exec(junked)?.[1])).toBeGreaterThanOrEqual(30);
    await readFolder(address('quiet'), 'INBOX', subject);
    const quietFolders = await imapFolders(address('quiet'));
    expect(quietFolders.includes('Junk') ? await subjectsIn(address('quiet'), 'Junk') : []).not.toContain(subject);
    await ok('/api/admin/spam/update_mailbox', { id: ids.quiet, filter: 'inherit' });
  }, 120_000);

  it('Spam: when a message scores over the mailbox\'s junk score, then it is read from Junk over IMAP, with headers saying what was scored', async () => {
    const subject = `junk ${tag}`;
    // No Date and no Message-ID: rspamd scores their absence (MISSING_DATE, MISSING_MID), over 3.
    const sent = await fromOutside('someone@client.test', address('inbox'), mime('someone@client.test', address('inbox'), subject, prose('junk'), { date: false }));
    expect(sent, JSON.stringify(sent.replies)).toMatchObject({ accepted: true });
    const source = await readFolder(address('inbox'), 'Junk', subject);
    // rspamd's verdict may still be from the default junk score (its map is read every few
    // seconds); the mailbox's Sieve compares the score with the mailbox's own, read at delivery.
    expect(Number(/^X-Maildesk-Spam-Score: (\d+)$/m.exec(source)?.[1])).toBeGreaterThanOrEqual(30);
    expect(source).toMatch(/^X-Spamd-Result: default: /m);
    expect(source).toMatch(/MISSING_DATE/);
  });

  it('Spam: when the owner moves a message into Junk over IMAP, then rspamd learns spam; out of Junk, ham (its statistics in Redis change)', async () => {
    const subject = `learn ${tag}`;
    expect((await fromOutside('someone@client.test', address('inbox'), mime('someone@client.test', address('inbox'), subject, prose('learn spam')))).accepted).toBe(true);
    await readFolder(address('inbox'), 'INBOX', subject);
    const spamBefore = await learned('BAYES_SPAM');
    await move(address('inbox'), 'INBOX', 'Junk', subject);
    await ctx.stack().waitFor('rspamd to learn spam', async () => ((await learned('BAYES_SPAM')) > spamBefore ? true : undefined), 60_000);
    const hamBefore = await learned('BAYES_HAM');
    await move(address('inbox'), 'Junk', 'INBOX', `junk ${tag}`);
    await ctx.stack().waitFor('rspamd to learn ham', async () => ((await learned('BAYES_HAM')) > hamBefore ? true : undefined), 60_000);
  }, 150_000);

  it('Spam: when a mailbox submits GTUBE, then it is refused and the mailbox is held: its next submission is refused with the reason, the customer and operators are told, and the customer releases it', async () => {
    const spam = await submitAs('sender', 'someone@client.test', mime(address('sender'), 'someone@client.test', `outgoing spam ${tag}`, `${GTUBE}\n`));
    expect(spam.accepted).toBe(false);
    expect(spam.refused).toMatch(/^5\d\d 5\.7\.1 /);
    await ctx.stack().waitFor('the mailbox to be held', async () => ((await ok('/api/admin/spam/held', {}, customerToken, 'GET')).list.some((h: { mailbox_id: number }) => h.mailbox_id === ids.sender) ? true : undefined));
    const next = await submitAs('sender', 'someone@client.test', mime(address('sender'), 'someone@client.test', `after hold ${tag}`, prose('hello')));
    expect(next.accepted).toBe(false);
    expect(next.refused).toMatch(/^5\d\d 5\.7\.1 .*This mailbox is held/);
    const held = (await ok('/api/manage/spam/held', {}, operatorToken, 'GET')).list.find((h: { mailbox_id: number }) => h.mailbox_id === ids.sender);
    expect(held).toMatchObject({ reason: 'spam', address: address('sender') });
    const log = await ok('/api/manage/email_send_log/list', { page_size: 50 }, operatorToken, 'GET');
    const notices = log.list.filter((e: { template_key: string; subject: string }) => e.template_key === 'mailbox_held' && e.subject.includes(address('sender')));
    expect(notices.map((n: { recipient: string }) => n.recipient).sort()).toEqual([`root-${tag}@client.test`, `spam-${tag}@client.test`].sort());
    await ok('/api/admin/spam/release', { mailbox_id: ids.sender });
    const released = await submitAs('sender', 'someone@client.test', mime(address('sender'), 'someone@client.test', `released ${tag}`, prose('released')));
    expect(released, JSON.stringify(released.replies)).toMatchObject({ accepted: true });
  });

  it('Spam: when a mailbox submits far above its usual rate, then it is held and its submissions refused until an operator releases it', async () => {
    const defaults = await ok('/api/manage/spam/defaults', {}, operatorToken, 'GET');
    await ok('/api/manage/spam/update_defaults', { ...defaults, hourly_floor: 3, rate_factor: 10 }, operatorToken);
    try {
      let refused: string | undefined;
      let sent = 0;
      for (let i = 0; i < 10 && !refused; i++) {
        const result = await submitAs('busy', 'someone@client.test', mime(address('busy'), 'someone@client.test', `busy ${i} ${tag}`, prose(`message ${i}`)));
        if (result.accepted) sent++;
        else refused = result.refused;
        // rspamd reports each message as its task ends: give the panel a moment to count it.
        await sleep(300);
      }
      expect(sent).toBeGreaterThan(3);
      expect(refused).toMatch(/^5\d\d 5\.7\.1 .*This mailbox is held/);
      const held = (await ok('/api/manage/spam/held', {}, operatorToken, 'GET')).list.find((h: { mailbox_id: number }) => h.mailbox_id === ids.busy);
      expect(held).toMatchObject({ reason: 'rate' });
      await ok('/api/manage/spam/release', { mailbox_id: ids.busy }, operatorToken);
    } finally {
      await ok('/api/manage/spam/update_defaults', defaults, operatorToken);
    }
  });

  it('Spam: when ClamAV runs with the suite\'s EICAR signature, then a message carrying EICAR is refused at SMTP', async () => {
    if (!ctx.stack().clamav) return console.log('ClamAV is not installed: the antivirus part is skipped');
    const infected = await fromOutside('someone@client.test', address('busy'), mime('someone@client.test', address('busy'), `eicar ${tag}`, prose('attached'), { attachment: EICAR }));
    expect(infected.accepted, JSON.stringify(infected.replies)).toBe(false);
    expect(infected.refused).toMatch(/^5\d\d 5\.7\.1 .*[Vv]irus/);
  });

  it('Spam: when the panel is stopped while mail is scored, then rspamd keeps its reports and the domain\'s figures count them once the panel is back', async () => {
    const stack = ctx.stack();
    const today = async () => (await ok('/api/admin/spam/stats', { domain_id: ids.domain, days: 7 }, customerToken, 'GET')).days.at(-1) as { received: number; rejected: number };
    // Whatever rspamd reported so far has arrived (nothing is sent here meanwhile).
    await sleep(2000);
    const before = await today();
    await stack.stopPanel();
    try {
      const delivered = await fromOutside('someone@client.test', address('busy'), mime('someone@client.test', address('busy'), `while the panel is down ${tag}`, prose('down')));
      expect(delivered, JSON.stringify(delivered.replies)).toMatchObject({ accepted: true });
      const refused = await fromOutside('someone@client.test', address('busy'), mime('someone@client.test', address('busy'), `gtube while the panel is down ${tag}`, `${GTUBE}\n`));
      expect(refused.accepted).toBe(false);
      // rspamd has tried the panel and kept both reports.
      await sleep(3000);
    } finally {
      await stack.startPanel();
    }
    const after = await stack.waitFor('the reports kept while the panel was down', async () => {
      const now = await today();
      return now.received >= before.received + 2 ? now : undefined;
    }, 60_000);
    expect(after).toMatchObject({ received: before.received + 2, rejected: before.rejected + 1 });
  }, 150_000);

  it('Spam: when the domain\'s figures are asked for, then today counts what was received, junked and rejected', async () => {
    await ctx.stack().waitFor('the reports', async () => {
      const stats = await ok('/api/admin/spam/stats', { domain_id: ids.domain, days: 7 }, customerToken, 'GET');
      const today = stats.days.at(-1);
      return today.received >= 5 && today.junked >= 1 && today.rejected >= 2 ? today : undefined;
    });
    expect((await api('/api/admin/spam/stats', { domain_id: ids.domain }, 'not-a-token', 'GET')).code).toBe(20000);
  });
}
