/**
 * A sign-in from a device the person has not signed in from before is e-mailed to them, in their
 * language, so that a password in someone else's hands shows at once. An account's very first
 * sign-in tells nobody: there is nothing to compare it with.
 */
import type { Locale } from '../../resources/customer.js';
import type { CallContext } from '../core/calls.js';
import { now, timeText } from '../core/time.js';
import type { KnownDeviceRow } from '../db/schema.js';
import { deviceKey, deviceName } from './device.js';

/** Customer, operator or mailbox owner: devices are known per kind of person, as sessions are. */
type Actor = KnownDeviceRow['actor'];

/** Who signs in: the account (a mailbox's id for its owner) and where notices about it go. */
export interface SigningIn {
  id: number;
  /** Where a new device's sign-in is told; null: nowhere (an operator without an address). */
  email: string | null;
  locale: Locale;
  /** The customer it concerns, for the send log. */
  customerId?: number | null;
}

/** Where each kind of person sees their sessions and ends one. */
const signedInPage: Record<Actor, string> = { customer: '/admin/signed-in', operator: '/manage/signed-in', mailbox: '/mail/signed-in' };

export async function noticeNewDevice(ctx: CallContext, actor: Actor, person: SigningIn): Promise<void> {
  const { db, mailer } = ctx.services;
  const at = now();
  // The unique (actor, account, device) makes the insert the test: a row back means a new device.
  const added = await db
    .insertInto('known_device')
    .values({ actor, account_id: person.id, device_hash: deviceKey(ctx.userAgent), first_seen_at: at })
    .onConflict((oc) => oc.columns(['actor', 'account_id', 'device_hash']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!added || !person.email) return;
  const before = await db.selectFrom('known_device').select('id').where('actor', '=', actor).where('account_id', '=', person.id).where('id', '!=', added.id).executeTakeFirst();
  if (!before) return;
  await mailer.send(db, {
    key: 'new_device_sign_in',
    locale: person.locale,
    to: person.email,
    params: { device: deviceName(ctx.userAgent), ip: ctx.ip, time: timeText(at), page: signedInPage[actor] },
    userId: person.customerId ?? null,
  });
}
