/**
 * The second step of a sign-in in each area (/api/admin, /api/manage, /api/mail): a code from the
 * authenticator app or a recovery code, or a passkey; a passkey also signs in without a password;
 * and a person a policy requires a second factor of enrols one here (an authenticator app or a
 * passkey, as on their security page) before their first session.
 * Public calls: the pending sign-in's token is the credential.
 */
import { z } from 'zod';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext, type CallSpec } from '../core/calls.js';
import type { HolderKind } from '../db/schema.js';
import { code, passkeyName, token, totpCode, webAuthnResponse } from './inputs.js';
import { authenticationOptions, hasPasskey, registerPasskey, registrationOptions, verifyPasskey } from './passkeys.js';
import { holderEntry, holderRecord, areaOf } from './holders.js';
import { normalRecoveryCode, renewRecoveryCodes, useRecoveryCode } from './recovery-codes.js';
import { checkSecondFactor, finishSignIn, pendingSignIn, signInExpired } from './second-step.js';
import { acceptTotpCode, hasTotp, startTotp } from './totp.js';
import { totpNames } from './totp-names.js';

export function signInCalls(kind: HolderKind): CallSpec<any, any>[] {
  const base = `/api/${areaOf[kind]}/login`;
  const tag = `${areaOf[kind]}/login`;
  return [
    defineCall({
      method: 'POST',
      path: `${base}/second_factor`,
      auth: 'public',
      tag,
      summary:
        'The second step of a sign-in: `token` from the first step\'s answer (error 40103, params.token) and a 6-digit code from the authenticator app or a recovery code (each accepted once). Answers with the session, as the first step does for people without a second factor. Wrong codes are throttled like wrong passwords; a pending sign-in takes 5 wrong codes and lives 5 minutes.',
      input: z.object({ token, code }),
      async handler(input, ctx) {
        const pending = await pendingSignIn(ctx, kind, input.token);
        const { db } = ctx.services;
        const isTotp = /^\d{6}$/.test(input.code);
        await checkSecondFactor(ctx, pending, isTotp ? 'totp' : 'recovery_code', () =>
          isTotp ? acceptTotpCode(ctx.services, pending.holder, input.code) : useRecoveryCode(db, pending.holder, normalRecoveryCode(input.code)),
        );
        return finishSignIn(ctx, pending, pending.holder, isTotp ? 'totp' : 'recovery_code');
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/passkey_options`,
      auth: 'public',
      tag,
      summary:
        'Options for navigator.credentials.get() (WebAuthn), and the `challenge_token` to send back with its answer. With the pending sign-in\'s `token`: that person\'s passkeys (the second step). Without: any passkey of this area, to sign in without a password (user verification required). At most 50 a quarter of an hour from one address (then 42900).',
      input: z.object({ token: token.optional() }),
      async handler(input, ctx) {
        await ctx.services.limiter.hit(['passkeyOptionsPerIp', ctx.ip]);
        const pending = input.token ? await pendingSignIn(ctx, kind, input.token) : undefined;
        return authenticationOptions(ctx.services.db, ctx.services.config, kind, pending?.holder ?? null);
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/passkey`,
      auth: 'public',
      tag,
      summary:
        'Sign in with a passkey: `challenge_token` from passkey_options, `response` as @simplewebauthn/browser\'s startAuthentication answers, and the pending sign-in\'s `token` when this is the second step. Answers with the session. At most 50 tries a quarter of an hour from one address (then 42900).',
      input: z.object({ challenge_token: token, response: webAuthnResponse, token: token.optional() }),
      async handler(input, ctx) {
        const { db, config, limiter } = ctx.services;
        await limiter.hit(['passkeySignInPerIp', ctx.ip]);
        const pending = input.token ? await pendingSignIn(ctx, kind, input.token) : undefined;
        if (!pending) {
          const holder = await verifyPasskey(db, config, kind, input.challenge_token, input.response);
          return finishSignIn(ctx, undefined, holder, 'passkey');
        }
        await checkSecondFactor(ctx, pending, 'passkey', async () => {
          const holder = await verifyPasskey(db, config, kind, input.challenge_token, input.response).catch(() => undefined);
          return holder?.id === pending.holder.id;
        });
        return finishSignIn(ctx, pending, pending.holder, 'passkey');
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/enrol_totp`,
      auth: 'public',
      tag,
      summary:
        'For a person who must have a second factor and has none (the first step answered 40103 with params.enrol): starts enrolling an authenticator app. Answers the secret, its otpauth:// link and a QR code (SVG), shown this once.',
      input: z.object({ token }),
      async handler(input, ctx) {
        const pending = await enrolling(ctx, kind, input.token);
        return startTotp(ctx.services, pending.holder, await totpNames(ctx, pending.holder));
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/enrol_passkey_options`,
      auth: 'public',
      tag,
      summary:
        'For a person who must have a second factor and has none (the first step answered 40103 with params.enrol): options for navigator.credentials.create() (WebAuthn) to add a passkey instead of an authenticator app, and the `challenge_token` to send to enrol_passkey.',
      input: z.object({ token }),
      async handler(input, ctx) {
        const pending = await enrolling(ctx, kind, input.token);
        const { label } = await totpNames(ctx, pending.holder);
        return registrationOptions(ctx.services.db, ctx.services.config, pending.holder, label);
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/enrol_passkey`,
      auth: 'public',
      tag,
      summary:
        "Enrols the passkey: `challenge_token` from enrol_passkey_options, `response` as @simplewebauthn/browser's startRegistration answers, and a `name` to tell it apart. The answer is the session; the passkey is the second factor from now on.",
      input: z.object({ token, challenge_token: token, name: passkeyName, response: webAuthnResponse }),
      async handler(input, ctx) {
        const pending = await enrolling(ctx, kind, input.token);
        const { db, config } = ctx.services;
        const passkey = await registerPasskey(db, config, pending.holder, input.challenge_token, input.name, input.response);
        const record = await holderRecord(db, pending.holder);
        if (!record) throw signInExpired();
        const signedIn = await finishSignIn(ctx, pending, pending.holder, 'passkey');
        await audit(db, { ...ctx, actor: actorAfterSignIn(kind, pending.holder.id, record.name, record.userId) }, holderEntry(pending.holder, record, 'passkey_add', { name: passkey.name, at_sign_in: true }));
        return signedIn;
      },
    }),
    defineCall({
      method: 'POST',
      path: `${base}/enrol_totp_confirm`,
      auth: 'public',
      tag,
      summary:
        'Confirms the enrolment with a code from the authenticator app: TOTP is on, and the answer is the session plus ten `recovery_codes`, shown this once.',
      input: z.object({ token, code: totpCode }),
      async handler(input, ctx) {
        const pending = await pendingSignIn(ctx, kind, input.token, true);
        const { db } = ctx.services;
        await checkSecondFactor(ctx, pending, 'totp', () => acceptTotpCode(ctx.services, pending.holder, input.code, true));
        const recovery_codes = await renewRecoveryCodes(db, pending.holder);
        const record = await holderRecord(db, pending.holder);
        if (!record) throw signInExpired();
        const signedIn = await finishSignIn(ctx, pending, pending.holder, 'totp');
        await audit(db, { ...ctx, actor: actorAfterSignIn(kind, pending.holder.id, record.name, record.userId) }, holderEntry(pending.holder, record, 'totp_enable', { at_sign_in: true }));
        return { ...(signedIn as object), recovery_codes };
      },
    }),
  ];
}

/** The pending enrolment a token names; one whose person has meanwhile got a second factor is over. */
async function enrolling(ctx: CallContext, kind: HolderKind, token: string) {
  const pending = await pendingSignIn(ctx, kind, token, true);
  const { db } = ctx.services;
  if ((await hasTotp(db, pending.holder)) || (await hasPasskey(db, pending.holder))) throw signInExpired();
  return pending;
}

/** The person who has just signed in, as the log names them (the call itself came from a visitor); only kind, id and name are read. */
function actorAfterSignIn(kind: HolderKind, id: number, name: string, customerId: number | null) {
  switch (kind) {
    case 'customer':
      return { kind: 'customer' as const, sessionId: 0, accountId: id, customerId: customerId ?? id, isOwner: customerId === id, email: name, isVerified: true };
    case 'operator':
      return { kind: 'operator' as const, sessionId: 0, id, username: name, role: 'superadmin' as const };
    case 'mailbox':
      return { kind: 'mailbox' as const, sessionId: 0, mailboxId: id, customerId: customerId ?? 0, domainId: 0, address: name };
  }
}
