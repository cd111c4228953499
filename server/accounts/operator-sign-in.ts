/** Signing an operator in once the password (or a passkey) is right: the one place an operator session starts. */
import { audit, type RequestOrigin } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { now } from '../core/time.js';
import type { OperatorRow } from '../db/schema.js';
import type { Locale } from '../../resources/customer.js';
import type { OperatorRole } from '../../resources/define.js';
import { requireSecondStep, type SecondFactorMethod } from '../security/gate.js';
import { createSession } from './sessions.js';

// Its address and language: where a sign-in from a new device is told.
type SignedInOperator = Pick<OperatorRow, 'username' | 'role' | 'status'> & { id: number; email: string | null; locale: string };

/**
 * Answers the spec's session (id, username, role, token); an operator with a second factor, or
 * under the superadmin's policy, gets a pending sign-in instead (error 40103), until the second
 * step gives `secondFactor`.
 */
export async function signInOperator(ctx: CallContext, operator: SignedInOperator, how: 'password' | 'passkey', secondFactor?: SecondFactorMethod) {
  const { db } = ctx.services;
  if (operator.status !== 'active') throw new AppError('forbidden', 'error.account_disabled');
  if (!secondFactor) await requireSecondStep(ctx, { kind: 'operator', id: operator.id }, how);
  const token = await createSession(ctx, 'operator', { id: operator.id, email: operator.email, locale: operator.locale as Locale });
  await db.updateTable('admin').set({ last_login_at: now() }).where('id', '=', operator.id).execute();
  // Logged as the operator signing in, not as a visitor.
  const person: RequestOrigin = { ...ctx, actor: { kind: 'operator', sessionId: 0, id: operator.id, username: operator.username, role: operator.role as OperatorRole } };
  await audit(db, person, { action: 'login', targetType: 'operator', targetId: operator.id, ...(secondFactor ? { after: { method: how, second_factor: secondFactor } } : {}) });
  return { id: operator.id, username: operator.username, role: operator.role, token };
}
