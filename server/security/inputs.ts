/** Inputs the second-factor calls share. */
import { z } from 'zod';
import { lineText } from '../../resources/text.js';

/** A pending sign-in's or a WebAuthn challenge's token, as the server handed it out. */
export const token = z.string().trim().min(1).max(100);
/** Six digits from the authenticator app, or a recovery code (xxxxx-xxxxx). */
export const code = z.string().trim().min(6, 'validation.second_factor_code').max(32, 'validation.second_factor_code');
export const totpCode = z.string().trim().regex(/^\d{6}$/, 'validation.code_format');
export const passkeyName = lineText(1, 64);

/** What @simplewebauthn/browser answers (checked in full by @simplewebauthn/server). */
export const webAuthnResponse = z.looseObject({
  id: z.string().min(1).max(2048),
  rawId: z.string().min(1).max(2048),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(20_000) }),
});
