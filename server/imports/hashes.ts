/**
 * Password hashes as an old panel stored them, turned into what Dovecot and the panel verify:
 * `{SCHEME}hash`. PostfixAdmin writes most crypt(3) strings bare (its md5crypt default: `$1$…`),
 * some with Dovecot's prefix (`{SHA512-CRYPT}…`, `{SHA512-CRYPT.B64}` with the crypt string in
 * base64), and its `md5` scheme as bare hex. Anything else cannot be verified and is not carried.
 */
import { PREFERRED_SCHEME, schemeOf } from '../mail/password-schemes.js';

/**
 * Schemes password-schemes.ts verifies (as Dovecot does) that are hashes: never Dovecot's clear-text
 * `{PLAIN}`, `{CLEAR}` and `{CLEARTEXT}`, which would keep a password readable in the database (a
 * clear password belongs in a CSV file's password column, and is hashed on import).
 */
const verifiable = new Set([
  'ARGON2ID', 'ARGON2I', 'CRYPT', 'SHA512-CRYPT', 'SHA256-CRYPT', 'MD5-CRYPT', 'BLF-CRYPT',
  'SSHA512', 'SSHA256', 'SSHA', 'SMD5', 'SHA512', 'SHA256', 'SHA', 'SHA1', 'PLAIN-MD5', 'LDAP-MD5',
]);
export const clearText = /^\{(PLAIN|CLEAR|CLEARTEXT)(\.[A-Z0-9]+)?\}/i;

/** The stored form of an old hash, or undefined when no scheme we verify is recognised. */
export function normaliseHash(stored: string): string | undefined {
  const text = stored.trim();
  if (!text) return undefined;
  const prefixed = /^\{([A-Z0-9.-]+)\}(.*)$/is.exec(text);
  if (prefixed) {
    const scheme = prefixed[1].toUpperCase();
    const base = scheme.replace(/\.(B64|BASE64)$/, '');
    // A crypt string in base64 (PostfixAdmin's sha512.b64): stored as the crypt string itself.
    if (base !== scheme && base.endsWith('CRYPT')) {
      const decoded = Buffer.from(prefixed[2], 'base64').toString('latin1');
      return decoded.startsWith('$') ? normaliseHash(decoded) : undefined;
    }
    return verifiable.has(scheme.replace(/\.(HEX|B64|BASE64)$/, '')) && prefixed[2] ? `{${scheme}}${prefixed[2]}` : undefined;
  }
  if (/^[0-9a-f]{32}$/i.test(text)) return `{PLAIN-MD5}${text.toLowerCase()}`;
  const scheme = schemeOf(text);
  return scheme ? `{${scheme}}${text}` : undefined;
}

/** Whether a stored hash is weaker than what the panel writes (and so is upgraded at the next sign-in). */
export const isWeak = (stored: string) => schemeOf(stored) !== PREFERRED_SCHEME;
