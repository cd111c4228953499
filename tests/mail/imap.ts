/** Reading mailboxes over IMAP, as their owners' mail programs do (STARTTLS; the suite's certificate is self-signed). */
import { ImapFlow } from 'imapflow';

export const MAILBOX_PASSWORD = 'mailbox-pass-1';

/** IMAP with STARTTLS (Dovecot refuses logins without TLS). */
export const imap = (port: number, user: string, pass = MAILBOX_PASSWORD) =>
  new ImapFlow({ host: '127.0.0.1', port, secure: false, doSTARTTLS: true, tls: { rejectUnauthorized: false }, auth: { user, pass }, logger: false });

/** The subjects in the INBOX, oldest first. */
export async function inboxSubjects(port: number, user: string, pass = MAILBOX_PASSWORD): Promise<string[]> {
  const client = imap(port, user, pass);
  await client.connect();
  const subjects: string[] = [];
  try {
    const lock = await client.getMailboxLock('INBOX');
    try {
      if (client.mailbox && client.mailbox.exists > 0) {
        for await (const msg of client.fetch('1:*', { envelope: true })) subjects.push(msg.envelope?.subject ?? '');
      }
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => undefined);
  }
  return subjects;
}

/** The message with that subject, once it has arrived (waits up to `ms`). */
export async function readInbox(port: number, user: string, subject: string, ms = 20_000, pass = MAILBOX_PASSWORD): Promise<string> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const client = imap(port, user, pass);
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
