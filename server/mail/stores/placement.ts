/**
 * Where a new mailbox's mail goes. The store an operator chose for its domain, else the one
 * chosen for its customer, while that store is active; else the active store with the fewest
 * bytes in use as last measured (fewest mailboxes, then the oldest store, between equals), among
 * those below their capacity. A chosen store is used even when full: the operator chose it; a
 * chosen store that is draining or down takes none, and the rule's store is used instead.
 */
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/index.js';
import type { Placement } from '../../../resources/mail_store.js';

export interface StorePlace {
  store_id: number;
  placement: Placement;
}

/** The store for a new mailbox of this domain (its row as usableDomain reads it) and customer; all three read in one statement. */
export async function placeMailbox(trx: Db, domain: { owner_id: number; mail_store_id: number | null }): Promise<StorePlace> {
  const found = await trx
    .selectNoFrom((eb) => [
      eb.selectFrom('mail_store').select('id').where('id', '=', domain.mail_store_id ?? 0).where('state', '=', 'active').as('domain_store'),
      eb
        .selectFrom('mail_store as s')
        .innerJoin('user as u', 'u.mail_store_id', 's.id')
        .select('s.id')
        .where('u.id', '=', domain.owner_id)
        .where('s.state', '=', 'active')
        .as('customer_store'),
      eb
        .selectFrom('mail_store')
        .select('id')
        .where('state', '=', 'active')
        .where((w) => w.or([w('capacity', 'is', null), w('used_bytes', '<', w.ref('capacity'))]))
        .orderBy('used_bytes')
        .orderBy('mailboxes')
        .orderBy('id')
        .limit(1)
        .as('least_used'),
    ])
    .executeTakeFirstOrThrow();
  if (found.domain_store !== null) return { store_id: Number(found.domain_store), placement: 'domain' };
  if (found.customer_store !== null) return { store_id: Number(found.customer_store), placement: 'customer' };
  if (found.least_used !== null) return { store_id: Number(found.least_used), placement: 'least_used' };
  // Every store is draining, down or full: no mailbox can be made until an operator adds room.
  throw new AppError('conflict', 'error.no_mail_store');
}
