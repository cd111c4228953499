/**
 * Who must have a second factor, in one place: every operator, when a superadmin says so; a
 * customer's logins (the customer's own and its team's), when the customer says so; the owners
 * of the customer's mailboxes in the mail area, when the customer says so. Such a person without
 * one is led through enrolment at their next sign-in (gate.ts).
 */
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { Holder } from './holders.js';

export const OPERATORS = 'operators';
export const teamScope = (customerId: number) => `team:${customerId}`;
export const mailboxesScope = (customerId: number) => `mailboxes:${customerId}`;

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

/** The policy a person is under, if any. */
export async function mustHaveSecondFactor(db: Db, holder: Holder): Promise<boolean> {
  switch (holder.kind) {
    case 'operator':
      return isRequired(db, OPERATORS);
    case 'customer': {
      // The customer's team policy covers the customer's own login too: it is the team's strongest key.
      const login = await db.selectFrom('user').select(['id', 'owner_id']).where('id', '=', holder.id).executeTakeFirst();
      return login !== undefined && (await isRequired(db, teamScope(Number(login.owner_id ?? login.id))));
    }
    case 'mailbox': {
      const box = await db.selectFrom('mailbox').select('owner_id').where('id', '=', holder.id).executeTakeFirst();
      return box !== undefined && (await isRequired(db, mailboxesScope(Number(box.owner_id))));
    }
  }
}
