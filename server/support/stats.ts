/** The support figures of the operator dashboard (/api/manage/index/stat, key `tickets`); each one an index read. */
import { sql } from 'kysely';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';

/** Monday 00:00 UTC of the current week. */
export function startOfWeek(at = now()): string {
  const day = new Date(at);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - sinceMonday)).toISOString();
}

export async function ticketFigures(db: Db) {
  const count = sql<number>`count(*)`;
  const weekStart = startOfWeek();
  const [open, active, unassigned, waitingLongest, answered] = await Promise.all([
    db.selectFrom('ticket').select(count.as('n')).where('status', '=', 'open').executeTakeFirstOrThrow(),
    db.selectFrom('ticket').select(count.as('n')).where('status', 'in', ['open', 'answered', 'waiting_customer']).executeTakeFirstOrThrow(),
    db.selectFrom('ticket').select(count.as('n')).where('assignee_id', 'is', null).where('status', '!=', 'closed').executeTakeFirstOrThrow(),
    db.selectFrom('ticket').select(['id', 'number', 'subject', 'waiting_since']).where('waiting_since', 'is not', null).orderBy('waiting_since', 'asc').limit(1).executeTakeFirst(),
    db.selectFrom('ticket').select(count.as('n')).where('first_response_at', '>=', weekStart).where('first_response_seconds', 'is not', null).executeTakeFirstOrThrow(),
  ]);
  // The median of this week's first responses: the middle one (or the mean of the middle two).
  const n = Number(answered.n);
  let median: number | null = null;
  if (n > 0) {
    const middle = await db
      .selectFrom('ticket')
      .select('first_response_seconds')
      .where('first_response_at', '>=', weekStart)
      .where('first_response_seconds', 'is not', null)
      .orderBy('first_response_seconds')
      .limit(n % 2 === 0 ? 2 : 1)
      .offset(Math.floor((n - 1) / 2))
      .execute();
    median = Math.round(middle.reduce((sum, r) => sum + Number(r.first_response_seconds), 0) / middle.length);
  }
  return {
    open: Number(open.n),
    active: Number(active.n),
    unassigned: Number(unassigned.n),
    waiting_longest: waitingLongest ?? null,
    median_first_response_seconds_week: median,
  };
}
