/**
 * Where a mailbox's mail lives on disk: `<mail-dir>/<domain>/<local part>` is its home (Dovecot's
 * userdb answers it), with the messages in `Maildir/` there. Dovecot's configuration
 * (deploy/queries.ts, templates/dovecot.ts) and the panel's removal of a deleted mailbox's mail
 * (server/mail/mailbox-deletion.ts) both take the layout from here, so they cannot drift apart.
 */
import path from 'node:path';

/** Dovecot's mail_location: Maildir++ in the home directory. */
export const mailLocation = 'maildir:~/Maildir';

/** The home directory of the mailbox local_part@domain (punycode, lower case, as stored). */
export function mailboxHome(mailDir: string, domain: string, localPart: string): string {
  const root = path.resolve(mailDir);
  const home = path.join(root, domain, localPart);
  // Names are validated when stored; this makes sure a bad one can never point outside the store.
  if (!domain || !localPart || path.relative(root, home) !== `${domain}${path.sep}${localPart}`) {
    throw new Error(`Not a mailbox home under ${root}: ${JSON.stringify({ domain, localPart })}`);
  }
  return home;
}

/** The same home as SQL over the mail_mailbox view's `domain` and `local_part` columns (`||` joins text in SQLite and PostgreSQL). */
export function mailboxHomeSql(mailDir: string): string {
  return `'${path.resolve(mailDir).replace(/'/g, "''")}/' || domain || '/' || local_part`;
}

/**
 * Where archived mail of deleted mailboxes goes (MAILBOX_DELETE_MODE=archive): a directory of
 * the store that no domain can be named like, one folder per deletion so that an address deleted
 * twice keeps both.
 */
export function archivedHome(mailDir: string, domain: string, localPart: string, deletionId: number): string {
  const home = mailboxHome(mailDir, domain, localPart);
  return path.join(path.resolve(mailDir), '.archive', domain, `${path.basename(home)}.${deletionId}`);
}
