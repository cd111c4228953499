/** Delegated domain administration: the domains a team member may manage. */
import type { Db } from '../db/index.js';

export async function teamDomainsOf(db: Db, memberId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_member_domain').select('domain_id').where('member_id', '=', memberId).execute();
  return rows.map((r) => Number(r.domain_id));
}
