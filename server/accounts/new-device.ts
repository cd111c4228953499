/**
 * A sign-in from a device the person has not signed in from before is e-mailed to them, in their
 * language, so that a password in someone else's hands shows at once. An account's very first
 * sign-in tells nobody: there is nothing to compare it with.
 */
import type { CallContext } from '../core/calls.js';
import { now, timeText } from '../core/time.js';
import { deviceKey, deviceName } from './device.js';
import type { SessionActor, SigningIn } from './sessions.js';

/** Where each kind of person sees their sessions and ends one. */
const signedInPage: Record<SessionActor, string> = { customer: '/admin/signed-in', operator: '/manage/signed-in', mailbox: '/mail/signed-in' };

export async function noticeNewDevice(ctx: CallContext, actor: SessionActor, person: SigningIn): Promise<void> {
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
