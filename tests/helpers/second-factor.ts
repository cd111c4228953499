/** An authenticator app, as a test holds one: the secret read from enrolment, codes for any moment of the app's clock. */
import { Secret, TOTP } from 'otpauth';
import { nowMs } from '../../server/core/time.js';
import type { TestApp } from './app.js';
import type { SoftAuthenticator } from './authenticator.js';
import { someIp } from './fixtures.js';

export const totpCode = (secret: string, atMs = nowMs()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: atMs });

export type Area = 'admin' | 'manage' | 'mail';

/** Enrols TOTP for the holder of `token` in `area`: the secret and the ten recovery codes. */
export async function enrolTotp(t: TestApp, area: Area, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await t.post(`/api/${area}/second_factor/totp_start`, {}, { token });
  if (started.code !== 0) throw new Error(`totp_start failed: ${JSON.stringify(started)}`);
  const confirmed = await t.post(`/api/${area}/second_factor/totp_confirm`, { code: totpCode(started.data.secret) }, { token });
  if (confirmed.code !== 0) throw new Error(`totp_confirm failed: ${JSON.stringify(confirmed)}`);
  return { secret: started.data.secret, recoveryCodes: confirmed.data.recovery_codes };
}

/** The 30-second step is over: a new code is due (and the last one may not be replayed). */
export const nextStep = (t: TestApp) => t.moveClock(30_000);

/** The first step's answer for a login with a password. */
export function passwordStep(t: TestApp, area: Area, login: string, password: string, ip = someIp()) {
  return area === 'manage'
    ? t.post('/api/manage/login/login', { username: login, password }, { ip })
    : t.post(`/api/${area}/login/login`, { email: login, password }, { ip });
}

/** Adds a passkey made by `device` for the holder of `token` in `area`. */
export async function addPasskey(t: TestApp, area: Area, token: string, device: SoftAuthenticator, name = 'Laptop') {
  const options = await t.post(`/api/${area}/second_factor/passkey_options`, {}, { token });
  if (options.code !== 0) throw new Error(`passkey_options failed: ${JSON.stringify(options)}`);
  const added = await t.post(`/api/${area}/second_factor/passkey_add`, { challenge_token: options.data.challenge_token, name, response: device.create(options.data.options) }, { token });
  if (added.code !== 0) throw new Error(`passkey_add failed: ${JSON.stringify(added)}`);
  return added.data as { id: number; name: string };
}
