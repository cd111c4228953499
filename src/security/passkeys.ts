/**
 * Passkeys in the browser with @simplewebauthn/browser: the server's options go to
 * navigator.credentials, and its answer back to the server. A ceremony the person cancels (or the
 * browser refuses) is told as such, not as a server error.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { publicApi } from '../api/clients';
import { ApiError } from '../api/errors';
import type { HttpClient } from '../api/client';
import { signInStep, type SignInArea } from '../authProvider/signIn';
import { alert } from '../dialogs/store';
import { translate } from '../i18n';

type Options = Parameters<typeof startAuthentication>[0]['optionsJSON'];
type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];

/** Runs a WebAuthn ceremony; a refusal by the browser or the person is shown and answers undefined. */
async function ceremony<T>(run: () => Promise<T>): Promise<T | undefined> {
  if (!browserSupportsWebAuthn()) {
    void alert('WARNING', translate('app.second_factor.passkey_unsupported'));
    return undefined;
  }
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    void alert('WARNING', translate('app.second_factor.passkey_cancelled'));
    return undefined;
  }
}

/** Signs in to an area with a passkey: as the second step of `token`'s sign-in, or without a password. */
export async function passkeySignIn<T extends { token: string }>(area: SignInArea, token?: string): Promise<T | undefined> {
  const params = token ? { token } : {};
  const { challenge_token, options } = await publicApi<{ challenge_token: string; options: Options }>({ method: 'POST', path: `/api/${area}/login/passkey_options`, params });
  const response = await ceremony(() => startAuthentication({ optionsJSON: options }));
  if (!response) return undefined;
  return signInStep<T>(publicApi, area, 'passkey', { ...params, challenge_token, response });
}

/** Enrols a passkey through a pending sign-in that must enrol a second factor: answers the session. */
export async function passkeyEnrolment<T extends { token: string }>(area: SignInArea, token: string, name: string): Promise<T | undefined> {
  const { challenge_token, options } = await publicApi<{ challenge_token: string; options: CreationOptions }>({ method: 'POST', path: `/api/${area}/login/enrol_passkey_options`, params: { token } });
  const response = await ceremony(() => startRegistration({ optionsJSON: options }));
  if (!response) return undefined;
  return signInStep<T>(publicApi, area, 'enrol_passkey', { token, challenge_token, name, response });
}

/** Adds a passkey to the signed-in person's account, through the area's own calls. */
export async function addPasskey(call: <R>(method: 'GET' | 'POST', path: string, params?: Record<string, unknown>) => Promise<R>, name: string) {
  const { challenge_token, options } = await call<{ challenge_token: string; options: CreationOptions }>('POST', 'second_factor/passkey_options', {});
  const response = await ceremony(() => startRegistration({ optionsJSON: options }));
  if (!response) return undefined;
  return call<{ id: number; name: string }>('POST', 'second_factor/passkey_add', { challenge_token, name, response });
}

export type { HttpClient };
