/** Who holds a customer or operator token: the session and its account, active, or error 20000. */
import type { Db } from '../db/index.js';
import type { OperatorRole } from '../../resources/define.js';
import type { AccountInfo, CustomerActor, OperatorActor } from '../core/actor.js';
import { noSession, type Authenticators } from '../core/calls.js';
import { findSignedIn } from './sessions.js';

/** Delegated domain administration: the domains a team member may manage. */
async function teamDomainsOf(db: Db, memberId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_member_domain').select('domain_id').where('member_id', '=', memberId).execute();
  return rows.map((r) => Number(r.domain_id));
}

/**
 * The caller a customer login is, read with its session or API key: an active login (and a team
 * member's customer active too) with a team member's domains, or error 20000.
 */
export async function customerActorOf(db: Db, account: AccountInfo & { owner_status: string | null }, sessionId: number): Promise<CustomerActor> {
  if (account.status !== 'active') throw noSession();
  const isOwner = account.owner_id === null;
  if (!isOwner && account.owner_status !== 'active') throw noSession();
  return {
    kind: 'customer',
    sessionId,
    accountId: account.id,
    customerId: account.owner_id ?? account.id,
    isOwner,
    email: account.email,
    isVerified: account.is_verified === 1,
    account,
    ...(isOwner ? {} : { domainIds: await teamDomainsOf(db, account.id) }),
  };
}

/** The caller an operator is, read with their session or API key: active, or error 20000. */
export function operatorActorOf(operator: { id: number; username: string; role: string; status: string }, sessionId: number): OperatorActor {
  if (operator.status !== 'active') throw noSession();
  return { kind: 'operator', sessionId, id: operator.id, username: operator.username, role: operator.role as OperatorRole };
}

export const authenticators: Pick<Authenticators, 'customer' | 'operator'> = {
  async operator({ database, config }, token) {
    const operator = await findSignedIn(database, config, 'operator', token);
    if (!operator) throw noSession();
    return operatorActorOf(operator, operator.session_id);
  },

  async customer({ database, config, db }, token) {
    const account = await findSignedIn(database, config, 'customer', token);
    if (!account) throw noSession();
    return customerActorOf(db, account, account.session_id);
  },
};
