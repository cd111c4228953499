/**
 * Mailbox owners' sessions end when the mailbox may no longer sign in: the mailbox, its domain or
 * its customer deactivated, the domain's area turned off, or its password set by someone else.
 * (The session check refuses such sessions at once anyway; revoked, they stay ended when the
 * mailbox comes back.)
 */
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';

export type MailboxesOf = { mailboxId: number } | { domainId: number } | { ownerId: number };

export async function endMailboxSessions(db: Db, of: MailboxesOf, exceptSessionId?: number): Promise<void> {
  const mailboxes = db.selectFrom('mailbox').select('id');
  const ids =
    'mailboxId' in of ? [of.mailboxId] : 'domainId' in of ? mailboxes.where('domain_id', '=', of.domainId) : mailboxes.where('owner_id', '=', of.ownerId);
  let query = db.updateTable('session').set({ revoked_at: now() }).where('actor', '=', 'mailbox').where('account_id', 'in', ids).where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}
