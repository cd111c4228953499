/** Who holds a mailbox owner's token: the session and its mailbox, which may still sign in, or error 20000. */
import type { Actor } from '../core/actor.js';
import { noSession, type Authenticators } from '../core/calls.js';
import { findSignedIn } from '../accounts/sessions.js';

export const authenticators: Pick<Authenticators, 'mailbox'> = {
  async mailbox({ database, config }, token): Promise<Actor> {
    const box = await findSignedIn(database, config, 'mailbox', token);
    if (!box) throw noSession();
    return { kind: 'mailbox', sessionId: box.session_id, mailboxId: Number(box.id), customerId: Number(box.owner_id), domainId: Number(box.domain_id), address: box.address };
  },
};
