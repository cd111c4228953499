/**
 * Secrets the server must read back (an old server's password during a mail copy, TOTP secrets):
 * AES-256-GCM with SECRET_KEY, a fresh 12-byte nonce each time, and the purpose as associated data
 * so that a value sealed for one record cannot be moved to another. Stored as "v1.<nonce>.<tag>.<ciphertext>" (base64url).
 */
import crypto from 'node:crypto';

export function seal(key: Buffer, plaintext: string, purpose: string): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', nonce, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** Whether a stored value is sealed (rather than a value kept in clear by an older release). */
export const isSealed = (stored: string) => stored.startsWith('v1.');

/** The plaintext, or undefined when the value was not sealed with this key for this purpose. */
export function open(key: Buffer, sealed: string, purpose: string): string | undefined {
  const [version, nonce, tag, body] = sealed.split('.');
  if (version !== 'v1' || body === undefined) return undefined;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
