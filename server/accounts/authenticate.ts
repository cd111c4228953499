/** Who holds a customer or operator token: the session and its account, active, or error 20000. */
import type { Db } from '../db/index.js';
import type { OperatorRole } from '../../resources/define.js';
import type { Actor } from '../core/actor.js';
import { noSession, type Authenticators } from '../core/calls.js';
import { findSignedIn } from './sessions.js';

/** Delegated domain administration: the domains a team member may manage. */
async function teamDomainsOf(db: Db, memberId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_member_domain').select('domain_id').where('member_id', '=', memberId).execute();
  return rows.map((r) => Number(r.domain_id));
}

export const authenticators: Pick<Authenticators, 'customer' | 'operator'> = {
  async operator({ database, config }, token): Promise<Actor> {
    const operator = await findSignedIn(database, config, 'operator', token);
    if (!operator || operator.status !== 'active') throw noSession();
    return { kind: 'operator', sessionId: operator.session_id, id: operator.id, username: operator.username, role: operator.role as OperatorRole };
  },

  async customer({ database, config, db }, token): Promise<Actor> {
    const account = await findSignedIn(database, config, 'customer', token);
    if (!account || account.status !== 'active') throw noSession();
    const isOwner = account.owner_id === null;
    if (!isOwner && account.owner_status !== 'active') throw noSession();
    return {
      kind: 'customer',
      sessionId: account.session_id,
      accountId: account.id,
      customerId: account.owner_id ?? account.id,
      isOwner,
      email: account.email,
      isVerified: account.is_verified === 1,
      account,
      ...(isOwner ? {} : { domainIds: await teamDomainsOf(db, account.id) }),
    };
  },
};
