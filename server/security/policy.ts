/**
 * Who must have a second factor: every operator, when a superadmin says so; a customer's team
 * members, when the customer says so. Such a person without one is led through enrolment at
 * their next sign-in (gate.ts).
 */
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { Holder } from './holders.js';

export const OPERATORS = 'operators';
export const teamScope = (customerId: number) => `team:${customerId}`;

export async function isRequired(db: Db, scope: string): Promise<boolean> {
  const row = await db.selectFrom('second_factor_policy').select('required').where('scope', '=', scope).executeTakeFirst();
  return Number(row?.required ?? 0) === 1;
}

export async function setRequired(db: Db, scope: string, required: boolean): Promise<void> {
  const values = { required: required ? 1 : 0, updated_at: now() };
  await db
    .insertInto('second_factor_policy')
    .values({ scope, ...values })
    .onConflict((oc) => oc.column('scope').doUpdateSet(values))
    .execute();
}

/** The policy a person is under, if any (mailbox owners are under none). */
export async function mustHaveSecondFactor(db: Db, holder: Holder): Promise<boolean> {
  if (holder.kind === 'operator') return isRequired(db, OPERATORS);
  if (holder.kind !== 'customer') return false;
  const login = await db.selectFrom('user').select('owner_id').where('id', '=', holder.id).executeTakeFirst();
  return login?.owner_id != null && (await isRequired(db, teamScope(Number(login.owner_id))));
}
