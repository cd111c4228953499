/**
 * A signed-in person's own second factors, in each area (/api/admin, /api/manage, /api/mail):
 * what they have, an authenticator app (start, confirm, turn off), their recovery codes, their
 * passkeys (add, remove). Secrets and recovery codes are answered once, when made.
 */
import { z } from 'zod';
import { audit } from '../core/audit.js';
import { idSchema } from '../../resources/define.js';
import { defineCall, type Auth, type CallContext, type CallSpec } from '../core/calls.js';
import { AppError, notFound } from '../core/errors.js';
import type { Db } from '../db/index.js';
import type { HolderKind } from '../db/schema.js';
import { confirmation, confirmIdentity } from './confirm-identity.js';
import { holderEntry, holderOf, holderRecord, areaOf, type Holder } from './holders.js';
import { passkeyName, token, totpCode, webAuthnResponse } from './inputs.js';
import { listPasskeys, registerPasskey, registrationOptions, removePasskey } from './passkeys.js';
import { mustHaveSecondFactor } from './policy.js';
import { recoveryCodesLeft, removeRecoveryCodes, renewRecoveryCodes } from './recovery-codes.js';
import { acceptTotpCode, hasTotp, removeTotp, startTotp } from './totp.js';
import { totpNames } from './totp-names.js';

const authOf = { customer: 'customer', operator: 'operator', mailbox: 'mailbox' } as const satisfies Record<HolderKind, Auth>;

/** Logs a change to the caller's own second factors, naming their account. */
async function logOwn(ctx: CallContext, holder: Holder, action: string, details?: Record<string, unknown>) {
  const record = await holderRecord(ctx.services.db, holder);
  if (!record) throw notFound();
  await audit(ctx.services.db, ctx, holderEntry(holder, record, action, details));
}

export async function secondFactorInfo(ctx: CallContext, holder: Holder) {
  const { db } = ctx.services;
  const totp = await hasTotp(db, holder);
  return {
    totp,
    recovery_codes_left: totp ? await recoveryCodesLeft(db, holder) : 0,
    passkeys: await listPasskeys(db, holder),
    /** A policy (operators', or the customer's for their team) requires a second factor. */
    required: await mustHaveSecondFactor(db, holder),
  };
}

/**
 * Under a policy (policy.ts) a person keeps one second factor: the last one goes only after another
 * is added. Otherwise the next sign-in would lead them through enrolment again, and a stolen
 * session could take the factor away.
 */
async function keepLastFactor(db: Db, holder: Holder, going: 'totp' | { passkeys: number }) {
  if (!(await mustHaveSecondFactor(db, holder))) return;
  const left = going === 'totp' ? (await listPasskeys(db, holder)).length : going.passkeys - 1 + ((await hasTotp(db, holder)) ? 1 : 0);
  if (left < 1) throw new AppError('conflict', 'error.second_factor_last');
}

export function secondFactorCalls(kind: HolderKind): CallSpec<any, any>[] {
  const auth = authOf[kind];
  const base = `/api/${areaOf[kind]}/second_factor`;
  const tag = `${areaOf[kind]}/second_factor`;
  return [
    defineCall({
      method: 'GET',
      path: `${base}/info`,
      auth,
      keys: false,
      tag,
      summary: "The caller's second factors: whether TOTP is on, recovery codes left, passkeys (id, name, created_at, last_used_at), and whether a policy requires one.",
      input: z.object({}),
      handler: (_input, ctx) => secondFactorInfo(ctx, holderOf(ctx.actor)),
    }),
    defineCall({
      method: 'POST',
      path: `${base}/totp_start`,
      auth,
      keys: false,
      tag,
      summary: 'Start enrolling an authenticator app (TOTP): answers the secret, its otpauth:// link and a QR code (SVG), shown this once. TOTP is on once totp_confirm gets a right code.',
      input: z.object({}),
      async handler(_input, ctx) {
        const holder = holderOf(ctx.actor);
        return startTotp(ctx.services, holder, await totpNames(ctx, holder));
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/totp_confirm`,
      auth,
      keys: false,
      tag,
      summary: 'Confirm the authenticator app with one of its codes: TOTP is on from now on, and the answer holds ten recovery codes, shown this once.',
      input: z.object({ code: totpCode }),
      async handler(input, ctx) {
        const holder = holderOf(ctx.actor);
        const { db, limiter } = ctx.services;
        const key = `second-factor:${holder.kind}:${holder.id}`;
        await limiter.beforeSignIn(key, ctx.ip);
        if (!(await acceptTotpCode(ctx.services, holder, input.code, true))) {
          await limiter.failedSignIn(key, ctx.ip);
          throw new AppError('badCode', 'error.bad_second_factor_code');
        }
        const recovery_codes = await renewRecoveryCodes(db, holder);
        await logOwn(ctx, holder, 'totp_enable');
        return { recovery_codes };
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/totp_disable`,
      auth,
      keys: false,
      tag,
      summary:
        'Turn the authenticator app off; its recovery codes go with it. Passkeys stay. Under a policy that requires a second factor, refused when it is the last one (error.second_factor_last). `confirmation`: the caller\'s password or a current code from the app (a wrong one counts like a wrong sign-in).',
      input: z.object({ confirmation }),
      async handler(input, ctx) {
        const holder = holderOf(ctx.actor);
        const { db } = ctx.services;
        await confirmIdentity(ctx, input.confirmation);
        const wasOn = await hasTotp(db, holder);
        if (wasOn) await keepLastFactor(db, holder, 'totp');
        await removeTotp(db, holder);
        await removeRecoveryCodes(db, holder);
        if (wasOn) await logOwn(ctx, holder, 'totp_disable');
        return secondFactorInfo(ctx, holder);
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/recovery_codes`,
      auth,
      keys: false,
      tag,
      summary:
        'Replace the recovery codes with ten new ones (the old ones stop working); answers them, shown this once. Needs TOTP on. `confirmation`: the caller\'s password or a current code from the app.',
      input: z.object({ confirmation }),
      async handler(input, ctx) {
        const holder = holderOf(ctx.actor);
        const { db } = ctx.services;
        if (!(await hasTotp(db, holder))) throw new AppError('conflict', 'error.totp_not_on');
        await confirmIdentity(ctx, input.confirmation);
        const recovery_codes = await renewRecoveryCodes(db, holder);
        await logOwn(ctx, holder, 'recovery_codes_renew');
        return { recovery_codes };
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/passkey_options`,
      auth,
      keys: false,
      tag,
      summary: 'Options for navigator.credentials.create() (WebAuthn) to add a passkey, and the `challenge_token` to send back with its answer.',
      input: z.object({}),
      async handler(_input, ctx) {
        const holder = holderOf(ctx.actor);
        const { label } = await totpNames(ctx, holder);
        return registrationOptions(ctx.services.db, ctx.services.config, holder, label);
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/passkey_add`,
      auth,
      keys: false,
      tag,
      summary: "Add a passkey: `challenge_token` from passkey_options, `response` as @simplewebauthn/browser's startRegistration answers, and a `name` to tell it apart. Answers the passkey (id, name, created_at).",
      input: z.object({ challenge_token: token, name: passkeyName, response: webAuthnResponse }),
      async handler(input, ctx) {
        const holder = holderOf(ctx.actor);
        const passkey = await registerPasskey(ctx.services.db, ctx.services.config, holder, input.challenge_token, input.name, input.response);
        await logOwn(ctx, holder, 'passkey_add', { name: passkey.name });
        return { ...passkey, id: Number(passkey.id) };
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/passkey_delete`,
      auth,
      keys: false,
      tag,
      summary: "Remove one of the caller's passkeys. Under a policy that requires a second factor, the last one is refused (error.second_factor_last) until another is added.",
      input: z.object({ id: idSchema }),
      async handler(input, ctx) {
        const holder = holderOf(ctx.actor);
        const passkeys = await listPasskeys(ctx.services.db, holder);
        if (passkeys.some((p) => p.id === input.id)) await keepLastFactor(ctx.services.db, holder, { passkeys: passkeys.length });
        const name = await removePasskey(ctx.services.db, holder, input.id);
        if (name === undefined) throw notFound();
        await logOwn(ctx, holder, 'passkey_remove', { name });
        return secondFactorInfo(ctx, holder);
      },
    }),
  ];
}
