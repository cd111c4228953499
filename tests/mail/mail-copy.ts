/**
 * Bringing the mail with the real mail server, inside the mail-server suite: a second real Dovecot
 * is the old server (tests/mail/old-imap-server.ts) with 1,000 messages in three folders. The
 * panel copies them into a mailbox of ours over IMAP (Dovecot's master user): folders, flags and
 * dates equal; a second run copies nothing; a copy whose panel is killed with kill -9 halfway
 * resumes after a restart, and each message is in the mailbox exactly once.
 */
import crypto from 'node:crypto';
import { ImapFlow } from 'imapflow';
import { expect, it } from 'vitest';
import { imap } from './imap.js';
import { ROOT_OPERATOR, type MailStack } from './mail-stack.js';
import { oldMessages, type OldImapServer } from './old-imap-server.js';
import { panelApi } from './panel.js';

const MiB = 1024 ** 2;
const PASSWORD = 'mover-pass-1';
/** The old server's account and password (the panel is given them; no answer may hold the password). */
export const OLD_USER = 'anna@old.example';
export const OLD_PASSWORD = `old-${crypto.randomBytes(6).toString('hex')}`;
export const OLD_MESSAGES = oldMessages();

interface Seen {
  folder: string;
  flags: string[];
  date: number;
}

/** Every message of every folder, by Message-ID (a list per id: a duplicate shows as two). */
async function contents(client: ImapFlow): Promise<Map<string, Seen[]>> {
  await client.connect();
  const byId = new Map<string, Seen[]>();
  try {
    for (const folder of await client.list()) {
      if (folder.flags.has('\\Noselect') || folder.flags.has('\\NonExistent')) continue;
      const box = await client.mailboxOpen(folder.path, { readOnly: true });
      if (box.exists === 0) continue;
      for await (const m of client.fetch('1:*', { flags: true, internalDate: true, envelope: true })) {
        const id = m.envelope?.messageId ?? `(none) ${m.envelope?.subject}`;
        const seen = { folder: folder.path, flags: [...(m.flags ?? [])].filter((f) => f !== '\\Recent').sort(), date: new Date(m.internalDate!).getTime() };
        byId.set(id, [...(byId.get(id) ?? []), seen]);
      }
    }
  } finally {
    await client.logout().catch(() => undefined);
  }
  return byId;
}

export function mailCopyScenarios(ctx: { stack: () => MailStack; old: () => OldImapServer }) {
  const tag = crypto.randomBytes(3).toString('hex');
  const domain = `moving-${tag}.test`;
  const ids: Record<string, number> = {};
  let customerToken = '';
  const { ok } = panelApi(() => ctx.stack().baseUrl, () => customerToken, () => ctx.stack().panelErrors());
  const address = (local: string) => `${local}@${domain}`;
  const source = () => ({ source_host: '127.0.0.1', source_port: ctx.old().port, source_tls: 'starttls', source_user: OLD_USER, password: OLD_PASSWORD });
  const copyOf = (id: number) => ok('/api/admin/mail_copy/get', { id }, customerToken, 'GET');
  async function finished(id: number, ms = 240_000) {
    return ctx.stack().waitFor(`copy ${id} to end`, async () => {
      const copy = await copyOf(id);
      if (copy.state === 'failed') throw new Error(`copy failed: ${copy.error} ${copy.error_detail}\n${ctx.old().log()}`);
      return copy.state === 'done' ? copy : undefined;
    }, ms);
  }
  const ours = (local: string) => contents(imap(ctx.stack().ports.imap, address(local), PASSWORD));

  it('Mail copy: when a customer has a domain and mailboxes to move into, then they are made', async () => {
    const operatorToken = (await ok('/api/manage/login/login', ROOT_OPERATOR, '')).token;
    const email = `mover-${tag}@client.test`;
    const customer = await ok('/api/manage/user/create', { email, password: 'customer-pass-1', is_verified: 1 }, operatorToken);
    customerToken = (await ok('/api/admin/login/login', { email, password: 'customer-pass-1' }, '')).token;
    await ok('/api/manage/storage/create', { owner_id: customer.id, size: 64 * MiB, label: 'mail copy' }, operatorToken);
    const made = await ok('/api/admin/domain/create', { name: domain });
    await ok('/api/manage/domain/update', { id: made.id, status: 'active' }, operatorToken);
    for (const local of ['mover', 'crash']) ids[local] = (await ok('/api/admin/email/create', { domain_id: made.id, local_part: local, password: PASSWORD, quota: 16 * MiB, name: local })).id;
  });

  it('When a customer copies a mailbox from the old server, then every folder, flag and date is as it was there, and the owner sees the copy', async () => {
    const started = Date.now();
    const copy = await ok('/api/admin/mail_copy/create', { mailbox_id: ids.mover, ...source() });
    expect(JSON.stringify(copy)).not.toContain(OLD_PASSWORD);
    const done = await finished(copy.id);
    console.log(`${ctx.stack().backend}: mail copy of ${OLD_MESSAGES.length} messages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(done).toMatchObject({ state: 'done', total_messages: 1000, done_messages: 1000, copied_messages: 1000, folders: 3, error: null });

    const old = await contents(new ImapFlow({ host: '127.0.0.1', port: ctx.old().port, secure: false, doSTARTTLS: true, tls: { rejectUnauthorized: false }, auth: { user: OLD_USER, pass: OLD_PASSWORD }, logger: false }));
    const copied = await ours('mover');
    expect(old.size).toBe(1000);
    expect(copied.size).toBe(1000);
    for (const m of OLD_MESSAGES) {
      expect(old.get(m.messageId), m.messageId).toEqual([{ folder: m.folder, flags: [...m.flags].sort(), date: m.date.getTime() }]);
      expect(copied.get(m.messageId), m.messageId).toEqual(old.get(m.messageId));
    }
    // The mailbox's owner sees the copy in their own area, without the password.
    const login = await ok('/api/mail/login/login', { email: address('mover'), password: PASSWORD }, '');
    const theirs = await ok('/api/mail/mail_copy/list', {}, login.token, 'GET');
    expect(theirs.list.map((c: { id: number; state: string }) => [c.id, c.state])).toEqual([[copy.id, 'done']]);
    expect(JSON.stringify(theirs)).not.toContain(OLD_PASSWORD);
  }, 300_000);

  it('When the same mailbox is copied again, then nothing is copied twice', async () => {
    const again = await ok('/api/admin/mail_copy/create', { mailbox_id: ids.mover, ...source() });
    expect(await finished(again.id)).toMatchObject({ total_messages: 1000, done_messages: 1000, copied_messages: 0 });
    const copied = await ours('mover');
    expect(copied.size).toBe(1000);
    expect([...copied.values()].filter((seen) => seen.length !== 1)).toEqual([]);
  }, 300_000);

  it('When the panel is killed with kill -9 halfway through a copy and started again, then the copy resumes and each message is there exactly once', async () => {
    const stack = ctx.stack();
    const copy = await ok('/api/admin/mail_copy/create', { mailbox_id: ids.crash, ...source() });
    const halfway = await stack.waitFor('the copy to be under way', async () => {
      const now = await copyOf(copy.id);
      return now.done_messages >= 200 ? now : undefined;
    }, 60_000);
    await stack.killPanel();
    expect(halfway.done_messages).toBeLessThan(1000);
    // Both queues take the killed run again as the panel starts (PostgreSQL: its runner's lock is gone).
    await stack.startPanel();
    const done = await finished(copy.id);
    expect(done).toMatchObject({ state: 'done', total_messages: 1000, done_messages: 1000 });
    const copied = await ours('crash');
    expect(copied.size).toBe(1000);
    expect([...copied.entries()].filter(([, seen]) => seen.length !== 1).map(([id]) => id)).toEqual([]);
    for (const m of OLD_MESSAGES) expect(copied.get(m.messageId)?.[0], m.messageId).toEqual({ folder: m.folder, flags: [...m.flags].sort(), date: m.date.getTime() });
    console.log(`${stack.backend}: killed at ${halfway.done_messages} of 1000; resumed to 1000, none twice`);
  }, 300_000);
}
