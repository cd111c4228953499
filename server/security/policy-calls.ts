/**
 * Who must have a second factor (operators: a superadmin decides; a customer's logins, its own
 * included, and the owners of its mailboxes: the customer), and an operator's reset of a customer login's second factors (a lost phone),
 * with the reason in the activity log.
 */
import { z } from 'zod';
import { audit } from '../core/audit.js';
import { idSchema } from '../../resources/define.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { forbidden, notFound } from '../core/errors.js';
import { lineText } from '../../resources/text.js';
import { holderEntry, holderRecord, type Holder } from './holders.js';
import { removePasskeys } from './passkeys.js';
import { isRequired, mailboxesScope, OPERATORS, setRequired, teamScope } from './policy.js';
import { secondFactorsOf } from './gate.js';
import { removeRecoveryCodes } from './recovery-codes.js';
import { removeTotp } from './totp.js';

export const policyCalls = [
  defineCall({
    method: 'GET',
    path: '/api/manage/second_factor/policy',
    auth: 'operator',
    keys: false,
    tag: 'manage/second_factor',
    summary: 'Whether every operator must have a second factor.',
    input: z.object({}),
    handler: async (_input, ctx) => ({ operators_required: await isRequired(ctx.services.db, OPERATORS) }),
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/second_factor/update_policy',
    auth: 'operator',
    keys: false,
    roles: [],
    tag: 'manage/second_factor',
    summary: 'Superadmins only: require a second factor of every operator (or not). An operator without one is led through enrolment at their next sign-in.',
    input: z.object({ operators_required: z.boolean() }),
    async handler(input, ctx) {
      const { db } = ctx.services;
      const before = await isRequired(db, OPERATORS);
      await setRequired(db, OPERATORS, input.operators_required);
      if (before !== input.operators_required) {
        await audit(db, ctx, { action: input.operators_required ? 'second_factor_required' : 'second_factor_not_required', targetType: 'operators', before: { required: before }, after: { required: input.operators_required } });
      }
      return { operators_required: input.operators_required };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/api/admin/second_factor/team_policy',
    auth: 'customer',
    keys: false,
    allow: (actor) => actor.isOwner,
    tag: 'admin/second_factor',
    summary:
      "The customer account only: whether every login of the customer (the customer account itself and its team members) must have a second factor. `applies_to_you` is always true: the customer's own login is under it too; `you_must_enrol` says the customer has no second factor yet and will enrol one at their next sign-in.",
    input: z.object({}),
    handler: async (_input, ctx) => teamPolicy(ctx, await isRequired(ctx.services.db, teamScope(ctx.actor.customerId))),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/second_factor/update_team_policy',
    auth: 'customer',
    keys: false,
    allow: (actor) => actor.isOwner,
    tag: 'admin/second_factor',
    summary:
      "The customer account only: require a second factor of every login of the customer, the customer account's own included (or not). A login without one, the customer's included, is led through enrolment at its next sign-in (as operators are under the operators' policy); sessions already open go on.",
    input: z.object({ required: z.boolean() }),
    async handler(input, ctx) {
      await changePolicy(ctx, teamScope(ctx.actor.customerId), 'team', input.required);
      return teamPolicy(ctx, input.required);
    },
  }),
  defineCall({
    method: 'GET',
    path: '/api/admin/second_factor/mailbox_policy',
    auth: 'customer',
    keys: false,
    allow: (actor) => actor.isOwner,
    tag: 'admin/second_factor',
    summary: "The customer account only: whether the owners of the customer's mailboxes (all its domains) must have a second factor to sign in to the mail area.",
    input: z.object({}),
    handler: async (_input, ctx) => ({ required: await isRequired(ctx.services.db, mailboxesScope(ctx.actor.customerId)) }),
  }),
  defineCall({
    method: 'POST',
    path: '/api/admin/second_factor/update_mailbox_policy',
    auth: 'customer',
    keys: false,
    allow: (actor) => actor.isOwner,
    tag: 'admin/second_factor',
    summary:
      "The customer account only: require a second factor of the owner of every mailbox of the customer's domains when signing in to the mail area (or not). An owner without one is led through enrolment at the next sign-in. Mail clients (IMAP, SMTP) are not concerned.",
    input: z.object({ required: z.boolean() }),
    async handler(input, ctx) {
      await changePolicy(ctx, mailboxesScope(ctx.actor.customerId), 'mailboxes', input.required);
      return { required: input.required };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/user/reset_second_factor',
    auth: 'operator',
    keys: false,
    roles: ['support'],
    tag: 'manage/user',
    summary:
      "Reset a customer login's second factors (customer account or team member: `id` of the user): its authenticator app, recovery codes and passkeys are removed, so that it signs in with its password again (or enrols anew, if its customer requires a second factor). The `reason` goes into the activity log, which the customer reads.",
    input: z.object({ id: idSchema, reason: lineText(3, 500) }),
    async handler(input, ctx) {
      const { db } = ctx.services;
      const holder: Holder = { kind: 'customer', id: input.id };
      const record = await holderRecord(db, holder);
      if (!record) throw notFound();
      if (ctx.actor.kind !== 'operator') throw forbidden();
      const result = await db.transaction().execute(async (trx) => {
        const totp = await removeTotp(trx, holder);
        await removeRecoveryCodes(trx, holder);
        const passkeys = await removePasskeys(trx, holder);
        await audit(trx, ctx, holderEntry(holder, record, 'second_factor_reset', { reason: input.reason, totp_removed: totp, passkeys_removed: passkeys }));
        return { totp_removed: totp, passkeys_removed: passkeys };
      });
      return result;
    },
  }),
];

/** Sets a customer's policy; a change is logged about the customer, with what it was before. */
async function changePolicy(ctx: CallContext, scope: string, targetType: 'team' | 'mailboxes', required: boolean) {
  const { db } = ctx.services;
  if (ctx.actor.kind !== 'customer') throw forbidden();
  const before = await isRequired(db, scope);
  await setRequired(db, scope, required);
  if (before !== required) {
    await audit(db, ctx, { action: required ? 'second_factor_required' : 'second_factor_not_required', targetType, userId: ctx.actor.customerId, before: { required: before }, after: { required } });
  }
}

/** The team policy as the customer reads it: it covers their own login, and whether they still have to enrol. */
async function teamPolicy(ctx: CallContext, required: boolean) {
  if (ctx.actor.kind !== 'customer') throw forbidden();
  const mine = await secondFactorsOf(ctx, { kind: 'customer', id: ctx.actor.accountId });
  return { required, applies_to_you: true, you_must_enrol: required && mine.length === 0 };
}
