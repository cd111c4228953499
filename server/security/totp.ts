/**
 * TOTP (RFC 6238) with otpauth: SHA-1, 6 digits, 30-second steps (what every authenticator app
 * reads), a code of the step before or after accepted for clock drift. A code is accepted only
 * for a step after the last one accepted, in one guarded UPDATE: a replayed code, or two requests
 * racing with one code, get in once. The secret is stored sealed with SECRET_KEY (totp-secret.ts).
 */
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { AppError } from '../core/errors.js';
import { now, nowMs } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { Holder } from './holders.js';
import { openTotpSecret, sealTotpSecret, type TotpStore } from './totp-secret.js';

const PERIOD = 30;
const DRIFT_STEPS = 1;

const totpOf = (secret: string, issuer = '', label = '') => new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD });

/** What the person's authenticator app needs: the secret, its otpauth:// link, and that link as a QR code (SVG). */
export interface TotpEnrolment {
  secret: string;
  otpauth_url: string;
  qr_svg: string;
}

const totpRow = (db: Db, holder: Holder) =>
  db.selectFrom('totp').selectAll().where('holder_kind', '=', holder.kind).where('holder_id', '=', holder.id).executeTakeFirst();

export async function hasTotp(db: Db, holder: Holder): Promise<boolean> {
  return Boolean((await totpRow(db, holder))?.confirmed_at);
}

/**
 * Starts (or starts again) an enrolment with a new secret. The secret is answered now and never
 * again; an authenticator already confirmed must be turned off first.
 */
export async function startTotp(store: TotpStore, holder: Holder, names: { issuer: string; label: string }): Promise<TotpEnrolment> {
  const { db } = store;
  const existing = await totpRow(db, holder);
  if (existing?.confirmed_at) throw new AppError('conflict', 'error.totp_already_on');
  const secret = new Secret({ size: 20 }).base32;
  const stored = sealTotpSecret(store, holder, secret);
  if (existing) await db.updateTable('totp').set({ secret: stored, last_step: 0, created_at: now() }).where('id', '=', existing.id).execute();
  else await db.insertInto('totp').values({ holder_kind: holder.kind, holder_id: holder.id, secret: stored, confirmed_at: null, created_at: now() }).execute();
  const otpauth_url = totpOf(secret, names.issuer, names.label).toString();
  return { secret, otpauth_url, qr_svg: await QRCode.toString(otpauth_url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) };
}

/** The step a code is right for (now, or one step either side), or null. */
function stepOf(secret: string, code: string): number | null {
  const timestamp = nowMs();
  const delta = totpOf(secret).validate({ token: code, timestamp, window: DRIFT_STEPS });
  return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD) + delta;
}

/** Accepts a code once: for a confirmed authenticator (or, with `confirming`, the one being enrolled). */
export async function acceptTotpCode(store: TotpStore, holder: Holder, code: string, confirming = false): Promise<boolean> {
  const { db } = store;
  const row = await totpRow(db, holder);
  if (!row || Boolean(row.confirmed_at) === confirming) return false;
  const secret = openTotpSecret(store, holder, row.secret);
  if (secret === undefined) return false;
  const step = stepOf(secret, code);
  if (step === null) return false;
  const result = await db
    .updateTable('totp')
    .set({ last_step: step, ...(confirming ? { confirmed_at: now() } : {}) })
    .where('id', '=', row.id)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Turns the authenticator off (or drops an enrolment never confirmed); answers whether there was one. */
export async function removeTotp(db: Db, holder: Holder): Promise<boolean> {
  const result = await db.deleteFrom('totp').where('holder_kind', '=', holder.kind).where('holder_id', '=', holder.id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
