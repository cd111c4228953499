/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: the relying party is the installation's
 * PUBLIC_URL (its host name is the RP id, its origin the only origin accepted). Passkeys are
 * discoverable, so one also signs in without a password; then it must prove user verification
 * (PIN or biometrics), which makes it two factors by itself. A passkey works only in the area of
 * the person it was made for.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { HolderKind } from '../db/schema.js';
import { issueChallenge, liveChallenge, useChallenge } from './challenges.js';
import type { Holder } from './holders.js';

/** At most this many passkeys per person. */
export const PASSKEY_LIMIT = 20;

export const passkeyFailed = () => new AppError('badCode', 'error.passkey_failed');

function relyingParty(config: Pick<Config, 'publicUrl'>) {
  const url = new URL(config.publicUrl);
  return { rpID: url.hostname, origin: url.origin, rpName: 'Maildesk' };
}

const passkeysOf = (db: Db, holder: Holder) =>
  db.selectFrom('passkey').selectAll().where('holder_kind', '=', holder.kind).where('holder_id', '=', holder.id).orderBy('id').execute();

/** What the person's list shows: never the key itself. */
export async function listPasskeys(db: Db, holder: Holder) {
  const rows = await passkeysOf(db, holder);
  return rows.map(({ id, name, created_at, last_used_at }) => ({ id: Number(id), name, created_at, last_used_at }));
}

export async function hasPasskey(db: Db, holder: Holder): Promise<boolean> {
  const row = await db.selectFrom('passkey').select('id').where('holder_kind', '=', holder.kind).where('holder_id', '=', holder.id).executeTakeFirst();
  return Boolean(row);
}

const transportsOf = (text: string) => JSON.parse(text) as AuthenticatorTransport[];
type AuthenticatorTransport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** Options for the browser's navigator.credentials.create(), and the token of their challenge. */
export async function registrationOptions(db: Db, config: Config, holder: Holder, userName: string) {
  const existing = await passkeysOf(db, holder);
  if (existing.length >= PASSKEY_LIMIT) throw new AppError('conflict', 'error.passkey_limit', { limit: PASSKEY_LIMIT });
  const { rpID, rpName } = relyingParty(config);
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName,
    userDisplayName: userName,
    attestationType: 'none',
    // The same authenticator twice would be one passkey under two names.
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const token = await issueChallenge(db, 'passkey_register', holder, options.challenge);
  return { challenge_token: token, options };
}

/** Checks the browser's answer to registrationOptions and keeps the passkey under its name. */
export async function registerPasskey(db: Db, config: Config, holder: Holder, token: string, name: string, response: unknown) {
  const challenge = await liveChallenge(db, token, 'passkey_register', holder.kind);
  if (!challenge || challenge.holder_id !== holder.id || !(await useChallenge(db, challenge.id))) throw new AppError('badCode', 'error.passkey_challenge_expired');
  const { rpID, origin } = relyingParty(config);
  const verified = await verifyRegistrationResponse({
    response: response as RegistrationResponseJSON,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verified?.verified) throw passkeyFailed();
  const { credential } = verified.registrationInfo;
  const taken = await db.selectFrom('passkey').select('id').where('credential_id', '=', credential.id).executeTakeFirst();
  if (taken) throw new AppError('conflict', 'error.passkey_exists');
  return db
    .insertInto('passkey')
    .values({
      holder_kind: holder.kind,
      holder_id: holder.id,
      name,
      credential_id: credential.id,
      public_key: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      created_at: now(),
      last_used_at: null,
    })
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
}

/**
 * Options for navigator.credentials.get(): for a known person (the second step) their passkeys;
 * for nobody yet (a sign-in without a password) any passkey the browser holds for this site.
 */
export async function authenticationOptions(db: Db, config: Config, kind: HolderKind, holder: Holder | null) {
  const { rpID } = relyingParty(config);
  const allow = holder ? await passkeysOf(db, holder) : [];
  if (holder && allow.length === 0) throw new AppError('badCode', 'error.no_passkey');
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: allow.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    userVerification: holder ? 'preferred' : 'required',
  });
  const token = await issueChallenge(db, 'passkey_sign_in', { kind, id: holder?.id ?? null }, options.challenge);
  return { challenge_token: token, options };
}

/**
 * Checks the browser's answer to authenticationOptions: answers whose passkey it is (in this
 * area, and the person named by the challenge when it named one), or refuses.
 */
export async function verifyPasskey(db: Db, config: Config, kind: HolderKind, token: string, response: unknown): Promise<Holder> {
  const challenge = await liveChallenge(db, token, 'passkey_sign_in', kind);
  if (!challenge || !(await useChallenge(db, challenge.id))) throw new AppError('badCode', 'error.passkey_challenge_expired');
  const credentialId = typeof (response as { id?: unknown })?.id === 'string' ? (response as { id: string }).id : '';
  const passkey = await db.selectFrom('passkey').selectAll().where('credential_id', '=', credentialId).where('holder_kind', '=', kind).executeTakeFirst();
  if (!passkey || (challenge.holder_id !== null && Number(passkey.holder_id) !== challenge.holder_id)) throw passkeyFailed();
  const { rpID, origin } = relyingParty(config);
  const verified = await verifyAuthenticationResponse({
    response: response as AuthenticationResponseJSON,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: passkey.credential_id, publicKey: isoBase64URL.toBuffer(passkey.public_key), counter: Number(passkey.counter), transports: transportsOf(passkey.transports) },
    // Without a password, the passkey alone must be two factors: something held and a PIN or biometrics.
    requireUserVerification: challenge.holder_id === null,
  }).catch(() => undefined);
  if (!verified?.verified) throw passkeyFailed();
  await db.updateTable('passkey').set({ counter: verified.authenticationInfo.newCounter, last_used_at: now() }).where('id', '=', passkey.id).execute();
  return { kind, id: Number(passkey.holder_id) };
}

/** Removes one of the holder's passkeys; answers its name, or undefined when it is not theirs. */
export async function removePasskey(db: Db, holder: Holder, id: number): Promise<string | undefined> {
  const row = await db
    .deleteFrom('passkey')
    .where('id', '=', id)
    .where('holder_kind', '=', holder.kind)
    .where('holder_id', '=', holder.id)
    .returning('name')
    .executeTakeFirst();
  return row?.name;
}

export async function removePasskeys(db: Db, holder: Holder): Promise<number> {
  const result = await db.deleteFrom('passkey').where('holder_kind', '=', holder.kind).where('holder_id', '=', holder.id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
